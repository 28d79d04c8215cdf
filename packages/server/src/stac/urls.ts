// Absolute URLs of the STAC API for one request: the public base (configured, or from the request).
import { StacError } from './errors.js';

/** The roots every link is built from. */
export interface Urls {
  /** The service base, e.g. `https://halocline.example.org` (no trailing slash). */
  readonly base: string;
  /** `{base}/api/stac`. */
  readonly stac: string;
}

/** The path prefix of the STAC API (the spec fixes it; no version segment). */
export const STAC_PREFIX = '/api/stac';

/**
 * URLs from a configured public base URL, else from the request's protocol and host (Fastify honours
 * `X-Forwarded-Proto`/`-Host` only when the app was created with `trustProxy`).
 * @example
 * urlsFor('https://h.example.org/', req) // { base: 'https://h.example.org', stac: 'https://h.example.org/api/stac' }
 */
export function urlsFor(baseUrl: string | undefined, req: { protocol: string; host: string }): Urls {
  const base = (baseUrl ?? requestBase(req)).replace(/\/+$/, '');
  return { base, stac: `${base}${STAC_PREFIX}` };
}

// the request's own origin; a Host header that is no host (`a b`, `[x`, a port over 65535) is the client's error
function requestBase(req: { protocol: string; host: string }): string {
  const base = `${req.protocol}://${req.host}`;
  if (!URL.canParse(base)) throw new StacError('InvalidRequest', `the Host header ${JSON.stringify(req.host).slice(0, 200)} is not a host name (and port); links cannot be built from it`);
  return base;
}

/** `href` with `params` replacing its query (undefined values dropped), keys in a stable order. */
export function withQuery(href: string, params: Readonly<Record<string, string | undefined>>): string {
  const url = new URL(href);
  url.search = '';
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}
