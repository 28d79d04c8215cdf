// Partition skipping for spatial filters: each partition's bounds in an R-tree (rbush), searched by box.
import RBush from 'rbush';
import type { Schema } from 'apache-arrow';
import type { TypedExpr } from '../expr/typed.js';
import type { PartRecord } from '../storage/records.js';
import { bboxColumn, SIDES } from './bbox.js';
import { spatialColumns } from './columns.js';

/** The box columns of one spatial target: [xmin, ymin, xmax, ymax] (a point's are [lon, lat, lon, lat]). */
type Sides = readonly [string, string, string, string];

/**
 * A partition filter derived from the box comparisons a spatial operator lowered to (`geo/lower.ts`)
 * in the filter's top-level conjunction, or null when the filter constrains no spatial target. The
 * partitions' bounds (from the box columns' zone maps) go into an R-tree, built once per table
 * set of partitions and target, and a search returns the partitions whose bounds meet the query box. Sound
 * because every lowered comparison bounds a row's box from one side, and xmin <= xmax on each row.
 * @example
 * const skip = spatialPruner(schema, typed); skip?.(parts) // the candidate partitions
 */
export function spatialPruner(schema: Schema, typed: TypedExpr): ((parts: readonly PartRecord[]) => PartRecord[]) | null {
  const bounds = conjunctBounds(typed);
  const searches = targets(schema).flatMap((sides) => {
    const box = queryBox(sides, bounds);
    return box ? [{ sides, box }] : [];
  });
  if (searches.length === 0) return null;
  return (parts) => {
    const ids = parts.map((p) => p.id).join(',');
    let kept = new Set(parts);
    for (const { sides, box } of searches) {
      const hits = new Set(treeOf(`${sides.join(',')}|${ids}`, sides, parts).search(box).map((e) => e.part.id));
      kept = new Set([...kept].filter((p) => hits.has(p.id) || !bounded(p, sides)));
    }
    return parts.filter((p) => kept.has(p));
  };
}

interface Entry {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  part: PartRecord;
}
type Box = Omit<Entry, 'part'>;

const trees = new Map<string, { tree: RBush<Entry> }>();
const MAX_TREES = 64;

function treeOf(key: string, sides: Sides, parts: readonly PartRecord[]): RBush<Entry> {
  const hit = trees.get(key);
  if (hit) return hit.tree; // partition ids are unique and partitions immutable
  const tree = new RBush<Entry>();
  tree.load(parts.filter((p) => bounded(p, sides)).map((part) => ({ ...partBox(part, sides), part })));
  if (trees.size >= MAX_TREES) trees.delete(trees.keys().next().value!);
  trees.set(key, { tree });
  return tree;
}

// a partition whose box columns have no finite bounds (all null or empty) is left to the zone maps
function bounded(p: PartRecord, sides: Sides): boolean {
  return Object.values(partBox(p, sides)).every((v) => Number.isFinite(v));
}

function partBox(p: PartRecord, [x0, y0, x1, y1]: Sides): Box {
  const n = (v: unknown): number => (typeof v === 'number' ? v : NaN);
  return { minX: n(p.zones[x0]?.min), minY: n(p.zones[y0]?.min), maxX: n(p.zones[x1]?.max), maxY: n(p.zones[y1]?.max) };
}

function targets(schema: Schema): Sides[] {
  const { geometries, points } = spatialColumns(schema);
  return [
    ...geometries.map((g) => SIDES.map((s) => bboxColumn(g, s)) as unknown as Sides),
    ...points.map((p): Sides => [p.lon, p.lat, p.lon, p.lat]),
  ];
}

// lower/upper bounds on columns from `col >= v` / `col <= v` (and > <) in the top-level conjunction
function conjunctBounds(typed: TypedExpr): Map<string, { lo: number; hi: number }> {
  const out = new Map<string, { lo: number; hi: number }>();
  const walk = (e: TypedExpr): void => {
    if (e.kind === 'logical' && e.op === 'and') return (walk(e.left), walk(e.right));
    if (e.kind !== 'compare' || e.left.kind !== 'column' || e.right.kind !== 'literal' || typeof e.right.value !== 'number') return;
    const b = out.get(e.left.name) ?? { lo: -Infinity, hi: Infinity };
    if (e.op === '>=' || e.op === '>') b.lo = Math.max(b.lo, e.right.value);
    if (e.op === '<=' || e.op === '<') b.hi = Math.min(b.hi, e.right.value);
    out.set(e.left.name, b);
  };
  walk(typed);
  return out;
}

function queryBox([x0, y0, x1, y1]: Sides, bounds: Map<string, { lo: number; hi: number }>): Box | null {
  const range = (a: string, b: string): [number, number] | null => {
    const [ba, bb] = [bounds.get(a), bounds.get(b)];
    if (!ba && !bb) return null;
    return [Math.max(ba?.lo ?? -Infinity, bb?.lo ?? -Infinity), Math.min(ba?.hi ?? Infinity, bb?.hi ?? Infinity)];
  };
  const [x, y] = [range(x0, x1), range(y0, y1)];
  if (!x || !y) return null;
  return { minX: x[0], minY: y[0], maxX: x[1], maxY: y[1] };
}
