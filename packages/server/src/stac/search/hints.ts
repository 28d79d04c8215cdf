// Index hints from a CQL2 filter: boxes and time ranges every match must meet, so the R-trees can
// narrow the candidates before the exact filter runs.
import type { Expr, Operand } from '../cql2/ast.js';
import { boxOf, type Box, type GeoJsonGeometry } from '../geometry.js';
import { parseRfc3339 } from '../time.js';

/** Necessary conditions found in a filter's top-level conjunction. */
export interface FilterHints {
  readonly boxes: readonly Box[];
  readonly times: readonly (readonly [number, number])[];
}

// every spatial relation but disjoint implies the envelopes meet; every temporal one but these implies overlap
const NOT_OVERLAPPING = new Set(['t_before', 't_after', 't_disjoint']);

/**
 * Hints from `S_x(geometry, literal)` and `T_x(datetime, literal)` conjuncts (either argument order).
 * @example
 * filterHints(parseCql2Text('S_INTERSECTS(geometry, BBOX(0,0,1,1)) AND title = 'a'')).boxes // [[0,0,1,1]]
 */
export function filterHints(e: Expr): FilterHints {
  const boxes: Box[] = [];
  const times: (readonly [number, number])[] = [];
  const conjuncts = e.kind === 'and' ? e.args : [e];
  for (const c of conjuncts) {
    if (c.kind === 'spatial' && c.op !== 's_disjoint') {
      const b = literalBox(c.left, c.right) ?? literalBox(c.right, c.left);
      if (b && b[0] <= b[2]) boxes.push(b);
    } else if (c.kind === 'temporal' && !NOT_OVERLAPPING.has(c.op)) {
      const t = literalTime(c.left, c.right) ?? literalTime(c.right, c.left);
      if (t) times.push(t);
    }
  }
  return { boxes, times };
}

function literalBox(property: Operand, literal: Operand): Box | undefined {
  if (property.kind !== 'property' || property.name.replace(/^properties\./, '') !== 'geometry') return undefined;
  if (literal.kind === 'bbox') {
    const v = literal.value;
    return (v.length === 6 ? [v[0], v[1], v[3], v[4]] : v) as unknown as Box;
  }
  return literal.kind === 'geometry' ? boxOf(literal.value as GeoJsonGeometry) : undefined;
}

function literalTime(property: Operand, literal: Operand): readonly [number, number] | undefined {
  if (property.kind !== 'property' || property.name.replace(/^properties\./, '') !== 'datetime') return undefined;
  const ms = (text: string, end: boolean): number | undefined => {
    if (text === '..') return end ? Infinity : -Infinity;
    const t = parseRfc3339(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
    if (typeof t === 'string') return undefined;
    return t.ms + (end && /^\d{4}-\d{2}-\d{2}$/.test(text) ? 86_399_999 : 0);
  };
  let range: [number | undefined, number | undefined];
  if (literal.kind === 'timestamp') range = [ms(literal.value, false), ms(literal.value, true)];
  else if (literal.kind === 'date') range = [ms(literal.value, false), ms(literal.value, true)];
  else if (literal.kind === 'interval') range = [ms(literal.start, false), ms(literal.end, true)];
  else return undefined;
  return range[0] === undefined || range[1] === undefined ? undefined : [range[0], range[1]];
}
