// WKT and WKB parsing through wkx, strict: the whole input must be one geometry (wkx alone ignores
// trailing text and bytes, so its parser and reader are driven here and their position checked).
import { createRequire } from 'node:module';
import wkx from 'wkx';

interface Cursor {
  position: number;
}
type Parser = new (value: string | Buffer) => Cursor;

const require = createRequire(import.meta.url);
const WktParser = require('wkx/lib/wktparser.js') as Parser;
const BinaryReader = require('wkx/lib/binaryreader.js') as Parser;
const parseWith = wkx.Geometry.parse as unknown as (source: Cursor) => wkx.Geometry;

/**
 * Parses WKT (any case, any whitespace, optional `SRID=n;`) or WKB; throws an Error saying what is
 * wrong when the input is not exactly one geometry.
 * @example
 * parseGeometry('point (1 2)').toWkt() // 'POINT(1 2)'
 */
export function parseGeometry(value: string | Uint8Array): wkx.Geometry {
  if (typeof value === 'string') {
    const text = value.replace(/\s+/g, ' ').trim().toUpperCase();
    const parser = new WktParser(text);
    const geometry = parseWith(parser);
    const rest = text.slice(parser.position).trim();
    if (rest !== '') throw new Error(`unexpected text after the geometry: "${rest.slice(0, 20)}"`);
    return geometry;
  }
  const reader = new BinaryReader(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  const geometry = parseWith(reader);
  if (reader.position !== value.byteLength) throw new Error(`${value.byteLength - reader.position} bytes after the geometry`);
  return geometry;
}

/** WKB bytes of a GeoJSON geometry object. */
export function geoJsonToWkb(geometry: object): Uint8Array {
  const buf = wkx.Geometry.parseGeoJSON(geometry).toWkb();
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}
