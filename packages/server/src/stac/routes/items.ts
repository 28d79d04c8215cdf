// GET /collections/{id}/items (OGC API Features), /collections/{id}/items/{itemId} and /items/{itemId}.
import type { FastifyInstance } from 'fastify';
import { StacError, invalid } from '../errors.js';
import { itemOf } from '../map/item.js';
import { parseSearchQuery } from '../search/parse.js';
import type { StacContext } from './context.js';
import { findCollection } from './collections.js';
import { searchPage } from './page.js';

/** Registers the item routes (relative to /api/stac). */
export function itemRoutes(app: FastifyInstance, ctx: StacContext): void {
  app.get<{ Params: { id: string } }>('/collections/:id/items', async (req, reply) => {
    const collection = findCollection(ctx, req.params.id);
    const query = req.query as Record<string, unknown>;
    if (query['collections'] !== undefined) throw invalid('collections', 'is implied by the path here');
    const sr = { ...parseSearchQuery(query), collections: [collection.uuid] };
    reply.type('application/geo+json');
    return searchPage(ctx, req, sr, { method: 'GET', href: ctx.requested(req) }, collection.uuid);
  });
  app.get<{ Params: { id: string; itemId: string } }>('/collections/:id/items/:itemId', async (req, reply) => {
    const collection = findCollection(ctx, req.params.id);
    const entry = ctx.index.dataset(req.params.itemId);
    if (!entry || ctx.index.collectionOf(entry) !== collection.uuid) {
      throw new StacError('NotFound', `item '${req.params.itemId}' not found in collection ${collection.uuid}`);
    }
    reply.type('application/geo+json');
    return itemOf(ctx.index, entry, ctx.urls(req), true);
  });
  app.get<{ Params: { itemId: string } }>('/items/:itemId', async (req, reply) => {
    const entry = ctx.index.dataset(req.params.itemId);
    if (!entry) throw new StacError('NotFound', `item '${req.params.itemId}' not found`);
    reply.type('application/geo+json');
    return itemOf(ctx.index, entry, ctx.urls(req), false);
  });
}
