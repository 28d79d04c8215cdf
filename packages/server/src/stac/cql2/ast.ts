// CQL2 expressions (OGC 21-065): one readonly AST for the text and JSON encodings.
import type { GeoJsonGeometry } from '../geometry.js';
import type { SpatialRelation } from '../predicates.js';

/** Comparison operators of basic CQL2. */
export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>=';

/** Temporal functions (T_AFTER …), in lower case. */
export const TEMPORAL_OPS = [
  't_after', 't_before', 't_contains', 't_disjoint', 't_during', 't_equals', 't_finishedby', 't_finishes',
  't_intersects', 't_meets', 't_metby', 't_overlappedby', 't_overlaps', 't_startedby', 't_starts',
] as const;
export type TemporalOp = (typeof TEMPORAL_OPS)[number];

/** Spatial functions (S_INTERSECTS …), in lower case. */
export const SPATIAL_OPS = ['s_intersects', 's_equals', 's_disjoint', 's_touches', 's_within', 's_overlaps', 's_crosses', 's_contains'] as const;
export type SpatialOp = (typeof SPATIAL_OPS)[number];

/** A value: property reference or literal. Timestamps and dates keep their text (validated at parse). */
export type Operand =
  | { readonly kind: 'property'; readonly name: string }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'timestamp'; readonly value: string }
  | { readonly kind: 'date'; readonly value: string }
  | { readonly kind: 'interval'; readonly start: string; readonly end: string }
  | { readonly kind: 'geometry'; readonly value: GeoJsonGeometry }
  | { readonly kind: 'bbox'; readonly value: readonly number[] };

/** A boolean expression. */
export type Expr =
  | { readonly kind: 'and' | 'or'; readonly args: readonly Expr[] }
  | { readonly kind: 'not'; readonly arg: Expr }
  | { readonly kind: 'literal'; readonly value: boolean }
  | { readonly kind: 'compare'; readonly op: CompareOp; readonly left: Operand; readonly right: Operand }
  | { readonly kind: 'like'; readonly arg: Operand; readonly pattern: string }
  | { readonly kind: 'between'; readonly arg: Operand; readonly low: Operand; readonly high: Operand }
  | { readonly kind: 'in'; readonly arg: Operand; readonly list: readonly Operand[] }
  | { readonly kind: 'isNull'; readonly arg: Operand }
  | { readonly kind: 'spatial'; readonly op: SpatialOp; readonly left: Operand; readonly right: Operand }
  | { readonly kind: 'temporal'; readonly op: TemporalOp; readonly left: Operand; readonly right: Operand };

/** The jsts relation behind a spatial function. */
export function relationOf(op: SpatialOp): SpatialRelation {
  return op.slice(2) as SpatialRelation;
}
