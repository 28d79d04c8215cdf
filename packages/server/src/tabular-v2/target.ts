// Resolving `table_id` to a tabular dataset's table, and the plain-text error answers the v2 clients expect.
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { isHaloclineError, type Table } from '@halocline/engine';
import { principalOf } from '../auth/authenticate.js';
import { ApiError, badRequest, fromEngineError } from '../errors.js';
import type { AppContext } from '../http/context.js';
import { bodyTooLarge } from '../http/error-handler.js';
import { checkWrite, storageClassOf } from '../http/datasets.js';

/** The table a v2 request addresses and the account asking. */
export interface Target {
  readonly table: Table;
  readonly tableId: string;
  readonly owner: string;
}

/** Query parameters common to v2 routes. */
export interface V2Query {
  readonly table_id?: string;
  readonly tx_id?: string;
  readonly [k: string]: string | undefined;
}

/** Thrown to answer 204 (no table / no schema), which the clients read as "does not exist". */
export class NoTable extends Error {}

// a dataset UUID as the catalog accepts one (any case, with hyphens)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The dataset's table; `write` also requires the caller to own the dataset (or be an admin, else 403).
 * A `table_id` that is not a UUID, or names a raw dataset, is a 400; a UUID that names no dataset is
 * NoTable (204), which both clients read as "the table does not exist", as for a dataset without one.
 */
export function target(ctx: AppContext, req: FastifyRequest, write: boolean): Target {
  const id = (req.query as V2Query).table_id;
  if (!id) throw badRequest('the query parameter table_id (the dataset UUID) is required');
  if (!UUID.test(id)) throw badRequest(`the query parameter table_id must be the dataset UUID, got ${JSON.stringify(id.slice(0, 100))}`);
  const ds = ctx.catalog.get(id);
  if (!ds || ds.kind !== ctx.kinds.dataset) throw new NoTable();
  if (storageClassOf(ctx, ds) !== 'tabular') {
    throw badRequest(`dataset ${ds.metadata.name} has storage class ${String(ds.spec.storage_class)}; tabular v2 needs a tabular dataset`);
  }
  if (write) checkWrite(ctx, req, ds);
  return { table: ctx.store.table(ds.metadata.uuid), tableId: ds.metadata.uuid, owner: principalOf(req).id };
}

/** The table's schema; NoTable (204) when it has none. */
export async function schemaOrNoTable(t: Table) {
  const schema = await t.schema();
  if (!schema) throw new NoTable();
  return schema;
}

/** The error message header our client reads to map an answer back to the engine's error code. */
export const ERROR_CODE_HEADER = 'x-halocline-error';

/**
 * Errors in the v2 scope: 204 for a missing table, otherwise the status with a plain-text body
 * (the message, shown to users as is) and the stable code in a header.
 */
export function installV2Errors(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | Error, req, reply) => {
    if (err instanceof NoTable || (isHaloclineError(err, 'NotFound') && /^table "[^"]*" does not exist/.test(err.message))) {
      return reply.status(204).send();
    }
    const api = err instanceof ApiError ? err : fromEngineError(err) ?? fastifyError(err as FastifyError, req);
    if (!api) {
      req.log.error({ err, reqId: req.id }, 'request failed');
      return reply.status(500).type('text/plain; charset=utf-8').send(`internal error (request id ${req.id})`);
    }
    if (api.status === 401) reply.header('www-authenticate', 'Bearer, ApiKey');
    return reply.status(api.status).header(ERROR_CODE_HEADER, api.code).type('text/plain; charset=utf-8').send(api.message);
  });
}

function fastifyError(err: FastifyError, req: FastifyRequest): ApiError | undefined {
  const status = err.statusCode ?? 500;
  if (status === 413) return bodyTooLarge(req);
  if (status === 415) return new ApiError(415, 'UnsupportedMediaType', err.message);
  if (status >= 400 && status < 500) return badRequest(err.message);
  return undefined;
}
