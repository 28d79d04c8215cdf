// The OQS (Object Query Structure) tree: readonly nodes in a union keyed on `kind`.
import type { Geom } from '../geometry/jsts.js';

/** A field path (`"$spec.details.value"` → ['spec', 'details', 'value']) or a literal JSON value. */
export type Operand =
  | { readonly kind: 'path'; readonly path: readonly string[]; readonly text: string }
  | { readonly kind: 'literal'; readonly value: unknown };

export type CompareOp = 'eq' | 'gt' | 'gte' | 'lt' | 'lte';
export type SpatialOp = 'intersects' | 'within' | 'contains' | 'equals';

/** A geometry operand: a field path, or a GeoJSON literal already read into a jsts geometry. */
export type GeometryOperand =
  | { readonly kind: 'path'; readonly path: readonly string[]; readonly text: string }
  | { readonly kind: 'geometry'; readonly geometry: Geom };

export type OqsNode =
  | { readonly kind: 'all' }
  | { readonly kind: 'and'; readonly items: readonly OqsNode[] }
  | { readonly kind: 'or'; readonly items: readonly OqsNode[] }
  | { readonly kind: 'not'; readonly item: OqsNode }
  | { readonly kind: 'compare'; readonly op: CompareOp; readonly left: Operand; readonly right: Operand }
  | { readonly kind: 'in'; readonly value: Operand; readonly list: Operand }
  | { readonly kind: 'null'; readonly value: Operand }
  | { readonly kind: 'nonNull'; readonly value: Operand }
  | { readonly kind: 'spatial'; readonly op: SpatialOp; readonly left: GeometryOperand; readonly right: GeometryOperand }
  /** Match by example: every given field equals (objects: recursively contains) the resource's. */
  | { readonly kind: 'match'; readonly example: Readonly<Record<string, unknown>> };

export type OqsKind = OqsNode['kind'];
