// A raw file's metadata in its wire shape, the stored record around it, and validation of updates.
import { featureProblem } from '../geometry/geojson.js';
import { badRequest } from '../errors.js';

/** File metadata exactly as the API returns it. */
export interface FileMetadata {
  readonly name: string;
  readonly mime_type: string | null;
  /** UUID of the dataset the file belongs to. */
  readonly dataset: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly geo_location: unknown;
  readonly size_bytes: number;
  /** SHA-256 of the content, hex; null until uploaded. */
  readonly checksum: string | null;
  readonly created_time: string;
  readonly modified_time: string;
  readonly deleted_time: string | null;
}

/** What LMDB stores per file: the wire metadata plus where its bytes are. */
export interface FileRecord {
  readonly seq: number;
  readonly id: string;
  readonly uploaded: boolean;
  /** The file in the dataset's directory holding the bytes: one per upload (`id` for records written before uploads had their own). */
  readonly blob?: string;
  readonly meta: FileMetadata;
}

/** Fields a client may set (create and metadata update). */
export interface FilePatch {
  readonly name?: string;
  readonly mime_type?: string | null;
  readonly metadata?: Record<string, unknown>;
  readonly geo_location?: unknown;
}

const SETTABLE = new Set(['name', 'mime_type', 'metadata', 'geo_location']);
const READ_ONLY = new Set(['dataset', 'size_bytes', 'checksum', 'created_time', 'modified_time', 'deleted_time']);

/** Validates a create or update body; `requireName` for create. Read-only fields sent back are ignored. */
export function validateFilePatch(body: unknown, requireName: boolean): FilePatch {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('file metadata must be a JSON object such as {"name": "cast.csv"}');
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!SETTABLE.has(k) && !READ_ONLY.has(k)) throw badRequest(`${k}: unknown file metadata field (settable: name, mime_type, metadata, geo_location)`);
  const out: { -readonly [K in keyof FilePatch]: FilePatch[K] } = {};
  if (b.name !== undefined || requireName) out.name = fileName(b.name);
  if (b.mime_type !== undefined) {
    if (b.mime_type !== null && !isMimeType(b.mime_type)) throw badRequest(`mime_type: expected a MIME type such as text/csv (printable ASCII, at most 255 characters), got ${JSON.stringify(b.mime_type).slice(0, 300)}`);
    out.mime_type = b.mime_type as string | null;
  }
  if (b.metadata !== undefined) {
    if (typeof b.metadata !== 'object' || b.metadata === null || Array.isArray(b.metadata)) throw badRequest('metadata: expected an object of key to value');
    out.metadata = b.metadata as Record<string, unknown>;
  }
  if (b.geo_location !== undefined) {
    if (b.geo_location !== null) {
      const problem = featureProblem(b.geo_location);
      if (problem) throw badRequest(`geo_location: expected a GeoJSON Feature: ${problem}`);
    }
    out.geo_location = b.geo_location;
  }
  return out;
}

/**
 * A MIME type as it may go into a `Content-Type` header: `type/subtype`, then optional parameters,
 * printable ASCII only (no line breaks), at most 255 characters.
 */
export function isMimeType(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 255 && /^[\w.+-]+\/[\w.+-]+(?:[ \t]*;[\x20-\x7e]*)?$/.test(v);
}

/** A valid file name: non-empty, no leading `/`, no NUL, not `.` or `..`, at most 1024 characters. */
export function fileName(v: unknown): string {
  if (typeof v !== 'string' || v.length === 0) throw badRequest(`name: a file needs a non-empty string name, got ${JSON.stringify(v)}`);
  if (v.startsWith('/')) throw badRequest(`name: must not start with "/", got ${JSON.stringify(v)}`);
  if (v.length > 1024 || v.includes('\0')) throw badRequest('name: at most 1024 characters and no NUL');
  // URL clients resolve these as dot segments, so no request could reach the file again
  if (v === '.' || v === '..') throw badRequest(`name: ${JSON.stringify(v)} cannot be used in a URL; choose another name`);
  return v;
}
