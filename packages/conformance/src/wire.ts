// Wire-level helpers: raw fetch requests in the Python/R clients' shapes, IPC and trailer decoding.
import { Field, Float64, Int32, RecordBatch, RecordBatchReader, RecordBatchStreamWriter, Schema, Utf8 } from 'apache-arrow';
import type { ConformanceServer } from './test-server.js';

export const ARROW = 'application/vnd.apache.arrow.stream';

/** The Python client's table: id, depth, name, geometry (WKT). */
export const wireSchema = new Schema([
  new Field('id', new Int32(), false),
  new Field('depth', new Float64(), true),
  new Field('name', new Utf8(), true),
  new Field('geometry', new Utf8(), true, new Map([['class', 'geometry']])),
]);

/** Schema + one empty batch (with optional batch metadata), as `create`/`alter` send it. */
export function schemaBody(schema: Schema, metadata?: Map<string, string>): Uint8Array {
  return RecordBatchStreamWriter.writeAll([new RecordBatch(schema, undefined, metadata)]).toUint8Array(true);
}

/** POSTs to a v2 route with `Authorization: ApiKey` (alice unless `key`), JSON or bytes. */
export function post(s: ConformanceServer, path: string, query: Record<string, string>, opts: { json?: unknown; body?: Uint8Array; key?: string | null; accept?: string } = {}): Promise<Response> {
  const headers: Record<string, string> = { 'user-agent': 'odp-sdk-python/0.4.10' };
  const key = opts.key === undefined ? s.aliceKey : opts.key;
  if (key !== null) headers.authorization = `ApiKey ${key}`;
  if (opts.accept) headers.accept = opts.accept;
  let body: RequestInit['body'];
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.body) {
    headers['content-type'] = ARROW;
    body = opts.body;
  }
  return fetch(`${s.url}/api/table/v2/${path}?${new URLSearchParams(query)}`, { method: 'POST', headers, body });
}

/** A decoded streamed answer: batches (with their metadata) and the JSON trailer after end-of-stream. */
export interface Decoded {
  readonly schema: Schema;
  readonly batches: RecordBatch[];
  readonly trailer: { started: string; ended: string; cursor: string | null } | undefined;
}

const EOS = Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

/** Decodes an IPC answer as pyarrow would (stops at end-of-stream), and the trailer as the R client does. */
export async function decode(res: Response): Promise<Decoded> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const reader = RecordBatchReader.from(bytes);
  reader.open();
  const schema = reader.schema;
  const batches = [...reader];
  const end = bytes.lastIndexOf(EOS);
  const rest = end >= 0 ? bytes.subarray(end + EOS.length).toString('utf8') : '';
  return { schema, batches, trailer: rest ? JSON.parse(rest) : undefined };
}

/** The `id` column values of decoded batches. */
export const idsOf = (d: Decoded): number[] => d.batches.flatMap((b) => [...(b.getChild('id')?.toArray() ?? [])] as number[]);

/** The JSON body of a response, untyped (tests inspect it field by field). */
export const json = async (res: Response | Promise<Response>): Promise<any> => (await res).json(); // eslint-disable-line @typescript-eslint/no-explicit-any
