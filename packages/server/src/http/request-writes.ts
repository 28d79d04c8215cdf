// The write holds of one request (see WriteGate): taken by checkWrite, released when its handler settles.
import type { FastifyRequest } from 'fastify';
import type { WriteHold } from './write-gate.js';

/** Adds `hold` to the request's holds; released with them (at once when no handler is running). */
export function holdForRequest(req: FastifyRequest, hold: WriteHold): void {
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
