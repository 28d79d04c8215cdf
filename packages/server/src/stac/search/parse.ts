// GET query parameters and POST bodies → SearchRequest, with a 400 naming the parameter for bad input.
import { parseCql2Json } from '../cql2/json.js';
import { parseCql2Text } from '../cql2/text.js';
import type { Expr } from '../cql2/ast.js';
import { invalid } from '../errors.js';
import { checkGeometry, toJsts, type GeoJsonGeometry } from '../geometry.js';
import { validityProblem } from '../../geometry/validity.js';
import { parseBbox } from './bbox.js';
import { parseDatetime } from './datetime.js';
import { parseFields } from './fields.js';
import { DEFAULT_LIMIT, MAX_LIMIT, type SearchRequest } from './request.js';
import { parseSortby } from './sort.js';
import { decodeToken } from './token.js';

const PARAMETERS = ['collections', 'ids', 'bbox', 'intersects', 'datetime', 'limit', 'offset', 'token', 'filter', 'filter-lang', 'filter-crs', 'sortby', 'fields'];

/**
 * Parses GET query parameters (comma-separated lists; `intersects` and a cql2-json `filter` as JSON text).
 * @example
 * parseSearchQuery({ bbox: '0,0,10,10', datetime: '2020-01-01T00:00:00Z/..', limit: '5' })
 */
export function parseSearchQuery(query: Readonly<Record<string, unknown>>): SearchRequest {
  const q: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    if (k === 'f') continue;
    if (!PARAMETERS.includes(k)) throw invalid(k, `unknown query parameter; known are ${PARAMETERS.join(', ')}`);
    if (Array.isArray(v)) throw invalid(k, 'is given more than once');
    q[k] = String(v);
  }
  const json = (name: string, text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      throw invalid(name, 'is not valid JSON');
    }
  };
  const lang = filterLang(q['filter-lang'], 'cql2-text');
  return build({
    ...q,
    intersects: q['intersects'] === undefined ? undefined : json('intersects', q['intersects']),
    filter: q['filter'] === undefined ? undefined : lang === 'cql2-json' ? json('filter', q['filter']) : q['filter'],
    'filter-lang': lang,
  });
}

/**
 * Parses a POST body: arrays (or the older comma-separated strings), a GeoJSON `intersects`, a cql2-json
 * `filter` object (or cql2-text with `filter-lang`).
 */
export function parseSearchBody(body: unknown): SearchRequest {
  if (body === undefined || body === null) return build({});
  if (typeof body !== 'object' || Array.isArray(body)) throw invalid('body', 'must be a JSON object');
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) if (!PARAMETERS.includes(k)) throw invalid(k, `unknown search field; known are ${PARAMETERS.join(', ')}`);
  return build({ ...b, 'filter-lang': filterLang(b['filter-lang'], typeof b['filter'] === 'string' ? 'cql2-text' : 'cql2-json') });
}

function build(p: Readonly<Record<string, unknown>>): SearchRequest {
  if (p['bbox'] !== undefined && p['intersects'] !== undefined) throw invalid('bbox', 'cannot be combined with intersects; give one of them');
  if (p['filter-crs'] !== undefined && p['filter-crs'] !== 'http://www.opengis.net/def/crs/OGC/1.3/CRS84') {
    throw invalid('filter-crs', 'only http://www.opengis.net/def/crs/OGC/1.3/CRS84 is supported');
  }
  const sortby = p['sortby'] === undefined ? [] : parseSortby(p['sortby']);
  const datetime = p['datetime'] === undefined ? undefined : { text: p['datetime'] as string, range: parseDatetime(p['datetime']) };
  return {
    ...optional('collections', list('collections', p['collections'])),
    ...optional('ids', list('ids', p['ids'])),
    ...optional('bbox', p['bbox'] === undefined ? undefined : parseBbox(p['bbox'])),
    ...optional('intersects', p['intersects'] === undefined ? undefined : intersects(p['intersects'])),
    ...optional('datetime', datetime),
    ...optional('filter', p['filter'] === undefined ? undefined : filter(p['filter'], p['filter-lang'] as string)),
    ...optional('fields', p['fields'] === undefined ? undefined : parseFields(p['fields'])),
    ...optional('token', p['token'] === undefined ? undefined : decodeToken(p['token'], sortby)),
    sortby,
    limit: integer('limit', p['limit'], DEFAULT_LIMIT, 1, MAX_LIMIT),
    offset: integer('offset', p['offset'], 0, 0, Number.MAX_SAFE_INTEGER),
  };
}

function list(name: string, v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  const items = typeof v === 'string' ? v.split(',').map((s) => s.trim()) : Array.isArray(v) ? v : undefined;
  if (!items || !items.every((s) => typeof s === 'string' && s !== '')) throw invalid(name, `must be an array of non-empty strings or a comma-separated string, got ${JSON.stringify(v)}`);
  if (items.length === 0) throw invalid(name, 'is empty');
  return items as string[];
}

function intersects(v: unknown): SearchRequest['intersects'] {
  const problem = checkGeometry(v, true);
  if (problem) throw invalid('intersects', problem);
  const geometry = toJsts(v as GeoJsonGeometry);
  const invalidity = validityProblem(geometry);
  if (invalidity) throw invalid('intersects', invalidity);
  return { geojson: v as GeoJsonGeometry, geometry };
}

function filter(v: unknown, lang: string): Expr {
  if (lang === 'cql2-text') {
    if (typeof v !== 'string') throw invalid('filter', 'with filter-lang cql2-text must be a string');
    if (v.length > 100_000) throw invalid('filter', 'is longer than 100000 characters');
    return parseCql2Text(v);
  }
  return parseCql2Json(v);
}

function filterLang(v: unknown, fallback: string): string {
  if (v === undefined) return fallback;
  if (v !== 'cql2-text' && v !== 'cql2-json') throw invalid('filter-lang', `must be cql2-text or cql2-json, got ${JSON.stringify(v)}`);
  return v;
}

// an integer in [min, ∞); above max it is clamped (a limit of 1000000 serves pages of max)
function integer(name: string, v: unknown, fallback: number, min: number, max: number): number {
  if (v === undefined) return fallback;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw invalid(name, `must be an integer, got ${JSON.stringify(v)}`);
  if (n < min) throw invalid(name, `must be ≥ ${min}, got ${n}`);
  return Math.min(n, max);
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
