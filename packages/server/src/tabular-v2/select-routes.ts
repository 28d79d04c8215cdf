// Tabular v2 reads: schema fetch, select (Arrow IPC, NDJSON, GeoJSON, FlatGeobuf) with continuations, aggregate.
import { Readable } from 'node:stream';
import { batchToRows, type Cursor, type Table, type Transaction } from '@halocline/engine';
import { RecordBatch, Schema } from 'apache-arrow';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, badRequest } from '../errors.js';
import type { AppContext } from '../http/context.js';
import { aggregateBody, isSchemaFetch, selectBody } from './body.js';
import { ARROW_STREAM, IpcEncoder, schemaStream } from './ipc.js';
import type { Leases } from './leases.js';
import { flatgeobufAnswer, geojsonAnswer } from './geo-select.js';
import { ipcSelect, ndjsonSelect, type Pinned, pin } from './stream.js';
import { schemaOrNoTable, target, type V2Query } from './target.js';
import { type TxHandle, txOf } from './tx-routes.js';

const tags = ['tabular v2'];

/** What the read routes share: open transactions and parked cursors. */
export interface ReadState {
  readonly txs: Leases<TxHandle>;
  readonly cursors: Leases<Pinned>;
}

type Format = 'arrow' | 'ndjson' | 'geojson' | 'flatgeobuf';

/** select (and schema fetch) and aggregate. */
export function selectRoutes(app: FastifyInstance, ctx: AppContext, state: ReadState): void {
  app.post('/api/table/v2/sdk/select', { schema: { tags, summary: 'Select rows (Arrow IPC stream by default)' } }, async (req, reply) => {
    const t = target(ctx, req, false);
    const body = selectBody(req);
    const format = negotiate(req.headers.accept);
    const deadline = Date.now() + body.timeout * 1000;
    const park = (p: Pinned): string => state.cursors.add(p, t.tableId, t.owner);
    if (body.cursor !== undefined) return answer(reply, format, resumed(state, body.cursor, t.tableId, t.owner), deadline, park, t.tableId);
    const schema = await schemaOrNoTable(t.table);
    if (isSchemaFetch(body.query)) return reply.type(ARROW_STREAM).send(schemaStream(schema));
    const source: { select: Table['select'] } = txFor(req, state, t.tableId, t.owner) ?? t.table;
    const cursor = source.select(body.query, { cols: body.cols, vars: body.vars }) as Cursor;
    const p = await pin(project(schema, body.cols), cursor.batches());
    return answer(reply, format, p, deadline, park, t.tableId);
  });

  app.post('/api/table/v2/sdk/aggregate', { schema: { tags, summary: 'Partial aggregates by group (Arrow IPC stream)' } }, async (req, reply) => {
    const t = target(ctx, req, false);
    const body = aggregateBody(req);
    await schemaOrNoTable(t.table);
    const source: { aggregatePartials: Table['aggregatePartials'] } = txFor(req, state, t.tableId, t.owner) ?? t.table;
    const partials = await source.aggregatePartials(body.by, { query: body.query, aggr: body.aggr, vars: body.vars });
    const enc = new IpcEncoder(partials.schema);
    const chunks = partials.batches.map((b) => enc.batch(b));
    if (chunks.length === 0) chunks.push(enc.batch(new RecordBatch(partials.schema, undefined)));
    return reply.type(ARROW_STREAM).send(Buffer.concat([...chunks, enc.end()]));
  });
}

/** The transaction named by `tx_id` (`""` = none), checked to belong to this table and account. */
export function txFor(req: FastifyRequest, state: ReadState, table: string, owner: string): Transaction | undefined {
  const id = (req.query as V2Query).tx_id;
  if (id === undefined || id === '') return undefined;
  return txOf(state.txs, id, table, owner).tx;
}

function resumed(state: ReadState, cursor: string, table: string, owner: string): Pinned {
  const p = state.cursors.get(cursor, table, owner);
  if (p === 'owner') throw new ApiError(403, 'Forbidden', 'this cursor belongs to another account');
  if (typeof p === 'string') {
    throw new ApiError(410, 'CursorExpired', `cursor ${cursor.slice(0, 12)}… is ${p === 'expired' ? 'expired (its snapshot was released); run the select again' : p === 'deleted' ? 'gone: its dataset was deleted' : 'unknown for this table'}`);
  }
  state.cursors.delete(cursor);
  return p;
}

async function answer(reply: FastifyReply, format: Format, p: Pinned, deadline: number, park: (p: Pinned) => string, table: string): Promise<FastifyReply> {
  if (format === 'geojson') return geojsonAnswer(reply, p, deadline, park, table);
  if (format === 'flatgeobuf') return flatgeobufAnswer(reply, p, deadline, park, table);
  if (format === 'ndjson') return reply.type('application/x-ndjson').send(await buffered(ndjsonSelect(p, deadline, park, batchToRows)));
  return reply.type(ARROW_STREAM).send(await buffered(ipcSelect(p, deadline, park)));
}

/** Bytes an answer may run ahead of the socket: the scan keeps going while the client reads. */
const READ_AHEAD = 16 << 20;

/**
 * A small answer (all of it within the first 1 MiB) as one buffer, sent with a content length; a
 * larger one as a stream that starts with what was read ahead.
 */
async function buffered(chunks: AsyncGenerator<Buffer | string>): Promise<Buffer | Readable> {
  const head: (Buffer | string)[] = [];
  let size = 0;
  for (;;) {
    const r = await chunks.next();
    if (r.done) return Buffer.concat(head.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
    head.push(r.value);
    size += r.value.length;
    if (size >= 1 << 20) break;
  }
  async function* rest(): AsyncGenerator<Buffer | string> {
    yield* head;
    yield* chunks;
  }
  return Readable.from(rest(), { objectMode: false, highWaterMark: READ_AHEAD });
}

function negotiate(accept: string | undefined): Format {
  if (!accept) return 'arrow';
  if (/application\/(x-)?ndjson|application\/jsonl/.test(accept)) return 'ndjson';
  if (/application\/geo\+json/.test(accept)) return 'geojson';
  if (/application\/(vnd\.)?flatgeobuf/.test(accept)) return 'flatgeobuf';
  return 'arrow';
}

function project(schema: Schema, cols: readonly string[] | undefined): Schema {
  if (!cols) return schema;
  const fields = cols.map((c) => {
    const field = schema.fields.find((f) => f.name === c);
    if (!field) throw badRequest(`unknown column "${c}" in cols; the table has ${schema.fields.map((f) => f.name).join(', ')}`, 'InvalidArgument');
    return field;
  });
  return new Schema(fields, schema.metadata);
}
