// Checks an insert's rows beyond what the engine checks: shape, unknown columns, geometry WKT.
import type { Schema } from 'apache-arrow';
import { badRequest } from '../errors.js';
import { fromWkt } from '../geometry/jsts.js';

/**
 * The rows of `{data: [...]}` as objects; 400 naming the row and column for a non-object row, an
 * unknown column or a geometry that is not WKT. Types and nullability are the engine's insert check.
 */
export function validateRows(data: unknown, schema: Schema, max: number): Record<string, unknown>[] {
  if (!Array.isArray(data)) throw badRequest('data: expected {"data": [ {<column>: <value>}, … ]}');
  if (data.length > max) throw badRequest(`data: at most ${max} rows per request, got ${data.length}`);
  const columns = new Set(schema.fields.map((f) => f.name));
  const geometry = schema.fields.filter((f) => f.metadata.get('class') === 'geometry' && String(f.type) === 'Utf8').map((f) => f.name);
  data.forEach((row, i) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) throw badRequest(`row ${i}: expected an object of column to value`, 'InvalidData');
    for (const k of Object.keys(row)) if (!columns.has(k)) throw badRequest(`row ${i}, column "${k}": no such column (columns: ${[...columns].join(', ')})`, 'InvalidData');
    for (const g of geometry) {
      const v = (row as Record<string, unknown>)[g];
      if (v === undefined || v === null) continue;
      let ok = typeof v === 'string';
      if (ok) {
        try {
          fromWkt(v as string);
        } catch {
          ok = false;
        }
      }
      if (!ok) throw badRequest(`row ${i}, column "${g}": expected a WKT geometry such as "POINT (10 60)", got ${JSON.stringify(v).slice(0, 60)}`, 'InvalidData');
    }
  });
  return data as Record<string, unknown>[];
}
