// Runs a search on the index: candidates from the most selective index, exact filters, keyset paging.
import { compileFilter } from '../cql2/compile.js';
import type { CatalogIndex } from '../index/catalog-index.js';
import type { DatasetEntry } from '../index/entry.js';
import { PageBudget } from '../../page-budget.js';
import { prepare } from '../predicates.js';
import type Geometry from 'jsts/org/locationtech/jts/geom/Geometry.js';
import { boxGeometry, boxOf, type Box } from '../geometry.js';
import { filterHints } from './hints.js';
import type { SearchRequest } from './request.js';
import { compareValues, sortValues, type SortKey, type SortValue } from './sort.js';
import type { PageToken } from './token.js';

/** One page of results, with the keys the next and previous pages continue from. */
export interface SearchPage {
  readonly items: readonly DatasetEntry[];
  /** Total matches, when the search computed it (always, except when walking the unfiltered order). */
  readonly matched?: number;
  readonly next?: PageToken;
  readonly prev?: PageToken;
}

/** A bound on a page's bytes besides `limit`: each item's JSON size, and about the most a page holds. */
export interface PageFit {
  size(e: DatasetEntry): number;
  readonly maxBytes: number;
}

/**
 * Searches datasets. The order is sortby, then (created_time, uuid); pages start after (or end before) a
 * token's key, so they stay stable while the catalog changes. `offset` skips matches from there. A page
 * holds at most `limit` items and, with `fit`, about `fit.maxBytes` of them (at least one); the tokens
 * continue from the items it holds, so a walk over the pages sees every match once.
 * @example
 * const page = search(index, parseSearchBody({ bbox: [0, 0, 10, 10], limit: 5 }));
 */
export function search(index: CatalogIndex, req: SearchRequest, fit?: PageFit): SearchPage {
  const budget = fitting(req.limit, fit);
  const keys: SortKey[] = [...req.sortby, { field: 'created', direction: 'asc' }];
  const keyOf = (e: DatasetEntry): Key => ({ values: req.sortby.length === 0 ? [e.created] : sortValues(keys, e, index), id: e.uuid });
  const test = predicate(index, req);
  const indexed = candidates(index, req);
  if (!indexed && req.sortby.length === 0) return walk(index.ordered, test, req, keyOf, req.filter === undefined && isUnfiltered(req), budget);
  const matches = (indexed ?? index.ordered).filter(test);
  const keyed = matches.map((e) => ({ e, k: keyOf(e) }));
  keyed.sort((a, b) => compareKeys(keys, a.k, b.k));
  const bound = req.token ? lowerBound(keyed.map((x) => x.k), keys, req.token) : 0;
  let from: number;
  let to: number;
  if (req.token?.direction === 'prev') {
    // the items right before the token, as many as fit
    to = clamp(bound - req.offset, keyed.length);
    from = to;
    while (from > 0 && budget.take(keyed[from - 1]!.e)) from--;
  } else {
    from = clamp((req.token ? bound + (sameKey(keyed[bound]?.k, req.token) ? 1 : 0) : 0) + req.offset, keyed.length);
    to = from;
    while (to < keyed.length && budget.take(keyed[to]!.e)) to++;
  }
  const page = keyed.slice(from, to);
  return {
    items: page.map((x) => x.e),
    matched: keyed.length,
    ...(to < keyed.length && page.length > 0 ? { next: token('next', page[page.length - 1]!.k) } : {}),
    ...(from > 0 && page.length > 0 ? { prev: token('prev', page[0]!.k) } : {}),
  };
}

interface Key {
  readonly values: readonly SortValue[];
  readonly id: string;
}

// walk the (created, uuid) order from the token: no sort, stops after limit + 1 matches
function walk(ordered: readonly DatasetEntry[], test: Predicate1, req: SearchRequest, keyOf: (e: DatasetEntry) => Key, everything: boolean, budget: Budget): SearchPage {
  const t = req.token;
  let start = t ? lowerBoundEntries(ordered, t) : 0;
  const out: DatasetEntry[] = [];
  let more = false;
  if (t?.direction === 'prev') {
    let skip = req.offset;
    for (let i = start - 1; i >= 0; i--) {
      const e = ordered[i]!;
      if (!test(e)) continue;
      if (skip > 0) { skip--; continue; }
      if (!budget.take(e)) { more = true; break; }
      out.push(e);
    }
    out.reverse();
    return {
      items: out,
      ...(everything ? { matched: ordered.length } : {}),
      ...(out.length > 0 ? { next: token('next', keyOf(out[out.length - 1]!)) } : {}),
      ...(more && out.length > 0 ? { prev: token('prev', keyOf(out[0]!)) } : {}),
    };
  }
  const at = ordered[start];
  if (t && at && sameKey(keyOf(at), t)) start++;
  let skip = req.offset;
  for (let i = start; i < ordered.length; i++) {
    const e = ordered[i]!;
    if (!test(e)) continue;
    if (skip > 0) { skip--; continue; }
    if (!budget.take(e)) { more = true; break; }
    out.push(e);
  }
  return {
    items: out,
    ...(everything ? { matched: ordered.length } : {}),
    ...(more && out.length > 0 ? { next: token('next', keyOf(out[out.length - 1]!)) } : {}),
    ...((t !== undefined || req.offset > 0) && out.length > 0 ? { prev: token('prev', keyOf(out[0]!)) } : {}),
  };
}

type Predicate1 = (e: DatasetEntry) => boolean;

/** Takes the items of one page while they fit (see PageBudget). */
interface Budget {
  take(e: DatasetEntry): boolean;
}

function fitting(limit: number, fit: PageFit | undefined): Budget {
  const b = new PageBudget(limit, fit?.maxBytes ?? Number.POSITIVE_INFINITY);
  return { take: (e) => b.take(fit ? fit.size(e) : 0) };
}

// candidates from the indexes (ids, collections, R-tree, time tree), asked in that order until one list is
// small enough that testing it exactly is cheaper than asking the next index; undefined = no index applies
const SMALL_ENOUGH = 4096;

function candidates(index: CatalogIndex, req: SearchRequest): readonly DatasetEntry[] | undefined {
  const sources: (() => readonly DatasetEntry[])[] = [];
  if (req.ids) { const ids = req.ids; sources.push(() => ids.map((id) => index.dataset(id)).filter((e): e is DatasetEntry => e !== undefined)); }
  if (req.collections) { const cs = req.collections; sources.push(() => cs.flatMap((c) => index.members(c))); }
  const boxes = req.bbox?.boxes ?? (req.intersects ? [boxOf(req.intersects.geojson)].filter((b) => b !== undefined) : undefined);
  if (boxes) sources.push(() => (boxes.length === 1 ? index.spatial(boxes[0]!) : dedupe(boxes.flatMap((b) => index.spatial(b)))));
  if (req.datetime) { const { start, end } = req.datetime.range; sources.push(() => index.temporal(start, end)); }
  if (req.filter) {
    const hints = filterHints(req.filter);
    for (const b of hints.boxes) sources.push(() => index.spatial(b));
    for (const [start, end] of hints.times) sources.push(() => index.temporal(start, end));
  }
  let best: readonly DatasetEntry[] | undefined;
  for (const source of sources) {
    const list = source();
    if (!best || list.length < best.length) best = list;
    if (best.length <= SMALL_ENOUGH) break;
  }
  return best;
}

// every condition of the request, cheapest first
function predicate(index: CatalogIndex, req: SearchRequest): Predicate1 {
  const tests: Predicate1[] = [];
  if (req.ids) { const ids = new Set(req.ids); tests.push((e) => ids.has(e.uuid)); }
  if (req.collections) { const cs = new Set(req.collections); tests.push((e) => { const c = index.collectionOf(e); return c !== undefined && cs.has(c); }); }
  if (req.datetime) { const { start, end } = req.datetime.range; tests.push((e) => e.start <= end && e.end >= start); }
  if (req.bbox) {
    // the envelopes first, then the geometry itself: a line's or a multi-polygon's envelope covers far more than it does
    const parts = req.bbox.boxes.map((b) => ({ b, q: prepare(boxGeometry(b)) }));
    const z = req.bbox.elevation;
    tests.push((e) => {
      if (e.box === undefined || !parts.some(({ b }) => overlaps(b, e.box!))) return false;
      const g = e.jsts();
      if (g === undefined) return false;
      return parts.some(({ b, q }) => overlaps(b, e.box!) && q.intersects(g)) && (z === undefined || elevationWithin(g, z));
    });
  }
  if (req.intersects) {
    const q = prepare(req.intersects.geometry);
    tests.push((e) => { const g = e.jsts(); return g !== undefined && q.intersects(g); });
  }
  if (req.filter) { const f = compileFilter(req.filter, index); tests.push((e) => f(e) === true); }
  return (e) => tests.every((t) => t(e));
}

function isUnfiltered(req: SearchRequest): boolean {
  return !req.ids && !req.collections && !req.bbox && !req.intersects && !req.datetime;
}

function clamp(i: number, length: number): number {
  return Math.max(0, Math.min(i, length));
}

// whether the geometry's elevations (0 for a 2D geometry, STAC's rule for a 3D bbox) overlap [min, max]
function elevationWithin(g: Geometry, [min, max]: readonly [number, number]): boolean {
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of (g as unknown as { getCoordinates(): readonly { z: number }[] }).getCoordinates()) {
    const z = Number.isNaN(c.z) ? 0 : c.z;
    if (z < lo) lo = z;
    if (z > hi) hi = z;
  }
  return lo <= max && hi >= min;
}

function overlaps(a: Box, b: Box): boolean {
  return a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];
}

function dedupe(list: DatasetEntry[]): DatasetEntry[] {
  return [...new Set(list)];
}

function compareKeys(keys: readonly SortKey[], a: Key, b: Key): number {
  return compareValues(keys, a.values, b.values) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function sameKey(k: Key | undefined, t: PageToken): boolean {
  return k !== undefined && k.id === t.id && k.values.every((v, i) => v === t.values[i]);
}

// first position whose key is ≥ the token's key
function lowerBound(ks: readonly Key[], keys: readonly SortKey[], t: PageToken): number {
  let lo = 0;
  let hi = ks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keys, ks[mid]!, t) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lowerBoundEntries(ordered: readonly DatasetEntry[], t: PageToken): number {
  const created = t.values[0] as number;
  let lo = 0;
  let hi = ordered.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const e = ordered[mid]!;
    if (e.created < created || (e.created === created && e.uuid < t.id)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function token(direction: PageToken['direction'], k: Key): PageToken {
  return { direction, values: k.values, id: k.id };
}
