// Validation of file metadata: names, MIME types, string properties and WKT/WKB geometries (via wkx).
import { HaloclineError } from '../errors.js';
import { parseGeometry } from '../geo/parse.js';

/** What `updateMeta` may set; `null` clears `geometry` and `mimetype`. */
export interface RawMetaPatch {
  readonly name?: string;
  /** WKT text, or WKB bytes. */
  readonly geometry?: string | Uint8Array | null;
  readonly mimetype?: string | null;
  /** Replaces all properties. */
  readonly properties?: Readonly<Record<string, string>>;
}

/** The validated patch, geometry normalised to WKT. */
export interface CheckedPatch {
  name?: string;
  geometry?: string | null;
  mimetype?: string | null;
  properties?: Record<string, string>;
}

/** A file name: 1–1024 characters, no leading "/", no control characters. */
export function checkName(name: unknown, table: string): string {
  if (typeof name !== 'string' || name.length === 0 || name.length > 1024) {
    throw fail(table, 'a file name is a non-empty string of at most 1024 characters', name);
  }
  if (name.startsWith('/')) throw fail(table, `file name "${name}" must not start with "/"`, name);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw fail(table, `file name ${JSON.stringify(name)} contains a control character`, name);
  return name;
}

/** Validates every key of `patch`; throws InvalidArgument naming the field and what to fix. */
export function checkPatch(patch: unknown, table: string): CheckedPatch {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    throw fail(table, 'updateMeta expects an object with any of name, geometry, mimetype, properties', patch);
  }
  const out: CheckedPatch = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    switch (key) {
      case 'name':
        out.name = checkName(value, table);
        break;
      case 'geometry':
        out.geometry = value === null ? null : checkGeometry(value, table);
        break;
      case 'mimetype':
        out.mimetype = value === null ? null : checkMimetype(value, table);
        break;
      case 'properties':
        out.properties = checkProperties(value, table);
        break;
      default:
        throw fail(table, `unknown file metadata "${key}"; settable are name, geometry, mimetype, properties`, value);
    }
  }
  return out;
}

/** A MIME type such as `text/csv` or `application/vnd.apache.parquet; charset=binary`, lower-cased. */
export function checkMimetype(value: unknown, table: string): string {
  if (typeof value !== 'string' || !/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(value.trim()) || value.length > 255) {
    throw fail(table, `mimetype must look like "type/subtype" (e.g. "text/csv"), got ${JSON.stringify(value)}`, value);
  }
  return value.trim().toLowerCase();
}

/** Properties: a plain object of string keys to string values. */
export function checkProperties(value: unknown, table: string): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) {
    throw fail(table, 'properties must be a plain object of string keys to string values', value);
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw fail(table, `property "${k}" must be a string, got ${v === null ? 'null' : typeof v}`, v);
    out[k] = v;
  }
  return out;
}

/** A WKT string or WKB bytes that parse as a geometry; returned as WKT. */
export function checkGeometry(value: unknown, table: string): string {
  const isText = typeof value === 'string';
  if (!isText && !(value instanceof Uint8Array)) throw fail(table, 'geometry must be WKT text or WKB bytes (a Uint8Array)', value);
  try {
    return parseGeometry(value).toWkt();
  } catch (e) {
    const what = isText ? `WKT ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)}` : `WKB of ${value.length} bytes`;
    throw fail(table, `geometry is not valid ${what}: ${(e as Error).message}`, value);
  }
}

function fail(table: string, message: string, value: unknown): HaloclineError {
  return new HaloclineError('InvalidArgument', message, { table, value });
}
