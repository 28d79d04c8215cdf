// Checks CQL2 literals shared by both encodings: timestamps, dates, intervals, geometries, bboxes.
import GeometryFactory from 'jsts/org/locationtech/jts/geom/GeometryFactory.js';
import GeoJSONWriter from 'jsts/org/locationtech/jts/io/GeoJSONWriter.js';
import WKTReader from 'jsts/org/locationtech/jts/io/WKTReader.js';
import { checkGeometry, type GeoJsonGeometry } from '../geometry.js';
import { parseRfc3339 } from '../time.js';

const wkt = new WKTReader(new GeometryFactory());
const geojson = new GeoJSONWriter();

/** Why `text` is not a TIMESTAMP literal, or undefined. */
export function timestampProblem(text: string): string | undefined {
  const t = parseRfc3339(text);
  return typeof t === 'string' ? t : undefined;
}

/** Why `text` is not a DATE literal (YYYY-MM-DD), or undefined. */
export function dateProblem(text: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return `'${text}' is not a date (YYYY-MM-DD)`;
  return timestampProblem(`${text}T00:00:00Z`);
}

/** Why `text` is not an interval bound (timestamp, date or `..`), or undefined. */
export function boundProblem(text: string): string | undefined {
  if (text === '..') return undefined;
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? dateProblem(text) : timestampProblem(text);
}

/** The GeoJSON geometry of a WKT literal, or why it is not one. */
export function geometryFromWkt(text: string): GeoJsonGeometry | string {
  let g: unknown;
  try {
    g = geojson.write(wkt.read(text));
  } catch (e) {
    return `invalid WKT ${JSON.stringify(text.slice(0, 60))}: ${e instanceof Error ? e.message : String(e)}`;
  }
  return geometryProblem(g) ?? (g as GeoJsonGeometry);
}

/** Why `g` is not a GeoJSON geometry literal in degrees, or undefined. */
export function geometryProblem(g: unknown): string | undefined {
  const problem = checkGeometry(g, true);
  return problem === undefined ? undefined : `geometry ${problem}`;
}

/** Why `b` is not a BBOX literal (4 or 6 finite numbers), or undefined. */
export function bboxProblem(b: readonly unknown[]): string | undefined {
  if ((b.length !== 4 && b.length !== 6) || !b.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    return `BBOX takes 4 or 6 numbers, got ${JSON.stringify(b)}`;
  }
  return undefined;
}
