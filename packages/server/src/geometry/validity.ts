// Geometry validity (OGC simple features: no self-intersecting rings …), said with the place it fails.
import type Geometry from 'jsts/org/locationtech/jts/geom/Geometry.js';
import IsValidOp from 'jsts/org/locationtech/jts/operation/valid/IsValidOp.js';
import type { Geom } from './jsts.js';

/**
 * Why a geometry is not valid (a self-intersecting ring …), or undefined. Geometries are checked where
 * they come in (query literals, catalog coverages) so a bad one is a 400; one jsts cannot compare that is
 * already stored simply does not match.
 * @example
 * validityProblem(bowtie) // 'is not a valid geometry: Self-intersection at (22, 22)'
 */
export function validityProblem(g: Geometry | Geom): string | undefined {
  const op = new IsValidOp(g);
  if (op.isValid()) return undefined;
  const error = op.getValidationError();
  const at = error.getCoordinate() as { x: number; y: number } | null;
  return `is not a valid geometry: ${error.getMessage()}${at ? ` at (${at.x}, ${at.y})` : ''}`;
}
