// Paging through 1000 items by GET next links and by POST merge: no duplicates, no gaps, also while the
// catalog changes between pages; prev links; the same for sorted and filtered searches.
import { afterEach, describe, expect, it } from 'vitest';
import { get, post, stacApp, type Reply, type TestApp } from '../../test-util/app.js';
import { dataset, mulberry32, timeCoverage } from '../../test-util/catalog.js';
import type { Resource } from '../source.js';

interface Link { rel: string; href: string; method?: string; body?: Record<string, unknown>; merge?: boolean }
const link = (r: Reply, rel: string): Link | undefined => r.body.links.find((l: Link) => l.rel === rel);
const ids = (r: Reply): string[] => r.body.features.map((f: { id: string }) => f.id);

function catalog(n: number): Resource[] {
  const out: Resource[] = [];
  for (let i = 0; i < n; i++) {
    // created times collide in groups of 3, so the uuid tie-break matters
    out.push(dataset(i, { created: Date.UTC(2024, 0, 1) + Math.floor(i / 3) * 1000, title: `t${(i * 7919) % 1000}` }));
    out.push(timeCoverage(i, `dataset-${i}`, '2020-01-01T00:00:00Z', '2020-12-31T00:00:00Z'));
  }
  return out;
}

/** Follows next links from `first`; `between` runs after each page (catalog changes). */
async function walkGet(t: TestApp, first: string, between?: (page: number) => void): Promise<{ seen: string[]; pages: Reply[] }> {
  const seen: string[] = [];
  const pages: Reply[] = [];
  let r = await get(t.app, first, 'itemCollection');
  for (let page = 0; ; page++) {
    pages.push(r);
    seen.push(...ids(r));
    const next = link(r, 'next');
    if (!next) break;
    expect(next.method).toBe('GET');
    between?.(page);
    r = await get(t.app, new URL(next.href).pathname + new URL(next.href).search, 'itemCollection');
  }
  return { seen, pages };
}

async function walkPost(t: TestApp, body: Record<string, unknown>, between?: (page: number) => void): Promise<string[]> {
  const seen: string[] = [];
  let r = await post(t.app, '/api/stac/search', body, 'itemCollection');
  for (let page = 0; ; page++) {
    seen.push(...ids(r));
    const next = link(r, 'next');
    if (!next) break;
    expect(next).toMatchObject({ method: 'POST', merge: true, href: 'https://stac.test/api/stac/search' });
    between?.(page);
    r = await post(t.app, '/api/stac/search', { ...body, ...next.body }, 'itemCollection');
  }
  return seen;
}

function churn(t: TestApp, originals: Set<string>, deleted: Set<string>, seed: number): (page: number) => void {
  const rnd = mulberry32(seed);
  let n = 100_000 * seed; // fresh uuids per walk: a re-put with another created time would be an update that moves
  return () => {
    // new datasets anywhere in the order (earlier and later created times), and deletions
    for (let k = 0; k < 5; k++) {
      const created = Date.UTC(2024, 0, 1) + Math.floor(rnd() * 400) * 1000;
      t.source.put(dataset(n, { created, title: `new${n}` }));
      t.source.put(timeCoverage(n, `dataset-${n}`, '2020-01-01T00:00:00Z', '2020-12-31T00:00:00Z'));
      n++;
    }
    const victims = [...originals].filter((id) => !deleted.has(id));
    const victim = victims[Math.floor(rnd() * victims.length)]!;
    t.source.delete(victim);
    deleted.add(victim);
  };
}

let t: TestApp;
afterEach(async () => { await t.app.close(); });

const SEARCHES: [string, string, Record<string, unknown>][] = [
  ['unfiltered', '', {}],
  ['indexed (datetime)', '&datetime=2020-06-01T00:00:00Z', { datetime: '2020-06-01T00:00:00Z' }],
  ['sorted (sortby title)', '&sortby=-title', { sortby: [{ field: 'title', direction: 'desc' }] }],
  ['CQL2 filter', `&filter=${encodeURIComponent("name LIKE 'dataset-%'")}`, { filter: { op: 'like', args: [{ property: 'name' }, 'dataset-%'] } }],
];

describe.each(SEARCHES)('paging 1000 items, %s', (_, query, body) => {
  it('GET next links visit every item exactly once, in order', async () => {
    t = await stacApp(catalog(1000));
    const all = ids(await get(t.app, `/api/stac/search?limit=10000${query}`, 'itemCollection'));
    expect(all).toHaveLength(1000);
    const { seen, pages } = await walkGet(t, `/api/stac/search?limit=37${query}`);
    expect(seen).toEqual(all);
    expect(pages).toHaveLength(Math.ceil(1000 / 37));
    // prev from each page is the page before it
    for (let p = 1; p < 5; p++) {
      const prev = link(pages[p]!, 'prev')!;
      const r = await get(t.app, new URL(prev.href).pathname + new URL(prev.href).search, 'itemCollection');
      expect(ids(r)).toEqual(ids(pages[p - 1]!));
    }
    expect(link(pages[0]!, 'prev')).toBeUndefined();
  });

  it('POST merge links visit every item exactly once, in order', async () => {
    t = await stacApp(catalog(1000));
    const all = ids(await post(t.app, '/api/stac/search', { ...body, limit: 10000 }, 'itemCollection'));
    expect(await walkPost(t, { ...body, limit: 41 })).toEqual(all);
  });

  it('never repeats or skips while datasets are inserted and deleted between pages', async () => {
    t = await stacApp(catalog(1000));
    const originals = new Set(ids(await get(t.app, `/api/stac/search?limit=10000${query}`)));
    for (const [how, run] of [
      ['GET', (between: (p: number) => void) => walkGet(t, `/api/stac/search?limit=50${query}`, between).then((w) => w.seen)],
      ['POST', (between: (p: number) => void) => walkPost(t, { ...body, limit: 50 }, between)],
    ] as const) {
      const deleted = new Set<string>();
      const seen = await run(churn(t, originals, deleted, how === 'GET' ? 1 : 2));
      expect(new Set(seen).size, `${how}: duplicates`).toBe(seen.length);
      const seenOriginals = seen.filter((id) => originals.has(id));
      const expected = [...originals].filter((id) => !deleted.has(id) || seenOriginals.includes(id));
      expect(seenOriginals.sort(), `${how}: gaps`).toEqual(expected.sort());
      for (const id of deleted) originals.delete(id);
    }
  });
});

describe('offset with tokens', () => {
  it('a next link after an offset request continues from that page, and a POST merge resets offset', async () => {
    t = await stacApp(catalog(100));
    const all = ids(await get(t.app, '/api/stac/search?limit=100'));
    const r = await get(t.app, '/api/stac/search?limit=10&offset=20', 'itemCollection');
    expect(ids(r)).toEqual(all.slice(20, 30));
    const next = link(r, 'next')!;
    expect(next.href).not.toContain('offset=');
    expect(ids(await get(t.app, new URL(next.href).pathname + new URL(next.href).search))).toEqual(all.slice(30, 40));
    const p = await post(t.app, '/api/stac/search', { limit: 10, offset: 20 });
    const pn = link(p, 'next')!;
    expect(pn.body).toMatchObject({ offset: 0 });
    expect(ids(await post(t.app, '/api/stac/search', { limit: 10, offset: 20, ...pn.body }))).toEqual(all.slice(30, 40));
    const prev = link(r, 'prev')!;
    expect(ids(await get(t.app, new URL(prev.href).pathname + new URL(prev.href).search))).toEqual(all.slice(10, 20));
  });

  it('rejects a forged token and a token used with another sortby', async () => {
    t = await stacApp(catalog(30));
    const r = await get(t.app, '/api/stac/search?limit=5&sortby=title');
    const token = new URL(link(r, 'next')!.href).searchParams.get('token')!;
    expect((await get(t.app, `/api/stac/search?token=${token}`)).body.description).toMatch(/token: belongs to a search with another sortby/);
    expect((await get(t.app, '/api/stac/search?token=abc')).body.description).toMatch(/token: is not a token/);
  });
});
