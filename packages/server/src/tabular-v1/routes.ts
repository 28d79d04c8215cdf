// Tabular v1 routes: schema create/get/delete, row insert, and list (NDJSON or JSON, with continuation).
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Table } from '@halocline/engine';
import type { Schema } from 'apache-arrow';
import { principalOf } from '../auth/authenticate.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { boolParam, intParam, jsonBody } from '../http/body.js';
import type { AppContext } from '../http/context.js';
import { checkWrite, dataPrefixes, datasetWithClass } from '../http/datasets.js';
import { type OqsNode, parseOqs } from '../oqs/index.js';
import { type ListItem, type ListScan, listRows, openList } from './list.js';
import { toArrowSchema, toV1Schema } from './schema.js';
import { fileOnRaw } from './raw-paths.js';
import { validateRows } from './validate-rows.js';
import { stageOf } from './stages.js';

const tags = ['tabular v1'];
/** Rows of a JSON list answer when the request gives no `limit` (then `next` continues). */
export const JSON_PAGE = 100_000;
/** Most rows one insert request may carry. */
export const MAX_INSERT_ROWS = 100_000;

/** Registers the schema routes; insert and list are dispatched by storage class (see data-routes). */
export function tabularRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const p of dataPrefixes(ctx)) {
    app.post(`${p}/schema`, { schema: { tags, summary: 'Create the table schema' } }, async (req) => {
      const ds = datasetWithClass(ctx, req, 'tabular', 'creating a schema');
      checkWrite(ctx, req, ds);
      const schema = toArrowSchema(jsonBody(req));
      await ctx.store.table(ds.metadata.uuid).create(schema);
      return { table_schema: toV1Schema(schema) };
    });
    // on a raw dataset, GET and DELETE /schema are those of a file named "schema"
    const schemaFile = () => ['schema'];
    app.get(`${p}/schema`, { schema: { tags, summary: 'Read the table schema (raw dataset: the file named "schema")' } }, fileOnRaw(ctx, schemaFile, async (req) => {
      const ds = datasetWithClass(ctx, req, 'tabular', 'reading a schema');
      return { table_schema: toV1Schema(await schemaOf(ctx.store.table(ds.metadata.uuid), ds.metadata.name)), partitioning: null };
    }));
    type DeleteReq = FastifyRequest<{ Querystring: { delete_data?: string } }>;
    app.delete(`${p}/schema`, { schema: { tags, summary: 'Delete the schema (and data) (raw dataset: the file named "schema")' } }, fileOnRaw(ctx, schemaFile, async (req: DeleteReq, reply) => {
      const ds = datasetWithClass(ctx, req, 'tabular', 'deleting a schema');
      checkWrite(ctx, req, ds);
      const t = ctx.store.table(ds.metadata.uuid);
      await schemaOf(t, ds.metadata.name);
      if (!boolParam(req.query.delete_data, 'delete_data', false) && (await t.select().count()) > 0) {
        throw conflict(`dataset ${ds.metadata.name} has rows; pass delete_data=true to delete the schema with its data`);
      }
      await t.drop();
      return reply.status(204).send();
    }));
  }
}

/** POST /data/{ref} on a tabular dataset: `{data: [rows]}`. */
export async function insertRows(ctx: AppContext, req: FastifyRequest): Promise<unknown> {
  const ds = datasetWithClass(ctx, req, 'tabular', 'inserting rows');
  checkWrite(ctx, req, ds);
  const body = jsonBody(req) as { data?: unknown; stage_id?: unknown } | undefined;
  const staged = body?.stage_id !== undefined && body.stage_id !== null;
  if (staged && typeof body.stage_id !== 'string') throw badRequest('stage_id: expected the string returned by POST /stage');
  const stage = staged ? stageOf(ctx, req, body.stage_id as string, ds.metadata.uuid).stage : undefined;
  const t = ctx.store.table(ds.metadata.uuid);
  const schema = await schemaOf(t, ds.metadata.name);
  const rows = validateRows(body?.data, schema, MAX_INSERT_ROWS);
  await (stage ? stage.tx.insert(rows) : t.insert(rows));
  return { num_rows: rows.length };
}

/** POST /data/{ref}/list on a tabular dataset: NDJSON when asked for, else `{data, next}`. */
export async function listTable(ctx: AppContext, req: FastifyRequest<{ Querystring: { limit?: string; cursor?: string } }>, reply: FastifyReply): Promise<unknown> {
  const ds = datasetWithClass(ctx, req, 'tabular', 'listing rows');
  const t = ctx.store.table(ds.metadata.uuid);
  const schema = await schemaOf(t, ds.metadata.name);
  const body = jsonBody(req);
  // clients send the OQS filter itself, or {"query": <OQS>}
  const wrapped = typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 1 && 'query' in body;
  const filter = parseOqs(wrapped ? (body as { query: unknown }).query : body);
  const ndjsonWanted = wantsNdjson(req.headers.accept);
  // a JSON answer is built in memory, so it holds at most JSON_PAGE rows unless a limit says otherwise
  const limit = intParam(req.query.limit, 'limit', ndjsonWanted ? Number.MAX_SAFE_INTEGER : JSON_PAGE, Number.MAX_SAFE_INTEGER);
  // last: a continuation takes its parked scan (and its snapshot) out of the leases
  const scan = resumeList(ctx, req, t, schema, filter);
  const park = (s: ListScan): string => ctx.listCursors.add(s, ds.metadata.uuid, principalOf(req).id);
  // a JSON answer is one string in memory: its rows are bounded by size too (V8 strings end near 512 MiB)
  const items = listRows(scan, { limit, budgetMs: ctx.config.listBudgetMs, park, ...(ndjsonWanted ? {} : { maxBytes: ctx.config.listJsonBytes }) });
  // the first item is read before answering, so a bad filter is a 400 and not a broken stream
  const first = await items.next();
  if (ndjsonWanted) {
    reply.type('application/x-ndjson');
    return reply.send(Readable.from(ndjson(first.value as ListItem, items)));
  }
  const data: unknown[] = [];
  let next: string | null = null;
  for (let it = first; !it.done; it = await items.next()) {
    const item = it.value;
    if ('rows' in item) for (const r of item.rows) data.push(r);
    else if ('next' in item) next = item.next;
  }
  return { data, next };
}

/** NDJSON lines: each row, then `{"@@next": cursor}` or `{"@@end": true}`; one chunk per batch. */
async function* ndjson(first: ListItem, rest: AsyncGenerator<ListItem>): AsyncGenerator<string> {
  const text = (item: ListItem): string =>
    'rows' in item ? `${item.rows.map((r) => JSON.stringify(r)).join('\n')}\n` : `${JSON.stringify('next' in item ? { '@@next': item.next } : { '@@end': true })}\n`;
  yield text(first);
  for await (const item of rest) yield text(item);
}

function wantsNdjson(accept: string | undefined): boolean {
  return accept !== undefined && /application\/(x-)?ndjson|application\/jsonl/.test(accept);
}

// the parked scan of a continuation cursor (the body's filter then is the one it started with), or a new one
function resumeList(ctx: AppContext, req: FastifyRequest<{ Querystring: { cursor?: string } }>, t: Table, schema: Schema, filter: OqsNode): ListScan {
  const cursor = req.query.cursor;
  if (cursor === undefined || cursor === '') return openList(t, schema, filter);
  const got = ctx.listCursors.get(cursor, t.name, principalOf(req).id);
  if (typeof got !== 'string') {
    ctx.listCursors.delete(cursor); // a continuation is used once; a repeated request would skip rows
    return got;
  }
  if (got === 'owner') throw forbidden('this cursor belongs to another account');
  const why = got === 'expired' ? `expired after ${ctx.config.cursorTtlMs} ms without use` : got === 'deleted' ? 'is gone: its dataset was deleted' : got === 'table' ? 'belongs to another dataset' : 'is not one this server returned';
  throw badRequest(`query parameter cursor ${why}; start the listing again without a cursor`, 'InvalidCursor');
}

async function schemaOf(t: Table, name: string) {
  const schema = await t.schema();
  if (!schema) throw notFound(`dataset ${name} has no table schema yet (POST /data/{ref}/schema creates it)`);
  return schema;
}
