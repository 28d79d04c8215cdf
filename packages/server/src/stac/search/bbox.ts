// The `bbox` parameter: 4 or 6 numbers, WGS84 ranges, south ≤ north; minX > maxX crosses the antimeridian.
import { invalid } from '../errors.js';
import type { Box } from '../geometry.js';

/** A parsed bbox: as given (for links) and as the boxes to search (two when it crosses the antimeridian). */
export interface BboxFilter {
  readonly given: readonly number[];
  readonly boxes: readonly Box[];
  /** The elevation range of a 3D bbox [minimum, maximum]; an item's 2D geometry stands at elevation 0. */
  readonly elevation?: readonly [number, number];
}

/**
 * Parses `"w,s,e,n"` (GET, or the older POST string form) or `[w, s, e, n]` / `[w, s, zmin, e, n, zmax]`.
 * Degenerate boxes (a line or a point) are allowed.
 * @example
 * parseBbox('170,-10,-170,10').boxes // [[170,-10,180,10], [-180,-10,-170,10]]
 */
export function parseBbox(value: unknown): BboxFilter {
  const nums = typeof value === 'string' ? value.split(',').map(numberOf) : Array.isArray(value) ? value : undefined;
  if (!nums) throw invalid('bbox', `must be an array of 4 or 6 numbers or a comma-separated string, got ${JSON.stringify(value)}`);
  if (nums.length !== 4 && nums.length !== 6) throw invalid('bbox', `needs 4 or 6 numbers, got ${nums.length}`);
  for (const [i, n] of nums.entries()) {
    if (typeof n !== 'number' || !Number.isFinite(n)) throw invalid('bbox', `element ${i} is not a finite number: ${JSON.stringify(typeof value === 'string' ? value.split(',')[i] : n)}`);
  }
  const b = nums as number[];
  const [w, s, e, n] = b.length === 4 ? b : [b[0]!, b[1]!, b[3]!, b[4]!];
  if (b.length === 6 && b[2]! > b[5]!) throw invalid('bbox', `minimum elevation ${b[2]} is above the maximum ${b[5]}`);
  for (const [name, v] of [['west', w], ['east', e]] as const) if (v! < -180 || v! > 180) throw invalid('bbox', `${name} ${v} is outside [-180, 180]`);
  for (const [name, v] of [['south', s], ['north', n]] as const) if (v! < -90 || v! > 90) throw invalid('bbox', `${name} ${v} is outside [-90, 90]`);
  if (s! > n!) throw invalid('bbox', `south ${s} is above north ${n}`);
  const boxes: Box[] = w! <= e! ? [[w!, s!, e!, n!]] : [[w!, s!, 180, n!], [-180, s!, e!, n!]];
  return { given: b, boxes, ...(b.length === 6 ? { elevation: [b[2]!, b[5]!] as const } : {}) };
}

function numberOf(s: string): number {
  return s.trim() === '' ? NaN : Number(s);
}
