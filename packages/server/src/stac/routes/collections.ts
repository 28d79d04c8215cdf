// GET /api/stac/collections (offset/limit pages, bounded by bytes too) and /collections/{id} (UUID, name or title).
import type { FastifyInstance } from 'fastify';
import { StacError, invalid } from '../errors.js';
import type { CollectionEntry } from '../index/catalog-index.js';
import { collectionOf } from '../map/collection.js';
import { queryablesSchema } from '../cql2/queryables.js';
import type { Link } from '../map/item.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../search/request.js';
import { PageBudget } from '../../page-budget.js';
import type { StacContext } from './context.js';

/** Registers the collection routes (relative to /api/stac). */
export function collectionRoutes(app: FastifyInstance, ctx: StacContext): void {
  app.get('/collections', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    for (const k of Object.keys(q)) if (k !== 'limit' && k !== 'offset' && k !== 'f') throw invalid(k, 'unknown query parameter; known are limit, offset');
    const limit = integer('limit', q['limit'], DEFAULT_LIMIT, 1, MAX_LIMIT);
    const offset = integer('offset', q['offset'], 0, 0, Number.MAX_SAFE_INTEGER);
    const all = ctx.index.collections;
    const urls = ctx.urls(req);
    const self = ctx.requested(req);
    // at most `limit` collections and about `pageBytes` of their JSON (at least one): each is rendered once
    const budget = new PageBudget(limit, ctx.pageBytes);
    const texts: string[] = [];
    for (let i = offset; i < all.length; i++) {
      const text = JSON.stringify(collectionOf(ctx.index, all[i]!, urls));
      if (!budget.take(text.length)) break;
      texts.push(text);
    }
    const links: Link[] = [
      { rel: 'self', href: self, type: 'application/json' },
      { rel: 'root', href: urls.stac, type: 'application/json' },
      { rel: 'parent', href: urls.stac, type: 'application/json' },
    ];
    const end = offset + texts.length;
    if (end < all.length) links.push({ rel: 'next', href: paged(self, end, limit), type: 'application/json' });
    if (offset > 0) links.push({ rel: 'prev', href: paged(self, Math.max(0, offset - limit), limit), type: 'application/json' });
    reply.type('application/json; charset=utf-8');
    return `{"collections":[${texts.join(',')}],"links":${JSON.stringify(links)},"numberMatched":${all.length},"numberReturned":${texts.length}}`;
  });
  app.get<{ Params: { id: string } }>('/collections/:id', async (req) => collectionOf(ctx.index, findCollection(ctx, req.params.id), ctx.urls(req)));
  // OGC API Features part 3 (features-filter): each collection's queryables; every item has the same ones
  app.get<{ Params: { id: string } }>('/collections/:id/queryables', async (req, reply) => {
    const c = findCollection(ctx, req.params.id);
    reply.type('application/schema+json');
    return queryablesSchema(`${ctx.urls(req).stac}/collections/${encodeURIComponent(c.uuid)}/queryables`);
  });
}

/**
 * The collection `id` names: its UUID, else its unique catalog name, else its title (display name).
 * A title shared by several collections is a 400 listing their UUIDs.
 */
export function findCollection(ctx: StacContext, id: string): CollectionEntry {
  const found = ctx.index.collection(id) ?? ctx.index.collectionByName(id);
  if (found) return found;
  const titled = ctx.index.collections.filter((c) => c.resource.metadata.display_name === id);
  if (titled.length === 1) return titled[0]!;
  if (titled.length > 1) throw invalid('collectionId', `title '${id}' names ${titled.length} collections (${titled.map((c) => c.uuid).join(', ')}); use the UUID`);
  throw new StacError('NotFound', `collection '${id}' not found (by UUID, name or title)`);
}

function paged(self: string, offset: number, limit: number): string {
  const url = new URL(self);
  url.searchParams.set('offset', String(offset));
  url.searchParams.set('limit', String(limit));
  return url.toString();
}

function integer(name: string, v: unknown, fallback: number, min: number, max: number): number {
  if (v === undefined) return fallback;
  if (Array.isArray(v)) throw invalid(name, 'is given more than once');
  if (typeof v !== 'string' || !/^\s*[+-]?\d+\s*$/.test(v)) throw invalid(name, `must be an integer, got ${JSON.stringify(v)}`);
  const n = Number(v);
  if (n < min) throw invalid(name, `must be ≥ ${min}, got ${n}`);
  return Math.min(n, max);
}

