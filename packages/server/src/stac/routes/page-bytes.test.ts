// Search pages are bounded by bytes as well as by limit: huge footprints make smaller pages, and walking
// next (and prev) links still sees every item exactly once, for every kind of search and for both methods.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, stacApp, type Reply, type TestApp } from '../../test-util/app.js';
import { dataset, footprint, mulberry32 } from '../../test-util/catalog.js';
import type { Resource } from '../source.js';

interface Link { rel: string; href: string; body?: Record<string, unknown> }
const link = (r: Reply, rel: string): Link | undefined => r.body.links.find((l: Link) => l.rel === rel);
const ids = (r: Reply): string[] => r.body.features.map((f: { id: string }) => f.id);
const path = (l: Link): string => new URL(l.href).pathname + new URL(l.href).search;

const PAGE_BYTES = 64 * 1024;
const N = 80;

// a polygon around (x, y) with `n` vertices: about 40 bytes of JSON each
function ring(x: number, y: number, n: number): unknown {
  const pts: number[][] = [];
  for (let i = 0; i < n; i++) pts.push([x + Math.cos((2 * Math.PI * i) / n) * 0.9, y + Math.sin((2 * Math.PI * i) / n) * 0.9]);
  pts.push(pts[0]!);
  return { type: 'Polygon', coordinates: [pts] };
}

// footprints from a few dozen bytes up to ~2.5 times a page (the item that alone exceeds a page comes alone)
function catalog(): Resource[] {
  const rnd = mulberry32(7);
  const out: Resource[] = [];
  for (let i = 0; i < N; i++) {
    const d = dataset(i, { title: `t${(i * 37) % N}` });
    const vertices = i % 40 === 5 ? 4000 : 4 + Math.floor(rnd() * 300);
    out.push(d, footprint(i, d.metadata.name, ring(-170 + (i % 34) * 10, -60 + Math.floor(i / 34) * 30, vertices)));
  }
  return out;
}

let t: TestApp;
beforeAll(async () => {
  t = await stacApp(catalog(), { pageBytes: PAGE_BYTES });
});
afterAll(() => t.app.close());

const SEARCHES: [string, string, Record<string, unknown>][] = [
  ['unfiltered', '', {}],
  ['indexed (bbox)', '&bbox=-180,-90,180,90', { bbox: [-180, -90, 180, 90] }],
  ['sorted (sortby title)', '&sortby=-title', { sortby: [{ field: 'title', direction: 'desc' }] }],
];

describe.each(SEARCHES)('byte-bounded pages, %s', (_, query, body) => {
  it('GET next links: every item once, in order; each page within the bound or a single item; prev gives the items before it', async () => {
    const all = ids(await get(t.app, `/api/stac/search?limit=10000&fields=id${query}`)); // id only: not validated as items
    expect(all).toHaveLength(N);
    const pages: Reply[] = [];
    const sizes: number[] = [];
    let url: string | undefined = `/api/stac/search?limit=1000${query}`;
    while (url) {
      const r = await get(t.app, url, 'itemCollection');
      sizes.push(JSON.stringify(r.body).length); // the answer is compact JSON: the same length
      pages.push(r);
      const next = link(r, 'next');
      url = next ? path(next) : undefined;
    }
    expect(pages.flatMap(ids)).toEqual(all);
    expect(pages.length).toBeGreaterThan(5); // the limit (1000) alone would make one page
    pages.forEach((p, i) => {
      if (ids(p).length > 1) expect(sizes[i]!).toBeLessThanOrEqual(PAGE_BYTES + 2048); // items plus links
    });
    expect(pages.some((p) => ids(p).length === 1 && JSON.stringify(p.body.features[0]).length > PAGE_BYTES)).toBe(true);
    for (let p = pages.length - 1; p > 0; p--) {
      const back = await get(t.app, path(link(pages[p]!, 'prev')!), 'itemCollection');
      // a prev page fills backwards from the token: the items right before this page, as many as fit
      const start = all.indexOf(ids(pages[p]!)[0]!);
      expect(ids(back).length).toBeGreaterThan(0);
      expect(ids(back)).toEqual(all.slice(start - ids(back).length, start));
      if (ids(back).length > 1) expect(JSON.stringify(back.body).length).toBeLessThanOrEqual(PAGE_BYTES + 2048);
    }
  });

  it('POST merge links: every item once, in order', async () => {
    const all = ids(await post(t.app, '/api/stac/search', { ...body, limit: 10000, fields: { include: ['id'] } }));
    const seen: string[] = [];
    let r = await post(t.app, '/api/stac/search', { ...body, limit: 1000 }, 'itemCollection');
    for (;;) {
      seen.push(...ids(r));
      const next = link(r, 'next');
      if (!next) break;
      r = await post(t.app, '/api/stac/search', { ...body, limit: 1000, ...next.body }, 'itemCollection');
    }
    expect(seen).toEqual(all);
  });
});

it('counts what is answered: leaving the geometry out fits more items in a page', async () => {
  const full = await get(t.app, '/api/stac/search?limit=1000', 'itemCollection');
  const slim = await get(t.app, '/api/stac/search?limit=1000&fields=-geometry'); // not a full item: not validated
  expect(ids(full).length).toBeLessThan(ids(slim).length);
  expect(ids(slim).slice(0, ids(full).length)).toEqual(ids(full));
});
