// Tabular v2 raw files beside a table: list, batch-list, upload, update_meta, download, delete, ingest.
import type { Readable } from 'node:stream';
import type { IngestMode, IngestProgress, RawEntry, RawMetaPatch } from '@halocline/engine';
import { Int64, RecordBatch, Table as ArrowTable, Utf8, vectorFromArray } from 'apache-arrow';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import { abortable } from '../http/abortable.js';
import { jsonBody } from '../http/body.js';
import { keepWriting, writeSignal } from '../http/request-writes.js';
import type { AppContext } from '../http/context.js';
import { progressAnswer, wantsProgress } from './ingest-progress.js';
import { IpcEncoder } from './ipc.js';
import { target, type V2Query } from './target.js';

const tags = ['tabular v2 raw'];
const base = '/api/table/v2/raw';

/** The raw controller routes. */
export function rawRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(`${base}/list`, { schema: { tags, summary: 'File entries (optionally filtered)' } }, async (req) => {
    return { files: (await list(ctx, req)).map(wire) };
  });

  app.post(`${base}/batch-list`, { schema: { tags, summary: 'File entries as an Arrow IPC stream' } }, async (req, reply) => {
    const entries = (await list(ctx, req)).map(wire);
    const text = (f: (e: ReturnType<typeof wire>) => string | null) => vectorFromArray(entries.map(f), new Utf8());
    const table = new ArrowTable({
      id: text((e) => e.id),
      name: text((e) => e.name),
      size: vectorFromArray(entries.map((e) => BigInt(e.size)), new Int64()),
      sha256: text((e) => e.sha256),
      'mime-type': text((e) => e['mime-type']),
      geometry: text((e) => e.geometry),
      properties: text((e) => JSON.stringify(e.properties)),
      created: text((e) => e.created),
      updated: text((e) => e.updated),
    });
    const batches = table.batches.length > 0 ? table.batches : [new RecordBatch(table.schema, undefined)];
    const enc = new IpcEncoder(table.schema);
    return reply.type('application/vnd.apache.arrow.stream').send(Buffer.concat([...batches.map((b) => enc.batch(b)), enc.end()]));
  });

  app.post(`${base}/upload`, { schema: { tags, summary: 'Upload a file (body = bytes, query name)' } }, async (req) => {
    const t = target(ctx, req, true);
    const name = param(req, 'name');
    const body = req.body as Readable | undefined;
    if (!body || typeof body.on !== 'function') throw badRequest('the body must be the file bytes (Content-Type application/octet-stream)');
    const mimetype = (req.query as V2Query).mime_type;
    return { raw_id: await t.table.raw.upload(name, abortable(body, writeSignal(req)), { maxBytes: ctx.config.uploadLimit, ...(mimetype ? { mimetype } : {}) }) };
  });

  app.post(`${base}/update_meta`, { schema: { tags, summary: 'Set name, geometry, mime type or properties' } }, async (req) => {
    const t = target(ctx, req, true);
    return wire(await t.table.raw.updateMeta(param(req, 'id'), patchOf(jsonBody(req))));
  });

  app.post(`${base}/download`, { schema: { tags, summary: 'The file bytes' } }, async (req, reply) => {
    const t = target(ctx, req, false);
    return reply.type('application/octet-stream').send(await t.table.raw.download(param(req, 'id')));
  });

  app.post(`${base}/delete`, { schema: { tags, summary: 'Remove a file' } }, async (req, reply) => {
    const t = target(ctx, req, true);
    await t.table.raw.delete(param(req, 'id'));
    // 200 with a JSON body: 204 means "no such table" to both clients (the R client's request_json fails on it)
    return reply.send({});
  });

  app.post(`${base}/ingest`, { schema: { tags, summary: 'Parse a file into the table (opt append|truncate|drop); progress lines with Accept: application/x-ndjson' } }, async (req, reply) => {
    const t = target(ctx, req, true);
    const opt = (req.query as V2Query).opt ?? 'append';
    if (!['append', 'truncate', 'drop'].includes(opt)) throw badRequest(`opt must be append, truncate or drop, got ${JSON.stringify(opt)}`);
    const id = param(req, 'id');
    const kept = keepWriting(req); // the progress answer outlives the handler; the dataset stays held until the ingest ends
    const run = async (onProgress?: (p: IngestProgress) => void) => {
      try {
        return { ...(await t.table.raw.ingest(id, { opt: opt as IngestMode, ...(onProgress ? { onProgress } : {}) })), table_id: t.tableId };
      } finally {
        kept();
      }
    };
    return wantsProgress(req) ? progressAnswer(reply, run) : run();
  });
}

async function list(ctx: AppContext, req: FastifyRequest): Promise<RawEntry[]> {
  const t = target(ctx, req, false);
  const body = jsonBody(req) as { query?: unknown; vars?: unknown } | undefined;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) throw badRequest('the body must be a JSON object {query, vars}');
  const query = body?.query ?? undefined;
  if (query !== undefined && query !== null && typeof query !== 'string') throw badRequest('query must be a string');
  return t.table.raw.list((query as string | null) ?? undefined, { vars: (body?.vars ?? undefined) as never });
}

/** A file entry in the clients' shape. */
function wire(e: RawEntry) {
  return { id: e.id, name: e.name, size: e.size, sha256: e.sha256, 'mime-type': e.mimetype, geometry: e.geometry, properties: e.properties, created: e.created.toISOString(), updated: e.updated.toISOString() };
}

function patchOf(body: unknown): RawMetaPatch {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body must be a JSON object of name, geometry, mime-type, properties');
  const b = body as Record<string, unknown>;
  const known = new Set(['name', 'geometry', 'mime-type', 'mimetype', 'mime_type', 'properties']);
  const extra = Object.keys(b).filter((k) => !known.has(k));
  if (extra.length > 0) throw badRequest(`update_meta cannot set ${extra.join(', ')}; settable: name, geometry, mime-type, properties`);
  const mime = b['mime-type'] ?? b.mimetype ?? b.mime_type;
  return {
    ...(b.name !== undefined ? { name: b.name as string } : {}),
    ...(b.geometry !== undefined ? { geometry: b.geometry as string | null } : {}),
    ...(mime !== undefined ? { mimetype: mime as string | null } : {}),
    ...(b.properties !== undefined ? { properties: b.properties as Record<string, string> } : {}),
  };
}

function param(req: FastifyRequest, name: string): string {
  const v = (req.query as V2Query)[name];
  if (!v) throw badRequest(`the query parameter ${name} is required`);
  return v;
}
