// `table_schema` JSON ↔ Arrow schema: {column: {type, nullable?, description?, unit?, index?, aggr?}}.
import { Field, Schema } from 'apache-arrow';
import { badRequest } from '../errors.js';
import { TYPE_NAMES, arrowType, v1TypeName } from './types.js';

const META_KEYS = ['description', 'unit', 'index', 'aggr'] as const;

/** The Arrow schema of a v1 schema body; 400 naming the column on any problem. */
export function toArrowSchema(body: unknown): Schema {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('expected {"table_schema": {"<column>": {"type": "<type>"}}}');
  const ts = (body as { table_schema?: unknown }).table_schema;
  if (typeof ts !== 'object' || ts === null || Array.isArray(ts) || Object.keys(ts).length === 0) throw badRequest('table_schema must be a non-empty object of column name to {"type": …}');
  const fields = Object.entries(ts).map(([name, spec]) => {
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) throw badRequest(`table_schema.${name}: expected {"type": "<type>"}`);
    const s = spec as Record<string, unknown>;
    if (typeof s.type !== 'string') throw badRequest(`table_schema.${name}.type: required, one of ${TYPE_NAMES.join(', ')}`);
    const type = arrowType(s.type);
    if (!type) throw badRequest(`table_schema.${name}.type: unknown type "${s.type}"; use one of ${TYPE_NAMES.join(', ')}`);
    if (s.nullable !== undefined && typeof s.nullable !== 'boolean') throw badRequest(`table_schema.${name}.nullable: expected true or false`);
    const meta = new Map<string, string>();
    if (s.type.toLowerCase() === 'geometry') meta.set('class', 'geometry');
    for (const k of META_KEYS) {
      const v = s[k];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string' && typeof v !== 'boolean') throw badRequest(`table_schema.${name}.${k}: expected a string`);
      meta.set(k, String(v));
    }
    return new Field(name, type, s.nullable !== false, meta);
  });
  return new Schema(fields);
}

/** The v1 JSON form of a table's schema. */
export function toV1Schema(schema: Schema): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const f of schema.fields) {
    const geometry = f.metadata.get('class') === 'geometry';
    const col: Record<string, unknown> = { type: v1TypeName(f.type, geometry), nullable: f.nullable };
    for (const k of META_KEYS) {
      const v = f.metadata.get(k);
      if (v !== undefined) col[k] = v;
    }
    out[f.name] = col;
  }
  return out;
}
