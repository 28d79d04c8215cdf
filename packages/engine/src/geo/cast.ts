// Alter's cast of a geometry column between its encodings: WKT text (utf8, largeutf8) ↔ WKB bytes (binary, largebinary).
import { type Data, type DataType, Field, Type } from 'apache-arrow';
import { decodeDictionary } from '../data/cast/dictionary.js';
import { RowError } from '../data/fail.js';
import { readColumn } from '../data/read/column.js';
import { writeValues } from '../data/write/column.js';
import { fieldInfo } from '../schema/metadata.js';
import { isEmptyPoint, parseGeometry } from './parse.js';
import { geometryMessage } from './validate.js';

/**
 * The geometries of `data` re-encoded for `to` when `to` is a `class: geometry` column and the
 * encodings differ (WKT parsed and written as ISO WKB, WKB parsed and written as WKT); null for any
 * other pair (same encoding, or not a geometry column: the other casts handle those). Nulls stay
 * null; an `SRID=n;` prefix is dropped (coordinates are longitude/latitude). Throws RowError at the
 * first value that is not one geometry.
 * @example
 * castGeometry(wktChunk, new Field('geom', new Binary(), true, new Map([['class', 'geometry']]))) // WKB chunk
 */
export function castGeometry(data: Data, to: Field): Data | null {
  if (fieldInfo(to).class !== 'geometry') return null;
  if (data.typeId === Type.Dictionary) {
    const plain = decodeDictionary(data);
    return plain && castGeometry(plain, to);
  }
  const from = encodingOf(data.type);
  const into = encodingOf(to.type);
  if (from === null || into === null || from === into) return null;
  const values = readColumn(data).map((v, i) => (v === null ? null : recode(v as string | Uint8Array, i, into)));
  return writeValues(new Field(to.name, to.type, true), values);
}

type Encoding = 'wkt' | 'wkb';

function encodingOf(type: DataType): Encoding | null {
  if (type.typeId === Type.Utf8 || type.typeId === Type.LargeUtf8) return 'wkt';
  if (type.typeId === Type.Binary || type.typeId === Type.LargeBinary) return 'wkb';
  return null;
}

function recode(value: string | Uint8Array, row: number, into: Encoding): string | Uint8Array {
  let geometry;
  try {
    geometry = parseGeometry(value);
  } catch (e) {
    throw new RowError(row, geometryMessage(value, e), value);
  }
  // wkx writes an empty WKB point (NaN coordinates) as POINT(NaN NaN)
  if (into === 'wkt') return isEmptyPoint(geometry) ? 'POINT EMPTY' : geometry.toWkt();
  const wkb = geometry.toWkb();
  return new Uint8Array(wkb.buffer, wkb.byteOffset, wkb.byteLength);
}
