// The bounding boxes a filter's matches must intersect, for an R-tree to narrow the candidates.
import { bboxOf, type BBox } from '../geometry/jsts.js';
import type { OqsNode } from './ast.js';

/** Every match has a geometry at `path` whose box intersects `bbox`. */
export interface SpatialConstraint {
  readonly path: string;
  readonly bbox: BBox;
}

/**
 * Constraints implied by the filter: a spatial operator at the top, or inside a top-level `#AND`
 * (intersects, within, contains and equals all imply intersecting boxes).
 */
export function spatialConstraints(n: OqsNode): SpatialConstraint[] {
  if (n.kind === 'and') return n.items.flatMap(spatialConstraints);
  if (n.kind !== 'spatial') return [];
  const path = n.left.kind === 'path' ? n.left : n.right.kind === 'path' ? n.right : undefined;
  const lit = n.left.kind === 'geometry' ? n.left : n.right.kind === 'geometry' ? n.right : undefined;
  if (!path || !lit || lit.geometry.isEmpty()) return [];
  return [{ path: path.path.join('.'), bbox: bboxOf(lit.geometry) }];
}
