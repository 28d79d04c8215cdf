// Tabular v1 writes through engine transactions: POST /data/{ref}/delete, PATCH /data/{ref}, /stage.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Table, Transaction } from '@halocline/engine';
import type { Schema } from 'apache-arrow';
import { principalOf } from '../auth/authenticate.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { boolParam, jsonBody } from '../http/body.js';
import type { AppContext } from '../http/context.js';
import { checkWrite, dataPrefixes, datasetWithClass } from '../http/datasets.js';
import { parseOqs } from '../oqs/index.js';
import { rowPatcher } from './patch.js';
import { fileOnRaw } from './raw-paths.js';
import { toEngineFilter } from './to-query.js';
import { jsonValueReader } from './validate-rows.js';

/** An open stage: an engine transaction held between requests (`ctx.stages`). */
export interface Stage {
  readonly tx: Transaction;
  readonly created: string;
}

/** Registers the delete, update and stage routes. */
export function transactionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tags = ['tabular v1'];
  const writable = (req: FastifyRequest, op: string) => {
    const ds = datasetWithClass(ctx, req, 'tabular', op);
    checkWrite(ctx, req, ds);
    return { ds, t: ctx.store.table(ds.metadata.uuid) };
  };
  for (const p of dataPrefixes(ctx)) {
    app.post(`${p}/delete`, { schema: { tags, summary: 'Delete rows matching an OQS filter' } }, async (req) => {
      const { t } = writable(req, 'deleting rows');
      const f = engineFilter(jsonBody(req), await t.schema());
      return { num_rows: await inTransaction(t, (tx) => tx.delete(f.query, { vars: f.vars })) };
    });
    app.patch(`${p}`, { schema: { tags, summary: 'Update rows: {update_filters, data}' } }, async (req) => {
      const { ds, t } = writable(req, 'updating rows');
      const body = jsonBody(req) as { update_filters?: unknown; data?: unknown } | undefined;
      const schema = await t.schema();
      if (!schema) throw notFound(`dataset ${ds.metadata.name} has no table schema yet (POST /data/{ref}/schema creates it)`);
      const f = engineFilter(body?.update_filters, schema);
      const given = body?.data;
      if (typeof given !== 'object' || given === null || Array.isArray(given)) throw badRequest('data: expected an object of column to new value');
      const next = rowPatcher(schema, jsonValueReader(schema)(given as Record<string, unknown>, 'data'), t.name);
      return {
        num_rows: await inTransaction(t, async (tx) => {
          // matches are computed first (replace); each batch of them is re-inserted as it comes, its
          // patched columns replaced and the others carried over as stored
          let n = 0;
          for await (const batch of tx.replaceBatches(f.query, { vars: f.vars })) {
            if (batch.numRows === 0) continue;
            await tx.insert(next(batch));
            n += batch.numRows;
          }
          return n;
        }),
      };
    });
    app.post(`${p}/stage`, { schema: { tags, summary: 'Stage: {action: create|commit, stage_id?}' } }, async (req) => {
      const { ds, t } = writable(req, 'staging');
      const body = jsonBody(req) as { action?: unknown; stage_id?: unknown } | undefined;
      if (body?.action === 'create') {
        const tx = await t.begin();
        try {
          return { stage_id: ctx.stages.add({ tx, created: new Date().toISOString() }, ds.metadata.uuid, principalOf(req).id), status: 'active' };
        } catch (e) {
          await tx.rollback(); // refused (too many open): release its snapshot
          throw e;
        }
      }
      if (body?.action === 'commit') {
        if (typeof body.stage_id !== 'string' || body.stage_id === '') throw badRequest('stage_id: commit needs the stage_id returned by {"action": "create"}');
        const s = stageOf(ctx, req, body.stage_id, ds.metadata.uuid);
        ctx.stages.delete(body.stage_id);
        await s.tx.commit();
        return { stage_id: body.stage_id, status: 'committed' };
      }
      throw badRequest('action: expected "create" or "commit"');
    });
    // on a raw dataset, /stage/metadata is the metadata of a file named "stage"
    type StageReq = FastifyRequest<{ Params: { id: string }; Querystring: { force_delete?: string } }>;
    const stageFile = (req: StageReq) => ['stage', req.params.id];
    app.get(`${p}/stage/:id`, { schema: { tags, summary: 'A stage' } }, fileOnRaw(ctx, stageFile, async (req) => {
      const ds = datasetWithClass(ctx, req, 'tabular', 'reading a stage');
      const s = stageOf(ctx, req, req.params.id, ds.metadata.uuid);
      return { stage_id: req.params.id, status: 'active', created_time: s.created };
    }));
    app.delete(`${p}/stage/:id`, { schema: { tags, summary: 'Roll a stage back' } }, fileOnRaw(ctx, stageFile, async (req, reply) => {
      const { ds } = writable(req, 'deleting a stage');
      boolParam(req.query.force_delete, 'force_delete', false);
      const s = stageOf(ctx, req, req.params.id, ds.metadata.uuid);
      ctx.stages.delete(req.params.id);
      await s.tx.rollback();
      return reply.status(204).send();
    }));
  }
}

/** The open stage `id` of a dataset, opened by this account (inserts with `stage_id` use it); 404 otherwise. */
export function stageOf(ctx: AppContext, req: FastifyRequest, id: string, dataset: string): Stage {
  const got = ctx.stages.get(id, dataset, principalOf(req).id);
  if (got === 'owner') throw forbidden(`stage ${id} belongs to another account`);
  if (got === 'expired') throw notFound(`stage ${id} was rolled back after ${ctx.config.txIdleMs} ms idle`);
  if (got === 'deleted') throw notFound(`stage ${id} was rolled back because its dataset was deleted`);
  if (typeof got === 'string') throw notFound(`no open stage ${id} on this dataset`);
  return got;
}

async function inTransaction<T>(t: Table, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const tx = await t.begin();
  try {
    const out = await work(tx);
    await tx.commit();
    return out;
  } catch (e) {
    await tx.rollback().catch(() => undefined);
    throw e;
  }
}

function engineFilter(body: unknown, schema: Schema | undefined): { query: string; vars: Record<string, unknown> } {
  const f = toEngineFilter(parseOqs(body), schema);
  if (!f) throw badRequest('this filter cannot be evaluated by the engine (geometry operators, nested paths or match-by-example); use comparisons on columns');
  return f.query === '' ? { query: '1 == 1', vars: {} } : f;
}
