// Schema validation for create/alter: supported types, unique non-empty names, normalised metadata.
import { Field, Schema } from 'apache-arrow';
import { HaloclineError } from '../errors.js';
import { normalizeMetadata } from './metadata.js';
import { type ColumnKind, columnKind, typeName } from './types.js';

/**
 * Validates a table schema and returns a new Schema with normalised field metadata (the input is
 * never mutated). Throws InvalidSchema naming the column and what to fix.
 * @example
 * normalizeSchema(new Schema([new Field('depth', new Float64(), false)]), { table: 'ctd' })
 */
export function normalizeSchema(schema: Schema, ctx: { table?: string } = {}): Schema {
  if (!isSchema(schema)) {
    throw new HaloclineError('InvalidSchema', `expected an Arrow Schema, got ${describe(schema)}`, { ...ctx, value: schema });
  }
  const fields = schema.fields as readonly unknown[];
  if (!Array.isArray(fields) || fields.length === 0) {
    throw new HaloclineError('InvalidSchema', 'a schema needs at least one field', { ...ctx });
  }
  const seen = new Set<string>();
  const out = fields.map((f, i) => {
    if (!Field.isField(f)) {
      throw new HaloclineError('InvalidSchema', `field ${i} is not an Arrow Field, got ${describe(f)}`, { ...ctx, value: f });
    }
    const field = f as Field;
    const name: unknown = field.name;
    if (typeof name !== 'string' || name === '') {
      throw new HaloclineError('InvalidSchema', `field ${i} has an empty name; every column needs a name`, { ...ctx, value: name });
    }
    // NUL is the engine's own: a geometry column's derived box columns are named `<column>\0xmin` …
    if (name.includes('\0')) {
      throw new HaloclineError('InvalidSchema', `column ${JSON.stringify(name)}: a name cannot hold the NUL character (\\u0000)`, { ...ctx, column: name });
    }
    if (seen.has(name)) {
      throw new HaloclineError('InvalidSchema', `duplicate column name "${name}"`, { ...ctx, column: name });
    }
    seen.add(name);
    if (columnKind(field.type) === null) {
      const type = typeName(field.type);
      throw new HaloclineError('InvalidSchema', `column "${name}": type ${type} is not supported; use one of ${SUPPORTED_TYPES}`, {
        ...ctx,
        column: name,
        value: type,
      });
    }
    const metadata = normalizeMetadata(field, ctx);
    const aggr = metadata.get('aggr');
    if (aggr !== undefined && aggr !== 'count' && !NUMERIC.has(columnKind(field.type)!)) {
      // aggregate() without aggr uses this default, and would fail on every call
      const message = `column "${name}": aggr ${aggr} needs a numeric column, got ${typeName(field.type)}; count works on any column`;
      throw new HaloclineError('InvalidSchema', message, { ...ctx, column: name, value: aggr });
    }
    return new Field(name, field.type, field.nullable === true, metadata);
  });
  return new Schema(out, new Map(schema.metadata ?? []));
}

/** True when `x` is an Arrow Schema (from this or another copy of apache-arrow). */
export function isSchema(x: unknown): x is Schema {
  return Schema.isSchema(x);
}

// the kinds sum, avg, min and max aggregate
const NUMERIC: ReadonlySet<ColumnKind> = new Set(['int', 'bigint', 'float']);

// The types a column may have, as listed in InvalidSchema messages.
const SUPPORTED_TYPES =
  'int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64, bool, utf8, largeutf8, ' +
  'binary, largebinary, date32, date64, timestamp (any unit, with or without timezone)';

function describe(x: unknown): string {
  if (x === null) return 'null';
  if (typeof x !== 'object') return typeof x;
  return (x as object).constructor?.name ?? 'object';
}
