// Tabular v2 over HTTP (`/api/table/v2/...`), wire-compatible with the Python and R clients.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.js';
import { Leases } from './leases.js';
import { rawRoutes } from './raw-routes.js';
import { selectRoutes } from './select-routes.js';
import { type Pinned, unpin } from './stream.js';
import { tableRoutes } from './table-routes.js';
import { installV2Errors } from './target.js';
import { type TxHandle, txRoutes } from './tx-routes.js';

export { ERROR_CODE_HEADER } from './target.js';
export { ARROW_STREAM } from './ipc.js';

/**
 * Registers every v2 route in its own scope (plain-text errors, 204 for a missing table). Open
 * transactions idle longer than `txIdleMs` are rolled back; parked cursors are released after
 * `cursorTtlMs`; both are released when the app closes.
 */
export async function tabularV2Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const txs = new Leases<TxHandle>(ctx.config.txIdleMs, (h) => void h.tx.rollback().catch(() => undefined), 10_000, { what: 'open transactions' });
  const cursors = new Leases<Pinned>(ctx.config.cursorTtlMs, unpin, 1000, { what: 'parked select cursors', evictOwn: true });
  app.addHook('onClose', async () => {
    txs.close();
    cursors.close();
  });
  await app.register(async (scope) => {
    installV2Errors(scope);
    tableRoutes(scope, ctx);
    selectRoutes(scope, ctx, { txs, cursors });
    txRoutes(scope, ctx, txs);
    rawRoutes(scope, ctx);
  });
}
