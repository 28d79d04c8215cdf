// Resolving `/data/{ref}` to a dataset resource and checking its storage class and who may write it.
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth/authenticate.js';
import { mayWrite } from '../auth/principal.js';
import type { Resource } from '../catalog/resource.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import type { AppContext } from './context.js';
import type { WriteHold } from './write-gate.js';

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
  const hold = ctx.writes.enter(r.metadata.uuid);
  const w = writesOf(req);
  w.holds.push(hold);
  if (w.running === 0) release(w);
}

/** Aborts when a delete of a dataset this request writes to begins (never, before `checkWrite`). */
export function writeSignal(req: FastifyRequest): AbortSignal {
  return AbortSignal.any(writesOf(req).holds.map((h) => h.signal));
}

/** Keeps the request's holds until the returned function is called (work that outlives the handler). */
export function keepWriting(req: FastifyRequest): () => void {
  const w = writesOf(req);
  w.running++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    if (--w.running === 0) release(w);
  };
}

/**
 * Wraps a route handler so the write holds its request takes are released when it settles (install
 * with an `onRoute` hook before the routes).
 */
export function releasingWrites<H extends (this: never, req: FastifyRequest, ...rest: never[]) => unknown>(handler: H): H {
  return async function (this: never, req: FastifyRequest, ...rest: never[]) {
    const done = keepWriting(req);
    try {
      return await handler.call(this, req, ...rest);
    } finally {
      done();
    }
  } as H;
}

interface RequestWrites {
  readonly holds: WriteHold[];
  running: number;
}

const writes = new WeakMap<FastifyRequest, RequestWrites>();

function writesOf(req: FastifyRequest): RequestWrites {
  let w = writes.get(req);
  if (!w) writes.set(req, (w = { holds: [], running: 0 }));
  return w;
}

function release(w: RequestWrites): void {
  for (const h of w.holds.splice(0)) h.release();
}
