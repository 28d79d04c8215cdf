// Resolving `/data/{ref}` to a dataset resource and checking its storage class and who may write it.
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth/authenticate.js';
import { mayWrite } from '../auth/principal.js';
import type { Resource } from '../catalog/resource.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { AppContext } from './context.js';
import { holdForRequest } from './request-writes.js';

export type StorageClass = 'raw' | 'tabular';

/** The route prefixes a data route is registered under: `/data/<uuid>` and `/data/catalog.<domain>/dataset/<name>`. */
export function dataPrefixes(ctx: AppContext): string[] {
  return ['/data/:ds', `/data/catalog.${ctx.kinds.domain}/dataset/:ds`];
}

/** The dataset a request addresses (by uuid, name, or an encoded `catalog.<domain>/dataset/<name>`); 404 otherwise. */
export function datasetOf(ctx: AppContext, req: FastifyRequest): Resource {
  const ds = (req.params as { ds: string }).ds;
  const prefix = `${ctx.kinds.dataset}/`;
  const byRef = req.url.startsWith(`/data/catalog.${ctx.kinds.domain}/dataset/`) || ds.startsWith(prefix);
  const name = ds.startsWith(prefix) ? ds.slice(prefix.length) : ds;
  const r = byRef ? ctx.catalog.getByName(ctx.kinds.dataset, name) : ctx.catalog.get(ds);
  if (!r || r.kind !== ctx.kinds.dataset) throw notFound(`no dataset ${ds}`);
  return r;
}

/** The storage class of a dataset. */
export function storageClassOf(ctx: AppContext, r: Resource): StorageClass {
  return r.spec.storage_class === ctx.kinds.tabularClass ? 'tabular' : 'raw';
}

/** The dataset, checked to have storage class `want` (400 saying which class it has otherwise). */
export function datasetWithClass(ctx: AppContext, req: FastifyRequest, want: StorageClass, operation: string): Resource {
  const r = datasetOf(ctx, req);
  const has = storageClassOf(ctx, r);
  if (has !== want) throw badRequest(`dataset ${r.metadata.name} has storage class ${String(r.spec.storage_class)} (${has}); ${operation} needs a ${want} dataset`, 'WrongStorageClass');
  return r;
}

/**
 * 403 unless the caller owns the dataset or is an admin; then holds the dataset open for this write
 * until the request's handler (and any work it {@link keepWriting}s) has settled, so a delete of the
 * dataset waits for it (404 when a delete already runs).
 */
export function checkWrite(ctx: AppContext, req: FastifyRequest, r: Resource): void {
  if (!mayWrite(principalOf(req), r.owner)) throw forbidden(`only the owner or an admin may change the data of dataset ${r.metadata.name}`);
  holdForRequest(req, ctx.writes.enter(r.metadata.uuid));
}
