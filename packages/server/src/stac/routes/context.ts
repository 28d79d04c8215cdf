// What every STAC route handler shares: the index, options and per-request URLs.
import type { FastifyRequest } from 'fastify';
import { PAGE_BYTES } from '../../page-budget.js';
import type { CatalogIndex } from '../index/catalog-index.js';
import { urlsFor, type Urls } from '../urls.js';

/** The plugin's state as the routes see it. */
export interface StacContext {
  readonly index: CatalogIndex;
  readonly title: string;
  readonly description: string;
  /** The OpenAPI document's link; defaults to the plugin's own `/api/stac/api`. */
  readonly serviceDesc?: string;
  readonly baseUrl?: string;
  /** About the most bytes of item JSON one page of search results holds. */
  readonly pageBytes: number;
  urls(req: FastifyRequest): Urls;
  /** The absolute URL the client requested (the `self` link of lists). */
  requested(req: FastifyRequest): string;
}

/** Builds the route context. */
export function stacContext(index: CatalogIndex, opts: { title?: string; description?: string; serviceDesc?: string; baseUrl?: string; pageBytes?: number }): StacContext {
  return {
    index,
    pageBytes: opts.pageBytes ?? PAGE_BYTES,
    title: opts.title ?? 'Halocline STAC API',
    description: opts.description ?? 'Data collections as STAC collections and datasets as STAC items.',
    ...(opts.serviceDesc !== undefined ? { serviceDesc: opts.serviceDesc } : {}),
    ...(opts.baseUrl !== undefined ? { baseUrl: opts.baseUrl } : {}),
    urls: (req) => urlsFor(opts.baseUrl, req),
    requested: (req) => `${urlsFor(opts.baseUrl, req).base}${req.url}`,
  };
}
