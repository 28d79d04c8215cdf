// Upload: the body streams through a SHA-256 hash into a new blob; the entry is committed after the blob.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { StoreContext } from '../context.js';
import { HaloclineError } from '../errors.js';
import type { BlobWriter } from '../storage/blobstore.js';
import { type RawRecord, rawFile, rawKey } from './entry.js';
import { checkMimetype, checkName } from './validate.js';

/** What `upload` accepts: the whole file in memory, a Node stream, or a web stream. */
export type UploadBody = Uint8Array | Readable | WebReadableStream<Uint8Array> | ReadableStream<Uint8Array>;

/** Options of `upload`. */
export interface UploadOptions {
  /** The file's MIME type; guessed from the name's extension (.parquet, .csv, .fgb) when absent. */
  readonly mimetype?: string;
  /** Refuse (InvalidArgument, nothing kept) a body larger than this many bytes. */
  readonly maxBytes?: number;
}

/**
 * Streams `body` into a new blob and commits its entry; resolves with the file id. A body that
 * fails, is cut or exceeds `maxBytes` leaves neither an entry nor a file.
 */
export async function uploadRaw(ctx: StoreContext, table: string, name: string, body: UploadBody, options: UploadOptions = {}): Promise<string> {
  checkName(name, table);
  const mimetype = options.mimetype === undefined ? guessMimetype(name) : checkMimetype(options.mimetype, table);
  const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
  if (!(max >= 0)) throw new HaloclineError('InvalidArgument', `maxBytes must be a non-negative number, got ${String(options.maxBytes)}`, { table });
  const chunks = chunksOf(body, table);
  // the process token in the id keeps a live upload safe from another process's orphan removal at open
  const id = `${Date.now().toString(36)}-${ctx.token}-${randomBytes(6).toString('hex')}`;
  const file = rawFile(id);
  const writer = await ctx.blobs.create(file);
  let sha256: string;
  try {
    sha256 = await copy(chunks, writer, max, table);
    await writer.commit();
  } catch (e) {
    await writer.abort();
    throw e;
  }
  const now = new Date().toISOString();
  const record: RawRecord = { id, table, name, size: writer.size, sha256, mimetype, geometry: null, properties: {}, file, created: now, updated: now };
  try {
    await ctx.meta.write((tx) => tx.put(rawKey(table, id), record));
  } catch (e) {
    await ctx.blobs.remove(file).catch(() => undefined);
    throw e;
  }
  return id;
}

/** A guess from the extension, or null. */
export function guessMimetype(name: string): string | null {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (ext && mimetypes[ext]) ?? null;
}

const mimetypes: Record<string, string> = {
  parquet: 'application/vnd.apache.parquet',
  csv: 'text/csv',
  fgb: 'application/flatgeobuf',
  json: 'application/json',
  geojson: 'application/geo+json',
  nc: 'application/x-netcdf',
  txt: 'text/plain',
};

// at most this many appends in flight: the disk gets queued work, memory stays bounded
const IN_FLIGHT = 8;

async function copy(chunks: AsyncIterable<unknown>, writer: BlobWriter, max: number, table: string): Promise<string> {
  const hash = createHash('sha256');
  const pending: Promise<void>[] = [];
  for await (const chunk of chunks) {
    if (!(chunk instanceof Uint8Array)) throw new HaloclineError('InvalidArgument', 'an upload stream must yield bytes (Uint8Array or Buffer)', { table });
    if (writer.size + chunk.length > max) {
      throw new HaloclineError('InvalidArgument', `the file is larger than the limit of ${max} bytes`, { table, value: max });
    }
    hash.update(chunk);
    const p = writer.append(chunk);
    p.catch(() => undefined); // observed below or by abort; never an unhandled rejection
    pending.push(p);
    if (pending.length >= IN_FLIGHT) await pending.shift();
  }
  await Promise.all(pending);
  return hash.digest('hex');
}

function chunksOf(body: UploadBody, table: string): AsyncIterable<unknown> {
  if (body instanceof Uint8Array) return sliced(body);
  if (body instanceof Readable) return body;
  if (body !== null && typeof body === 'object' && typeof (body as { getReader?: unknown }).getReader === 'function') {
    return Readable.fromWeb(body as WebReadableStream<Uint8Array>);
  }
  throw new HaloclineError('InvalidArgument', 'upload expects a Uint8Array, a Node Readable or a web ReadableStream', { table });
}

// a large in-memory body is written in 8 MiB pieces so hashing overlaps the disk
async function* sliced(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  const piece = 8 << 20;
  for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, Math.min(bytes.length, at + piece));
}
