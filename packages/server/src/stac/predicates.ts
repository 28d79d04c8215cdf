// Exact spatial predicates between jsts geometries (DE-9IM via RelateOp); GeometryCollections handled part by part.
import type Geometry from 'jsts/org/locationtech/jts/geom/Geometry.js';
import GeometryCollection from 'jsts/org/locationtech/jts/geom/GeometryCollection.js';
import RelateOp from 'jsts/org/locationtech/jts/operation/relate/RelateOp.js';
import { StacError } from './errors.js';

/** The spatial relations of CQL2 (`S_INTERSECTS` …). */
export type SpatialRelation = 'intersects' | 'equals' | 'disjoint' | 'touches' | 'within' | 'overlaps' | 'crosses' | 'contains';

/** A query geometry set up once for many `intersects` tests against item geometries. */
export interface PreparedQuery {
  intersects(item: Geometry): boolean;
}

/**
 * Splits `query` into parts with their envelopes, so each item test skips parts whose envelope misses.
 * (jsts 2.12's PreparedGeometryFactory cannot be used: its prepared classes call `super()` without the
 * geometry and throw on construction.)
 */
export function prepare(query: Geometry): PreparedQuery {
  const parts = flatten(query).map((g) => ({ g, env: g.getEnvelopeInternal() }));
  return {
    intersects: (item) => flatten(item).some((i) => {
      const env = i.getEnvelopeInternal();
      return parts.some((p) => p.env.intersects(env) && (tryRelate(p.g, i)?.isIntersects() ?? false));
    }),
  };
}

/**
 * Refuses a literal GeometryCollection for a relation other than intersects and disjoint, which are the
 * only ones defined on it here (a 400 naming the function).
 */
export function checkOperand(relation: SpatialRelation, literal: Geometry): void {
  if (relation !== 'intersects' && relation !== 'disjoint' && isMixedCollection(literal)) {
    throw new StacError('InvalidParameter', `filter: S_${relation.toUpperCase()} does not take a GeometryCollection (only S_INTERSECTS and S_DISJOINT do)`);
  }
}

/**
 * Whether `a` stands in `relation` to `b`; false for any relation but intersects and disjoint when either
 * is a GeometryCollection (MultiPoint, MultiLineString and MultiPolygon take every relation).
 * @example
 * relate('within', point, polygon)
 */
export function relate(relation: SpatialRelation, a: Geometry, b: Geometry): boolean {
  if (relation === 'intersects') return flatten(a).some((x) => flatten(b).some((y) => tryRelate(x, y)?.isIntersects() ?? false));
  if (relation === 'disjoint') return !relate('intersects', a, b);
  // an item's footprint that is a GeometryCollection matches no other relation (a literal one is refused up front: checkOperand)
  if (isMixedCollection(a) || isMixedCollection(b)) return false;
  const m = tryRelate(a, b);
  if (!m) return false;
  const [da, db] = [dimension(a), dimension(b)];
  switch (relation) {
    case 'equals': return m.isEquals(da, db);
    case 'touches': return m.isTouches(da, db);
    case 'within': return m.isWithin();
    case 'contains': return m.isContains();
    case 'overlaps': return m.isOverlaps(da, db);
    case 'crosses': return m.isCrosses(da, db);
  }
}

// a GeometryCollection proper, which RelateOp does not take; MultiPoint, MultiLineString and MultiPolygon, its
// subclasses in jsts, it does
function isMixedCollection(g: Geometry): boolean {
  return (g as unknown as { getGeometryType(): string }).getGeometryType() === 'GeometryCollection';
}

function flatten(g: Geometry): Geometry[] {
  if (!(g instanceof GeometryCollection)) return [g];
  const out: Geometry[] = [];
  for (let i = 0; i < g.getNumGeometries(); i++) out.push(...flatten(g.getGeometryN(i)));
  return out;
}

function tryRelate(a: Geometry, b: Geometry): ReturnType<typeof RelateOp.relate> | undefined {
  return attempt(() => RelateOp.relate(a, b));
}

// jsts throws (TopologyException) on geometries it cannot node; such a pair does not match
function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

function dimension(g: Geometry): number {
  return (g as unknown as { getDimension(): number }).getDimension();
}
