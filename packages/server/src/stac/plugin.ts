// The STAC API as a Fastify plugin: routes under /api/stac over an indexed CatalogSource.
import type { FastifyError, FastifyInstance, FastifyPluginAsync, preHandlerAsyncHookHandler } from 'fastify';
import { ApiError } from '../errors.js';
import { StacError } from './errors.js';
import { CatalogIndex } from './index/catalog-index.js';
import { kindsOf } from './kinds.js';
import { collectionRoutes } from './routes/collections.js';
import { stacContext } from './routes/context.js';
import { itemRoutes } from './routes/items.js';
import { landingRoutes } from './routes/landing.js';
import { searchRoutes } from './routes/search.js';
import type { CatalogSource } from './source.js';
import { STAC_PREFIX } from './urls.js';

/** Options of {@link stacPlugin}. */
export interface StacPluginOptions {
  /** The catalog; the plugin indexes it at registration and follows its changes until the app closes. */
  readonly source: CatalogSource;
  /** Group domain of resource kinds (`catalog.<domain>/dataset`); default `example.io`. */
  readonly domain?: string;
  /** Public base URL for links (e.g. `https://halocline.example.org`); default: from each request (honours trustProxy). */
  readonly baseUrl?: string;
  /** Runs before every STAC route when the deployment requires a token; absent = public (the spec's examples send none). */
  readonly authenticate?: preHandlerAsyncHookHandler;
  /** The `service-desc` href; default the plugin's own OpenAPI document at /api/stac/api. */
  readonly serviceDesc?: string;
  readonly title?: string;
  readonly description?: string;
  /** About the most bytes of item JSON one page of search results holds (at least one item); default 64 MiB, as the catalog's lists. */
  readonly pageBytes?: number;
  /** Largest POST body in bytes; default 1 MiB. */
  readonly bodyLimit?: number;
}

/**
 * Registers the STAC API (landing page, conformance, queryables, collections, items, search).
 * Errors answer `{code, description}` with 400, 404, 413 or 415.
 * @example
 * await app.register(stacPlugin, { source, domain: 'example.io' });
 */
export const stacPlugin: FastifyPluginAsync<StacPluginOptions> = async (app, opts) => {
  const index = new CatalogIndex(opts.source, kindsOf(opts.domain ?? 'example.io'));
  app.addHook('onClose', async () => index.close());
  const ctx = stacContext(index, opts);
  await app.register(async (stac: FastifyInstance) => {
    const bodyLimit = opts.bodyLimit ?? 1024 * 1024;
    stac.removeContentTypeParser('text/plain');
    stac.addContentTypeParser('application/geo+json', { parseAs: 'string', bodyLimit }, stac.getDefaultJsonParser('error', 'error'));
    // the limit holds whatever parser reads the body (the host's application/json parser has the host's limit)
    stac.addHook('onRoute', (route) => {
      route.bodyLimit ??= bodyLimit;
    });
    if (opts.authenticate) stac.addHook('preHandler', opts.authenticate);
    stac.setErrorHandler((err: FastifyError | StacError, req, reply) => {
      if (err instanceof StacError) return reply.status(err.status).send({ code: err.code, description: err.message });
      // the host's body parsers (application/json) reject a body with an ApiError
      const status = err instanceof ApiError ? err.status : (err.statusCode ?? 500);
      if (status >= 400 && status < 500) return reply.status(status).send({ code: clientCode(status), description: err.message });
      req.log.error({ err }, 'STAC request failed');
      return reply.status(500).send({ code: 'Internal', description: 'internal error; the server log has the details' });
    });
    stac.setNotFoundHandler((req, reply) => reply.status(404).send({ code: 'NotFound', description: `no STAC route for ${req.method} ${req.url.split('?')[0]}` }));
    landingRoutes(stac, ctx);
    collectionRoutes(stac, ctx);
    itemRoutes(stac, ctx);
    searchRoutes(stac, ctx);
  }, { prefix: STAC_PREFIX });
};

function clientCode(status: number): string {
  if (status === 401) return 'Unauthorized';
  if (status === 403) return 'Forbidden';
  if (status === 404) return 'NotFound';
  if (status === 413) return 'PayloadTooLarge';
  if (status === 415) return 'UnsupportedMediaType';
  return 'InvalidRequest';
}
