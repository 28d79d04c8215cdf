// Arrow IPC on the client side: request bodies from batches, and batches from a streamed response.
import { type RecordBatch, RecordBatch as Batch, RecordBatchStreamWriter, type Schema } from 'apache-arrow';
import { HaloclineError, type ErrorCode, readIpcStream } from '@halocline/engine';
import { DirectBody } from './direct-http.js';

export const ARROW_STREAM = 'application/vnd.apache.arrow.stream';

/** An IPC stream of `batches` (the schema and one empty batch when there are none). */
export function toIpc(schema: Schema, batches: readonly RecordBatch[], metadata?: Map<string, string>): Uint8Array {
  const list = batches.length > 0 ? batches.map((b) => new Batch(schema, b.data)) : [new Batch(schema, undefined, metadata)];
  return RecordBatchStreamWriter.writeAll(list).toUint8Array(true);
}

/** What one streamed answer carried: its schema, batches with rows, and the continuation cursor. */
export interface Streamed {
  readonly schema: Schema;
  readonly cursor: string | undefined;
}

/**
 * Yields the row-carrying batches of an IPC response; returns the `cursor` from batch metadata.
 * A batch with metadata `error` throws (the code from `error_code` when it is an engine code).
 */
export async function* readBatches(res: Response | { body: AsyncIterable<Uint8Array> | NodeJS.ReadableStream | DirectBody }): AsyncGenerator<RecordBatch, Streamed> {
  if (!res.body) throw new HaloclineError('Corrupt', 'the server answered no body where an Arrow IPC stream was expected');
  // a direct body's chunks are views of a reused read buffer: every record batch body is copied out
  const it = res.body instanceof DirectBody ? readIpcStream(res.body, { views: false }) : readIpcStream(res.body as unknown as AsyncIterable<Uint8Array>);
  let cursor: string | undefined;
  let r = await it.next();
  for (; !r.done; r = await it.next()) {
    const b = r.value;
    const error = b.metadata.get('error');
    if (error !== undefined) {
      await it.return(undefined as never);
      throw new HaloclineError(engineCode(b.metadata.get('error_code')), error);
    }
    const c = b.metadata.get('cursor');
    if (c) cursor = c;
    if (b.numRows > 0) yield b;
  }
  return { schema: r.value.schema, cursor };
}

/** The schema of an IPC response (schema fetch). */
export async function readSchema(res: Response): Promise<Schema> {
  const it = readIpcStream(res.body as unknown as AsyncIterable<Uint8Array>);
  let r = await it.next();
  while (!r.done) r = await it.next();
  return r.value.schema;
}

const codes = new Set(['FileAlreadyExists', 'NotFound', 'InvalidSchema', 'InvalidData', 'InvalidArgument', 'QuerySyntax', 'QueryType', 'Conflict', 'Corrupt', 'Closed']);

function engineCode(code: string | undefined): ErrorCode {
  return code !== undefined && codes.has(code) ? (code as ErrorCode) : 'Corrupt';
}
