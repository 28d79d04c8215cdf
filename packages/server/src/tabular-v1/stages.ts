// Tabular v1 stages: an engine transaction the server holds between requests, opened, listed, read,
// committed and rolled back under /data/{ref}/stage; inserts with a stage_id write into it.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Transaction } from '@halocline/engine';
import { principalOf } from '../auth/authenticate.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { boolParam, jsonBody } from '../http/body.js';
import type { AppContext } from '../http/context.js';
import { checkWrite, dataPrefixes, datasetWithClass } from '../http/datasets.js';
import { fileOnRaw } from './raw-paths.js';

/** An open stage: an engine transaction held between requests (`ctx.stages`, keyed by its canonical UUID). */
export interface Stage {
  readonly tx: Transaction;
  /** When it was opened, ISO 8601. */
  readonly created: string;
}

/**
 * A stage as the clients read it (odp-sdk's `TableStage`: `stage_id: UUID`, `status` one of active,
 * commit, commit-failed, delete, `created_time`, `expiry_time`, optional `updated_time`). An open
 * stage expires (is rolled back) `txIdleMs` after its last use, so `expiry_time` is that deadline as
 * it stands after the request answered; a committed stage no longer expires: its expiry is its commit.
 */
export interface StageAnswer {
  readonly stage_id: string;
  readonly status: 'active' | 'commit';
  readonly created_time: string;
  readonly expiry_time: string;
  readonly updated_time?: string;
}

/** Options of the `Leases` holding the stages: ids are random UUIDs in canonical form. */
export const stageLeaseLimits = { what: 'open stages', newId: randomUUID } as const;

/** Registers POST /stage (create, commit), GET /stage (the caller's open stages), GET and DELETE /stage/{id}. */
export function stageRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tags = ['tabular v1'];
  const writable = (req: FastifyRequest) => {
    const ds = datasetWithClass(ctx, req, 'tabular', 'staging');
    checkWrite(ctx, req, ds);
    return { ds, t: ctx.store.table(ds.metadata.uuid) };
  };
  for (const p of dataPrefixes(ctx)) {
    app.post(`${p}/stage`, { schema: { tags, summary: 'Stage: {action: create|commit, stage_id?}' } }, async (req): Promise<StageAnswer> => {
      const { ds, t } = writable(req);
      const body = jsonBody(req) as { action?: unknown; stage_id?: unknown } | undefined;
      if (body?.action === 'create') {
        const tx = await t.begin();
        try {
          const stage: Stage = { tx, created: new Date().toISOString() };
          const id = ctx.stages.add(stage, ds.metadata.uuid, principalOf(req).id);
          return answer(id, stage, ctx.stages.expiresAt(id)!);
        } catch (e) {
          await tx.rollback(); // refused (too many open): release its snapshot
          throw e;
        }
      }
      if (body?.action === 'commit') {
        if (typeof body.stage_id !== 'string' || body.stage_id === '') throw badRequest('stage_id: commit needs the stage_id returned by {"action": "create"}');
        const { id, stage } = stageOf(ctx, req, body.stage_id, ds.metadata.uuid);
        ctx.stages.delete(id);
        await stage.tx.commit();
        const now = new Date().toISOString();
        return { stage_id: id, status: 'commit', created_time: stage.created, expiry_time: now, updated_time: now };
      }
      throw badRequest('action: expected "create" or "commit"');
    });
    // on a raw dataset, /stage is a file named "stage" and /stage/metadata its metadata
    app.get(`${p}/stage`, { schema: { tags, summary: 'The open stages this account holds on the dataset' } }, fileOnRaw(ctx, () => ['stage'], async (req): Promise<StageAnswer[]> => {
      const ds = datasetWithClass(ctx, req, 'tabular', 'listing stages');
      return ctx.stages.held(ds.metadata.uuid, principalOf(req).id).map(({ id, value, expires }) => answer(id, value, expires));
    }));
    type StageReq = FastifyRequest<{ Params: { id: string }; Querystring: { force_delete?: string } }>;
    const stageFile = (req: StageReq) => ['stage', req.params.id];
    app.get(`${p}/stage/:id`, { schema: { tags, summary: 'A stage' } }, fileOnRaw(ctx, stageFile, async (req): Promise<StageAnswer> => {
      const ds = datasetWithClass(ctx, req, 'tabular', 'reading a stage');
      const { id, stage } = stageOf(ctx, req, pathId(req.params.id), ds.metadata.uuid);
      return answer(id, stage, ctx.stages.expiresAt(id)!);
    }));
    app.delete(`${p}/stage/:id`, { schema: { tags, summary: 'Roll a stage back' } }, fileOnRaw(ctx, stageFile, async (req, reply) => {
      const { ds } = writable(req);
      boolParam(req.query.force_delete, 'force_delete', false);
      const { id, stage } = stageOf(ctx, req, pathId(req.params.id), ds.metadata.uuid);
      ctx.stages.delete(id);
      await stage.tx.rollback();
      return reply.status(204).send();
    }));
  }
}

/**
 * The open stage `id` (a UUID in any case, with or without hyphens) of a dataset, opened by this
 * account, and its canonical id. 403 for another account's stage; 400 when no such stage is open
 * (odp-sdk reads a 400 on a stage as "not found"), saying whether it expired or went with its dataset.
 */
export function stageOf(ctx: AppContext, req: FastifyRequest, id: string, dataset: string): { id: string; stage: Stage } {
  const key = canonicalUuid(id) ?? id;
  const got = ctx.stages.get(key, dataset, principalOf(req).id);
  if (got === 'owner') throw forbidden(`stage ${key} belongs to another account`);
  if (got === 'expired') throw badRequest(`stage ${key} was rolled back after ${ctx.config.txIdleMs} ms idle`, 'NoSuchStage');
  if (got === 'deleted') throw badRequest(`stage ${key} was rolled back because its dataset was deleted`, 'NoSuchStage');
  if (typeof got === 'string') throw badRequest(`no open stage ${id.slice(0, 80)} on this dataset`, 'NoSuchStage');
  return { id: key, stage: got };
}

/** `id` as a lower-case hyphenated UUID if it is 32 hex digits, hyphens anywhere (as Python's `UUID()` reads it). */
export function canonicalUuid(id: string): string | undefined {
  const hex = id.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// an open stage with its expiry as it stands (a request that used it has restarted its idle clock)
function answer(id: string, stage: Stage, expires: number): StageAnswer {
  return { stage_id: id, status: 'active', created_time: stage.created, expiry_time: new Date(expires).toISOString() };
}

// a /stage/{id} path segment that is no stage id at all names nothing: 404, as a path without a route
// (so /stage/metadata on a tabular dataset stays a 404; on a raw dataset it is a file's metadata)
function pathId(id: string): string {
  if (canonicalUuid(id) === undefined) throw notFound(`no open stage ${id.slice(0, 80)} on this dataset (stage ids are UUIDs)`);
  return id;
}
