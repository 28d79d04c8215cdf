// Arrow IPC streams in and out: bodies decoded (compressed batches included), batches encoded one at a time.
import type { Readable } from 'node:stream';
import { AsyncByteQueue, RecordBatch, RecordBatchReader, RecordBatchStreamWriter, type Schema } from 'apache-arrow';
import { badRequest } from '../errors.js';
import { installCodecs } from './codecs.js';

installCodecs();

/** The IPC stream content type. */
export const ARROW_STREAM = 'application/vnd.apache.arrow.stream';

// a sink the writer fills synchronously; we take its chunks after each write
class Collector extends AsyncByteQueue<Uint8Array> {
  private chunks: Uint8Array[] = [];
  override write(value: Uint8Array): void {
    if (value.byteLength > 0) this.chunks.push(value);
  }
  take(): Buffer {
    return Buffer.concat(this.takeChunks());
  }
  /** The pending chunks as Buffer views, no copy (column buffers are never written after a batch is made). */
  takeChunks(): Buffer[] {
    const out = this.chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength));
    this.chunks = [];
    return out;
  }
}

/**
 * Encodes one IPC stream incrementally: `batch()` returns the bytes of the schema (first call) and
 * one record batch, `end()` the end-of-stream marker. Batches are re-labelled with the stream's
 * schema so a metadata difference never starts a second stream.
 */
export class IpcEncoder {
  private readonly sink = new Collector();
  private readonly writer = new RecordBatchStreamWriter();

  constructor(readonly schema: Schema) {
    this.writer.reset(this.sink as unknown as AsyncByteQueue<Uint8Array>, schema);
  }

  batch(b: RecordBatch, metadata?: ReadonlyMap<string, string>): Buffer {
    return Buffer.concat(this.batchChunks(b, metadata));
  }

  /** The same bytes as `batch()`, as views of the batch's own buffers (headers and padding between). */
  batchChunks(b: RecordBatch, metadata?: ReadonlyMap<string, string>): Buffer[] {
    this.writer.write(new RecordBatch(this.schema, b.data, metadata ? new Map(metadata) : b.metadata));
    return this.sink.takeChunks();
  }

  /** A zero-row batch carrying `metadata` (cursor, error). */
  marker(metadata: ReadonlyMap<string, string>): Buffer {
    return this.batch(new RecordBatch(this.schema, undefined), metadata);
  }

  end(): Buffer {
    this.writer.finish();
    return this.sink.take();
  }
}

/** The whole stream of a schema and one empty batch (schema fetch, create bodies). */
export function schemaStream(schema: Schema): Buffer {
  const e = new IpcEncoder(schema);
  return Buffer.concat([e.batch(new RecordBatch(schema, undefined)), e.end()]);
}

/** Reads an IPC stream body; 400 (plain text) when it is not one. At most `limit` bytes are read. */
export async function readIpc(body: unknown, limit: number, code: 'InvalidSchema' | 'InvalidData'): Promise<{ schema: Schema; batches: RecordBatch[] }> {
  const bytes = await readBody(body, limit);
  if (bytes.byteLength === 0) throw badRequest('the body is empty; expected an Arrow IPC stream (application/vnd.apache.arrow.stream)', code);
  try {
    const reader = RecordBatchReader.from(bytes);
    reader.open();
    const schema = reader.schema;
    if (!schema) throw new Error('no schema message');
    const batches = [...reader];
    return { schema, batches };
  } catch (e) {
    throw badRequest(`the body is not a readable Arrow IPC stream: ${(e as Error).message}`, code);
  }
}

async function readBody(body: unknown, limit: number): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return body;
  if (body === undefined || body === null) return new Uint8Array(0);
  if (typeof (body as Readable).on !== 'function') throw badRequest('expected an Arrow IPC stream body (application/vnd.apache.arrow.stream)');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as Readable) {
    size += (chunk as Buffer).byteLength;
    if (size > limit) {
      (body as Readable).destroy();
      throw badRequest(`the Arrow body is larger than the limit of ${limit} bytes; send the rows in several inserts`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
