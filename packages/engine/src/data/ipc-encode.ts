// Arrow IPC streams written incrementally, as views of the batches' own buffers (HTTP answers and request bodies).
import { AsyncByteQueue, RecordBatch, RecordBatchStreamWriter, type Schema } from 'apache-arrow';

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

/**
 * The chunks of a whole IPC stream of `batches` (the schema and one empty batch, with `metadata`,
 * when there are none): the batches' buffers as views, never joined into one buffer.
 */
export function* ipcChunks(schema: Schema, batches: readonly RecordBatch[], metadata?: ReadonlyMap<string, string>): Generator<Buffer> {
  const enc = new IpcEncoder(schema);
  if (batches.length === 0) yield enc.batch(new RecordBatch(schema, undefined), metadata);
  for (const b of batches) yield* enc.batchChunks(b);
  yield enc.end();
}
