// Tabular v2 writes: insert (Arrow IPC, compressed batches too) and transactions owned by table and account.
import { Readable } from 'node:stream';
import type { Transaction } from '@halocline/engine';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, badRequest } from '../errors.js';
import { abortable } from '../http/abortable.js';
import type { AppContext } from '../http/context.js';
import { writeSignal } from '../http/request-writes.js';
import { selectBody } from './body.js';
import { insertStream } from './insert.js';
import { ARROW_STREAM, ipcBatches } from './ipc.js';
import type { Leases } from './leases.js';
import { ipcSelect, pin } from './stream.js';
import { schemaOrNoTable, target, type V2Query } from './target.js';

const tags = ['tabular v2'];

/** An open HTTP transaction and how many requests are using it right now. */
export interface TxHandle {
  readonly tx: Transaction;
  busy: number;
  /** Why the transaction can no longer commit: a replace's answer was cut off (the rows it removed did not all reach the client). */
  broken?: string;
}

/**
 * Marks the transaction in use until the answer to `reply` is finished or its connection closed, so a
 * commit or rollback cannot end it under a running insert or replace (they answer 409 instead).
 * Selects do not hold it: a client that stops reading one and commits must not be refused.
 */
export function hold(handle: TxHandle, reply: FastifyReply): TxHandle {
  handle.busy++;
  reply.raw.once('close', () => handle.busy--);
  return handle;
}

/** begin, insert, replace, commit and rollback (both path spellings). */
export function txRoutes(app: FastifyInstance, ctx: AppContext, txs: Leases<TxHandle>): void {
  app.post('/api/table/v2/begin', { schema: { tags, summary: 'Begin a transaction' } }, async (req) => {
    const t = target(ctx, req, true);
    await schemaOrNoTable(t.table);
    const tx = await t.table.begin();
    try {
      return { tx_id: txs.add({ tx, busy: 0 }, t.tableId, t.owner) };
    } catch (e) {
      await tx.rollback(); // refused (too many open): release its snapshot
      throw e;
    }
  });

  app.post('/api/table/v2/sdk/insert', { schema: { tags, summary: 'Insert an Arrow IPC stream (in a transaction with tx_id)' } }, async (req, reply) => {
    const t = target(ctx, req, true);
    const handle = optionalTx(req, reply, txs, t.tableId, t.owner);
    const schema = await schemaOrNoTable(t.table);
    return { num_rows: await insertStream(t.table, handle?.tx, schema, ipcBatches(streamOf(req), ctx.config.ipcBodyLimit, 'InvalidData')) };
  });

  app.post('/api/table/v2/sdk/replace', { schema: { tags, summary: 'Remove matching rows in a transaction; answers them (Arrow IPC)' } }, async (req, reply) => {
    const t = target(ctx, req, true);
    const handle = optionalTx(req, reply, txs, t.tableId, t.owner);
    if (!handle) throw badRequest('replace needs a transaction: begin one and pass its tx_id');
    const schema = await schemaOrNoTable(t.table);
    const body = selectBody(req);
    if (body.query === undefined) throw badRequest('replace needs a filter; send 1==1 to replace every row');
    const p = await pin(schema, handle.tx.replaceBatches(body.query, { vars: body.vars }));
    // the rows a replace answers are removed once taken from the engine, read by the client or not: an
    // answer cut off (the client gone) leaves the transaction unable to commit, lest it delete rows the
    // client never got to insert again
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) handle.broken ??= `a replace's answer (query ${JSON.stringify(body.query)}) was cut off before all its rows were sent`;
    });
    return reply.type(ARROW_STREAM).send(Readable.from(ipcSelect(p, Number.POSITIVE_INFINITY, () => '')));
  });

  for (const path of ['/api/table/v2/commit', '/api/table/v2/sdk/commit']) {
    app.post(path, { schema: { tags, summary: 'Commit the transaction tx_id' } }, async (req) => {
      const { id, handle } = finishable(ctx, req, txs, 'commit');
      txs.delete(id);
      if (handle.broken !== undefined) {
        await handle.tx.rollback();
        throw new ApiError(409, 'TransactionBroken', `transaction ${id} cannot commit: ${handle.broken}, so the rows it removed may not have reached the client; it has been rolled back, begin a new one`);
      }
      await handle.tx.commit();
      return { tx_id: id, state: handle.tx.state };
    });
  }
  for (const path of ['/api/table/v2/rollback', '/api/table/v2/sdk/rollback']) {
    app.post(path, { schema: { tags, summary: 'Roll back the transaction tx_id' } }, async (req) => {
      const { id, handle } = finishable(ctx, req, txs, 'roll back');
      txs.delete(id);
      await handle.tx.rollback();
      return { tx_id: id, state: handle.tx.state };
    });
  }
}

/** The handle of `id` on this table for this account; 404 unknown, 410 expired, 403 another account's. */
export function txOf(txs: Leases<TxHandle>, id: string, table: string, owner: string): TxHandle {
  const h = txs.get(id, table, owner);
  if (h === 'owner') throw new ApiError(403, 'Forbidden', `transaction ${id} belongs to another account`);
  if (h === 'expired') throw new ApiError(410, 'TransactionExpired', `transaction ${id} was idle too long and has been rolled back; begin a new one`);
  if (h === 'deleted') throw new ApiError(410, 'TransactionExpired', `transaction ${id} was rolled back because its dataset was deleted`);
  if (h === 'table') throw badRequest(`transaction ${id} belongs to another table`);
  if (h === 'unknown') throw new ApiError(404, 'TransactionNotFound', `no open transaction ${id} (committed, rolled back, or never begun)`);
  return h;
}

// the body, cut off with a 409 when the dataset is deleted during the insert
function streamOf(req: FastifyRequest): unknown {
  return req.body instanceof Readable ? abortable(req.body, writeSignal(req)) : req.body;
}

function optionalTx(req: FastifyRequest, reply: FastifyReply, txs: Leases<TxHandle>, table: string, owner: string): TxHandle | undefined {
  const id = (req.query as V2Query).tx_id;
  return id === undefined || id === '' ? undefined : hold(txOf(txs, id, table, owner), reply);
}

// the transaction a commit or rollback ends: 409 while another request still uses it
function finishable(ctx: AppContext, req: FastifyRequest, txs: Leases<TxHandle>, verb: string): { id: string; handle: TxHandle } {
  const t = target(ctx, req, true);
  const id = (req.query as V2Query).tx_id;
  if (!id) throw badRequest('the query parameter tx_id is required');
  const handle = txOf(txs, id, t.tableId, t.owner);
  if (handle.busy > 0) {
    throw new ApiError(409, 'TransactionBusy', `transaction ${id} is in use by ${handle.busy} request(s) still running (insert or replace); ${verb} it once they have finished`);
  }
  return { id, handle };
}
