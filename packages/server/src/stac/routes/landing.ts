// GET /api/stac (landing page), /conformance, /queryables, /api (OpenAPI) and /api.html (service doc).
import type { FastifyInstance } from 'fastify';
import { CONFORMANCE, OPENAPI_TYPE } from '../conformance.js';
import { queryablesSchema } from '../cql2/queryables.js';
import { openApiDocument, serviceDocHtml } from '../openapi.js';
import type { StacContext } from './context.js';

/** Registers the landing page and the service description routes (relative to /api/stac). */
export function landingRoutes(app: FastifyInstance, ctx: StacContext): void {
  app.get('/', async (req) => {
    const { stac } = ctx.urls(req);
    return {
      type: 'Catalog',
      stac_version: '1.0.0',
      id: 'halocline',
      title: ctx.title,
      description: ctx.description,
      conformsTo: CONFORMANCE,
      links: [
        { rel: 'self', href: stac, type: 'application/json' },
        { rel: 'root', href: stac, type: 'application/json' },
        { rel: 'service-desc', href: ctx.serviceDesc ?? `${stac}/api`, type: OPENAPI_TYPE },
        { rel: 'service-doc', href: `${stac}/api.html`, type: 'text/html' },
        { rel: 'conformance', href: `${stac}/conformance`, type: 'application/json' },
        { rel: 'data', href: `${stac}/collections`, type: 'application/json' },
        { rel: 'search', href: `${stac}/search`, type: 'application/geo+json', method: 'GET' },
        { rel: 'search', href: `${stac}/search`, type: 'application/geo+json', method: 'POST' },
        { rel: 'http://www.opengis.net/def/rel/ogc/1.0/queryables', href: `${stac}/queryables`, type: 'application/schema+json' },
      ],
    };
  });
  app.get('/conformance', async () => ({ conformsTo: CONFORMANCE }));
  app.get('/queryables', async (req, reply) => {
    reply.type('application/schema+json');
    return queryablesSchema(`${ctx.urls(req).stac}/queryables`);
  });
  app.get('/api', async (req, reply) => {
    reply.header('content-type', OPENAPI_TYPE);
    // a Buffer: Fastify leaves the content type of binary payloads exactly as set
    return Buffer.from(JSON.stringify(openApiDocument(ctx.urls(req).base, ctx.title)));
  });
  app.get('/api.html', async (req, reply) => {
    reply.type('text/html; charset=utf-8');
    return serviceDocHtml(openApiDocument(ctx.urls(req).base, ctx.title));
  });
}
