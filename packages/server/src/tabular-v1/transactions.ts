// Tabular v1 writes by filter, each in one engine transaction: POST /data/{ref}/delete, PATCH /data/{ref}.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Table, type Transaction, toRecordBatches } from '@halocline/engine';
import type { Schema } from 'apache-arrow';
import { badRequest, notFound } from '../errors.js';
import { jsonBody } from '../http/body.js';
import type { AppContext } from '../http/context.js';
import { checkWrite, dataPrefixes, datasetWithClass } from '../http/datasets.js';
import { parseOqs } from '../oqs/index.js';
import { rowPatcher } from './patch.js';
import { MAX_INSERT_ROWS } from './routes.js';
import { toEngineFilter } from './to-query.js';
import { jsonValueReader, validateRows } from './validate-rows.js';

/** Registers the delete and update routes. */
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
    app.patch(`${p}`, { schema: { tags, summary: 'Update rows: {update_filters, data}; data a list replaces the matches, an object sets columns on them' } }, async (req) => {
      const { ds, t } = writable(req, 'updating rows');
      const body = jsonBody(req) as { update_filters?: unknown; data?: unknown; stage_id?: unknown } | undefined;
      // the clients never send one; taking it silently would apply the update outside the stage
      if (body?.stage_id !== undefined && body.stage_id !== null) throw badRequest('stage_id: PATCH does not run in a stage; commit the stage, then PATCH without a stage_id');
      const schema = await t.schema();
      if (!schema) throw notFound(`dataset ${ds.metadata.name} has no table schema yet (POST /data/{ref}/schema creates it)`);
      const f = engineFilter(body?.update_filters, schema);
      const given = body?.data;
      if (Array.isArray(given)) return replaceRows(t, f, schema, given);
      if (typeof given !== 'object' || given === null) throw badRequest('data: expected a list of rows (they replace the rows update_filters matches) or an object of column to new value (set on each match)');
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
  }
}

/**
 * PATCH with `data` a list (odp-sdk's `update(dataset, data: List[Dict], filter_query)`): the rows
 * `f` matches are deleted and `rows` inserted, in one transaction. The rows are checked and converted
 * first, as an insert's (400 naming the row and column), so a bad row changes nothing.
 */
async function replaceRows(t: Table, f: EngineFilter, schema: Schema, rows: unknown[]): Promise<{ num_rows: number; num_matched: number }> {
  const batches = toRecordBatches(schema, validateRows(rows, schema, MAX_INSERT_ROWS), { table: t.name });
  return inTransaction(t, async (tx) => {
    // deleted before the insert, so the new rows are not matched themselves
    const matched = await tx.delete(f.query, { vars: f.vars });
    for (const b of batches) await tx.insert(b);
    return { num_rows: rows.length, num_matched: matched };
  });
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

type EngineFilter = { readonly query: string; readonly vars: Record<string, unknown> };

function engineFilter(body: unknown, schema: Schema | undefined): EngineFilter {
  const f = toEngineFilter(parseOqs(body), schema);
  if (!f) throw badRequest('this filter cannot be evaluated by the engine (geometry operators, nested paths or match-by-example); use comparisons on columns');
  return f.query === '' ? { query: '1 == 1', vars: {} } : f;
}
