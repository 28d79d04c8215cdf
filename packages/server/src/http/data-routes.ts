// The data routes both storage classes share (POST /data/{ref}, POST /data/{ref}/list), dispatched by class.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createFile, listFiles } from '../files/routes.js';
import { insertRows, listTable } from '../tabular-v1/routes.js';
import { roundedBody } from './body.js';
import type { AppContext } from './context.js';
import { dataPrefixes, datasetOf, storageClassOf } from './datasets.js';

/**
 * Registers the shared routes under both dataset reference forms, in tabular v1's scope (its parser
 * reads integers beyond 2^53 as bigints; a raw dataset's handlers get JSON.parse's reading).
 */
export function dataRoutes(app: FastifyInstance, ctx: AppContext): void {
  const raw = (req: FastifyRequest): boolean => storageClassOf(ctx, datasetOf(ctx, req)) === 'raw';
  for (const p of dataPrefixes(ctx)) {
    app.post(p, { schema: { tags: ['data'], summary: 'Raw: create a file entry. Tabular: insert rows {data}' } }, async (req) => (raw(req) ? createFile(ctx, roundedBody(req)) : insertRows(ctx, req)));
    app.post<{ Querystring: { page?: string; page_size?: string; limit?: string; cursor?: string } }>(
      `${p}/list`,
      { schema: { tags: ['data'], summary: 'Raw: list files (page, page_size). Tabular: list rows (limit, cursor; NDJSON with Accept: application/x-ndjson)' } },
      async (req, reply) => (raw(req) ? listFiles(ctx, roundedBody(req)) : listTable(ctx, req, reply)),
    );
  }
}
