// Builds an ItemCollection page: features (fields applied) within the page's byte bound, counts, self/root (collection, for a
// collection's items) and next/prev links.
import type { FastifyRequest } from 'fastify';
import { itemOf, type Link } from '../map/item.js';
import { applyFields } from '../search/fields.js';
import type { DatasetEntry } from '../index/entry.js';
import { search } from '../search/execute.js';
import type { SearchRequest } from '../search/request.js';
import { encodeToken, type PageToken } from '../search/token.js';
import type { StacContext } from './context.js';

/** How the next/prev links repeat the request: a GET URL, or a POST body to merge. */
export type Continuation = { readonly method: 'GET'; readonly href: string } | { readonly method: 'POST'; readonly href: string; readonly offset: boolean };

/**
 * Runs the search and answers its ItemCollection page as JSON text. Each feature is rendered once:
 * its text measures it for the page's byte bound (about `ctx.pageBytes`, at least one item) and then
 * goes into the answer as is.
 */
export function searchPage(ctx: StacContext, req: FastifyRequest, sr: SearchRequest, how: Continuation, collection?: string): string {
  const underCollection = collection !== undefined;
  const urls = ctx.urls(req);
  const texts = new Map<DatasetEntry, string>();
  const text = (e: DatasetEntry): string => {
    let t = texts.get(e);
    if (t === undefined) {
      const item = itemOf(ctx.index, e, urls, underCollection) as unknown as Record<string, unknown>;
      texts.set(e, (t = JSON.stringify(sr.fields ? applyFields(item, sr.fields) : item)));
    }
    return t;
  };
  const page = search(ctx.index, sr, { size: (e) => text(e).length, maxBytes: ctx.pageBytes });
  const links: Link[] = [
    how.method === 'GET'
      ? { rel: 'self', href: ctx.requested(req), type: 'application/geo+json' }
      : { rel: 'self', href: how.href, type: 'application/geo+json', method: 'POST' },
    { rel: 'root', href: urls.stac, type: 'application/json' },
  ];
  // OGC API Features: an items page of a collection links to it
  if (collection !== undefined) links.push({ rel: 'collection', href: `${urls.stac}/collections/${encodeURIComponent(collection)}`, type: 'application/json' });
  if (page.next) links.push(continuation('next', page.next, sr, how));
  if (page.prev) links.push(continuation('prev', page.prev, sr, how));
  const counts = `"numberReturned":${page.items.length}${page.matched !== undefined ? `,"numberMatched":${page.matched}` : ''}`;
  return `{"type":"FeatureCollection","features":[${page.items.map(text).join(',')}],"links":${JSON.stringify(links)},${counts}}`;
}

function continuation(rel: 'next' | 'prev', t: PageToken, sr: SearchRequest, how: Continuation): Link {
  const token = encodeToken(t, sr.sortby);
  if (how.method === 'POST') {
    // merged into the original body: the token continues from the page edge, so offset is spent
    return { rel, href: how.href, type: 'application/geo+json', method: 'POST', body: how.offset ? { token, offset: 0 } : { token }, merge: true };
  }
  const url = new URL(how.href);
  url.searchParams.delete('offset');
  url.searchParams.set('token', token);
  return { rel, href: url.toString(), type: 'application/geo+json', method: 'GET' };
}
