// Tabular v2 over HTTP (`/api/table/v2/...`), wire-compatible with the Python and R clients.
import type { FastifyInstance } from 'fastify';
import { installJsonParser } from '../http/body.js';
import type { AppContext } from '../http/context.js';
import { rawRoutes } from './raw-routes.js';
import { selectRoutes } from './select-routes.js';
import { tableRoutes } from './table-routes.js';
import { installV2Errors } from './target.js';
import { txRoutes } from './tx-routes.js';

export { ERROR_CODE_HEADER } from './target.js';
export { ARROW_STREAM } from './ipc.js';

/**
 * Registers every v2 route in its own scope (plain-text errors, 204 for a missing table) over the
 * app's open transactions (`ctx.txs`) and parked cursors (`ctx.selectCursors`).
 */
export async function tabularV2Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { txs, selectCursors: cursors } = ctx;
  await app.register(async (scope) => {
    installV2Errors(scope);
    installJsonParser(scope, ['vars']); // bind variables: int64 values beyond 2^53 exactly
    tableRoutes(scope, ctx);
    selectRoutes(scope, ctx, { txs, cursors });
    txRoutes(scope, ctx, txs);
    rawRoutes(scope, ctx);
  });
}
