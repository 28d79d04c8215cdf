// Builds an ItemCollection page: features (fields applied), counts, self/root and next/prev links.
import type { FastifyRequest } from 'fastify';
import { itemOf, type Link } from '../map/item.js';
import { applyFields } from '../search/fields.js';
import type { SearchPage } from '../search/execute.js';
import type { SearchRequest } from '../search/request.js';
import { encodeToken, type PageToken } from '../search/token.js';
import type { StacContext } from './context.js';

/** How the next/prev links repeat the request: a GET URL, or a POST body to merge. */
export type Continuation = { readonly method: 'GET'; readonly href: string } | { readonly method: 'POST'; readonly href: string; readonly offset: boolean };

/** The ItemCollection document of a page. */
export function itemCollection(ctx: StacContext, req: FastifyRequest, sr: SearchRequest, page: SearchPage, how: Continuation, underCollection: boolean): unknown {
  const urls = ctx.urls(req);
  const features = page.items.map((e) => {
    const item = itemOf(ctx.index, e, urls, underCollection) as unknown as Record<string, unknown>;
    return sr.fields ? applyFields(item, sr.fields) : item;
  });
  const links: Link[] = [
    how.method === 'GET'
      ? { rel: 'self', href: ctx.requested(req), type: 'application/geo+json' }
      : { rel: 'self', href: how.href, type: 'application/geo+json', method: 'POST' },
    { rel: 'root', href: urls.stac, type: 'application/json' },
  ];
  if (page.next) links.push(continuation('next', page.next, sr, how));
  if (page.prev) links.push(continuation('prev', page.prev, sr, how));
  return {
    type: 'FeatureCollection',
    features,
    links,
    numberReturned: features.length,
    ...(page.matched !== undefined ? { numberMatched: page.matched } : {}),
  };
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
