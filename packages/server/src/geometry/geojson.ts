// Strict GeoJSON geometry validation (RFC 7946 shapes) and reading into jsts geometries.
import { fromGeoJson, fromWkt, type Geom } from './jsts.js';

/**
 * Why `g` is not a valid GeoJSON geometry, or undefined when it is.
 * @example
 * geometryProblem({ type: 'Point', coordinates: [1] }) // 'coordinates: a position is [longitude, latitude]...'
 */
export function geometryProblem(g: unknown): string | undefined {
  if (!isObject(g)) return 'a GeoJSON geometry is an object with "type" and "coordinates"';
  const c = g.coordinates;
  switch (g.type) {
    case 'Point': return position(c);
    case 'MultiPoint': return list(c, 1, position);
    case 'LineString': return list(c, 2, position);
    case 'MultiLineString': return list(c, 1, (l) => list(l, 2, position));
    case 'Polygon': return polygon(c);
    case 'MultiPolygon': return list(c, 1, polygon);
    case 'GeometryCollection':
      return Array.isArray(g.geometries) ? g.geometries.map(geometryProblem).find(Boolean) : 'a GeometryCollection needs "geometries"';
    default: return `unknown GeoJSON geometry type ${JSON.stringify(g.type)}`;
  }
}

/** Why `f` is not a GeoJSON Feature (with a valid or null geometry), or undefined. */
export function featureProblem(f: unknown): string | undefined {
  if (!isObject(f) || f.type !== 'Feature') return 'a GeoJSON Feature is an object with "type": "Feature"';
  if (f.properties !== undefined && f.properties !== null && !isObject(f.properties)) return 'Feature "properties" must be an object or null';
  if (f.geometry === null) return undefined;
  return geometryProblem(f.geometry);
}

/** A jsts geometry from a GeoJSON geometry or Feature, or a WKT string; undefined when `v` is none. */
export function toGeometry(v: unknown): Geom | undefined {
  if (typeof v === 'string') {
    try {
      return fromWkt(v);
    } catch {
      return undefined;
    }
  }
  if (!isObject(v)) return undefined;
  if (v.type === 'Feature') return toGeometry(v.geometry);
  return geometryProblem(v) === undefined ? fromGeoJson(v) : undefined;
}

/** Whether `v` looks like a GeoJSON geometry object (type + coordinates or geometries). */
export function isGeometryLike(v: unknown): v is Record<string, unknown> {
  return isObject(v) && typeof v.type === 'string' && (Array.isArray(v.coordinates) || Array.isArray(v.geometries));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function position(p: unknown): string | undefined {
  if (!Array.isArray(p) || p.length < 2 || p.length > 3 || !p.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    return `a position is [longitude, latitude] of finite numbers, got ${JSON.stringify(p)?.slice(0, 60)}`;
  }
  const [x, y] = p as number[];
  if (x! < -180 || x! > 180 || y! < -90 || y! > 90) return `position ${JSON.stringify(p)} is outside longitude [-180, 180] / latitude [-90, 90]`;
  return undefined;
}

function list(v: unknown, min: number, item: (x: unknown) => string | undefined): string | undefined {
  if (!Array.isArray(v) || v.length < min) return `expected an array of at least ${min} element(s), got ${JSON.stringify(v)?.slice(0, 60)}`;
  for (const x of v) {
    const p = item(x);
    if (p) return p;
  }
  return undefined;
}

function polygon(rings: unknown): string | undefined {
  return list(rings, 1, (ring) => {
    const p = list(ring, 4, position);
    if (p) return p;
    const r = ring as number[][];
    const a = r[0]!;
    const b = r[r.length - 1]!;
    return a[0] === b[0] && a[1] === b[1] ? undefined : 'a polygon ring must be closed (first position equals last)';
  });
}
