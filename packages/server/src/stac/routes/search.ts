// GET and POST /api/stac/search.
import type { FastifyInstance } from 'fastify';
import { StacError } from '../errors.js';
import { parseSearchBody, parseSearchQuery } from '../search/parse.js';
import type { StacContext } from './context.js';
import { searchPage } from './page.js';

/** Registers the search routes (relative to /api/stac). */
export function searchRoutes(app: FastifyInstance, ctx: StacContext): void {
  app.get('/search', async (req, reply) => {
    const sr = parseSearchQuery(req.query as Record<string, unknown>);
    reply.type('application/geo+json');
    return searchPage(ctx, req, sr, { method: 'GET', href: ctx.requested(req) });
  });
  app.post('/search', async (req, reply) => {
    const type = req.headers['content-type'];
    if (req.body !== undefined && !/json/i.test(type ?? '')) {
      (req.body as { resume?: () => void }).resume?.(); // a host's catch-all parser may hand over the unread stream
      throw new StacError('UnsupportedMediaType', `POST /search takes a JSON body (application/json or application/geo+json), got Content-Type ${type ?? 'none'}`);
    }
    const sr = parseSearchBody(req.body);
    const body = req.body as Record<string, unknown> | undefined;
    reply.type('application/geo+json');
    const how = { method: 'POST', href: `${ctx.urls(req).stac}/search`, offset: body?.['offset'] !== undefined } as const;
    return searchPage(ctx, req, sr, how);
  });
}
