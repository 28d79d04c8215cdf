// Arrow IPC streams in and out: bodies decoded (compressed batches included), batches encoded one at a time.
import type { Readable } from 'node:stream';
import { IpcEncoder, type IpcEnd, batchProblem, isHaloclineError, readIpcStream } from '@halocline/engine';
import { RecordBatch, type Schema } from 'apache-arrow';
import { ApiError, badRequest } from '../errors.js';
import { installCodecs } from './codecs.js';

installCodecs();

/** The IPC stream content type. */
export const ARROW_STREAM = 'application/vnd.apache.arrow.stream';

export { IpcEncoder };

/** The whole stream of a schema and one empty batch (schema fetch, create bodies). */
export function schemaStream(schema: Schema): Buffer {
  const e = new IpcEncoder(schema);
  return Buffer.concat([e.batch(new RecordBatch(schema, undefined)), e.end()]);
}

/**
 * The record batches of an IPC stream body, decoded one at a time as the bytes arrive (never the
 * whole body in memory); returns the body's schema. More than `limit` bytes, an empty body or bytes
 * that are not an IPC stream: 400 (plain text) with `code`.
 */
export async function* ipcBatches(body: unknown, limit: number, code: 'InvalidSchema' | 'InvalidData'): AsyncGenerator<RecordBatch, Schema> {
  let any = false;
  const it = readIpcStream(bodyStream(body), { maxBytes: limit, tooLarge, release: 'drain' });
  try {
    for (let r = await next(it, code); ; r = await next(it, code)) {
      if (r.done) return endOf(r.value, code);
      any = true;
      const problem = batchProblem(r.value);
      if (problem) throw badRequest(`the body is not a sound Arrow IPC stream: ${problem}`, code);
      yield r.value;
    }
  } catch (e) {
    if (e instanceof ApiError || any || !isHaloclineError(e, 'Corrupt') || !/no Arrow IPC schema/.test(e.message)) throw e;
    throw badRequest('the body is empty or holds no Arrow IPC schema; expected an Arrow IPC stream (application/vnd.apache.arrow.stream)', code);
  }
}

/** A whole IPC body: its schema, each batch's metadata, and (when `keep`) the batches. */
export async function readIpc(body: unknown, limit: number, code: 'InvalidSchema' | 'InvalidData', keep = true): Promise<{ schema: Schema; batches: RecordBatch[]; metadata: Map<string, string>[] }> {
  const batches: RecordBatch[] = [];
  const metadata: Map<string, string>[] = [];
  const it = ipcBatches(body, limit, code);
  for (let r = await it.next(); ; r = await it.next()) {
    if (r.done) return { schema: r.value, batches, metadata };
    metadata.push(r.value.metadata);
    if (keep) batches.push(r.value);
  }
}

// one step of the reader; what it throws (framing, flatbuffers, codecs) is the client's fault: 400
async function next(it: AsyncGenerator<RecordBatch, IpcEnd>, code: string): Promise<IteratorResult<RecordBatch, IpcEnd>> {
  try {
    return await it.next();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw badRequest(`the body is not a readable Arrow IPC stream: ${(e as Error).message}`, code);
  }
}

// the schema of a finished body; bytes after the end-of-stream marker mean it is not one IPC stream
function endOf(end: IpcEnd, code: string): Schema {
  if (end.trailer.length > 0) throw badRequest(`the body goes on after the Arrow IPC end-of-stream marker; send exactly one IPC stream`, code);
  return end.schema;
}

// the request body as a Node stream (or the bytes an injected request carries)
function bodyStream(body: unknown): Readable | Uint8Array[] {
  if (body instanceof Uint8Array) return [body];
  if (body === undefined || body === null) return [];
  if (typeof (body as Readable).on !== 'function') throw badRequest('expected an Arrow IPC stream body (application/vnd.apache.arrow.stream)');
  return body as Readable;
}

const tooLarge = (limit: number) => badRequest(`the Arrow body is larger than the limit of ${limit} bytes; send the rows in several inserts`);
