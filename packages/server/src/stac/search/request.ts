// A search request, parsed and validated from GET query parameters or a POST body.
import type Geometry from 'jsts/org/locationtech/jts/geom/Geometry.js';
import type { Expr } from '../cql2/ast.js';
import type { GeoJsonGeometry } from '../geometry.js';
import type { BboxFilter } from './bbox.js';
import type { TimeRange } from './datetime.js';
import type { FieldsSpec } from './fields.js';
import type { SortKey } from './sort.js';
import type { PageToken } from './token.js';

/** Everything a search (or a collection's items) can ask for. */
export interface SearchRequest {
  readonly collections?: readonly string[];
  readonly ids?: readonly string[];
  readonly bbox?: BboxFilter;
  readonly intersects?: { readonly geojson: GeoJsonGeometry; readonly geometry: Geometry };
  readonly datetime?: { readonly text: string; readonly range: TimeRange };
  readonly filter?: Expr;
  readonly sortby: readonly SortKey[];
  readonly fields?: FieldsSpec;
  readonly limit: number;
  readonly offset: number;
  readonly token?: PageToken;
}

/** Limits of `limit`: the default page size and the largest page served (larger values are clamped). */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 10_000;
