// The body of POST /catalog/list: an OQS filter, or the selector form `{selectors: [{kind: <kind>}, …]}`.
import { badRequest } from '../errors.js';
import { parseOqs, type OqsNode } from '../oqs/index.js';
import { show } from './validate/check.js';
import { KIND } from './validate/common.js';

/**
 * The filter of a catalog list body. `{selectors: [...]}` (service spec, Endpoints → Catalog) matches the
 * resources of any selector's kind; anything else is an OQS filter (empty = everything).
 * @example
 * listFilter({ selectors: [{ kind: 'catalog.example.io/dataset' }] }) // every dataset
 */
export function listFilter(body: unknown): OqsNode {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.hasOwn(body, 'selectors')) return parseOqs(body);
  const extra = Object.keys(body).filter((k) => k !== 'selectors');
  if (extra.length > 0) throw invalid('', `the selector form {"selectors": [{"kind": "<group>/<type>"}]} has no other keys, got ${extra.map((k) => JSON.stringify(k)).join(', ')}`);
  const selectors = (body as { selectors: unknown }).selectors;
  if (!Array.isArray(selectors) || selectors.length === 0) throw invalid('selectors', `expected a non-empty array of {"kind": "<group>/<type>"}, got ${show(selectors)}`);
  const items = selectors.map((s, i): OqsNode => ({
    kind: 'compare',
    op: 'eq',
    left: { kind: 'path', path: ['kind'], text: '$kind' },
    right: { kind: 'literal', value: kindOf(s, `selectors[${i}]`) },
  }));
  return items.length === 1 ? items[0]! : { kind: 'or', items };
}

// a selector names a kind and nothing else: the spec shows only `kind`, and the wire protocol names no selector field
function kindOf(s: unknown, at: string): string {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) throw invalid(at, `a selector is {"kind": "<group>/<type>"}, got ${show(s)}`);
  const extra = Object.keys(s).filter((k) => k !== 'kind');
  if (extra.length > 0) throw invalid(at, `unknown selector field ${extra.map((k) => JSON.stringify(k)).join(', ')}; a selector is {"kind": "<group>/<type>"}`);
  const kind = (s as { kind?: unknown }).kind;
  if (kind === undefined) throw invalid(at, 'a selector needs "kind", e.g. {"kind": "catalog.example.io/dataset"}');
  if (typeof kind !== 'string' || !KIND.test(kind)) throw invalid(`${at}.kind`, `expected a kind <group>/<type> such as catalog.example.io/dataset, got ${show(kind)}`);
  return kind;
}

function invalid(at: string, message: string): Error {
  return badRequest(`invalid selectors body${at ? ` at ${at}` : ''}: ${message}`, 'InvalidQuery');
}
