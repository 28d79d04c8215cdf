// File columns to table columns: the schema of a table created from a file, and the match of a
// file's columns to an existing table (by `ingest_name` first, then by name).
import { type DataType, Field, Schema, Type, Utf8 } from 'apache-arrow';
import { HaloclineError } from '../errors.js';
import { fieldInfo } from '../schema/metadata.js';
import { columnKind, typeName } from '../schema/types.js';
import { normalizeSchema } from '../schema/validate.js';

/** Where a file's columns go: table column name by file column name, and the type to parse into. */
export interface ColumnMatch {
  readonly rename: ReadonlyMap<string, string>;
  readonly types: ReadonlyMap<string, DataType>;
}

/**
 * The schema of a table created from a file: the file's types where the engine supports them
 * (dictionaries decoded, an all-null column as utf8), each column's name recorded as `ingest_name`.
 * Throws InvalidData for a type tables cannot hold.
 */
export function createdSchema(file: Schema, where: { table: string; file: string }): Schema {
  const fields = file.fields.map((f) => {
    const type = storableType(f.type);
    if (type === null || columnKind(type) === null) {
      throw new HaloclineError('InvalidData', `file "${where.file}", column "${f.name}": type ${typeName(f.type)} cannot be stored in a table`, {
        table: where.table,
        column: f.name,
        value: typeName(f.type),
      });
    }
    const metadata = new Map(f.metadata);
    metadata.set('ingest_name', f.name);
    return new Field(f.name, type, f.nullable || f.type.typeId === Type.Null, metadata);
  });
  return normalizeSchema(new Schema(fields), { table: where.table });
}

/**
 * Matches file columns to `schema`. Throws InvalidData for a file column no table column takes, a
 * file column matched twice, or a non-nullable table column the file lacks.
 */
export function matchColumns(names: readonly string[], schema: Schema, where: { table: string; file: string }): ColumnMatch {
  const rename = new Map<string, string>();
  const types = new Map<string, DataType>();
  const taken = new Set<string>();
  const fail = (column: string, message: string) =>
    new HaloclineError('InvalidData', `file "${where.file}", column "${column}": ${message}`, { table: where.table, column });
  for (const name of names) {
    if (rename.has(name)) throw fail(name, 'the file has two columns with this name');
    const field =
      schema.fields.find((f) => fieldInfo(f).ingestName === name && !taken.has(f.name)) ??
      schema.fields.find((f) => f.name === name && fieldInfo(f).ingestName === undefined && !taken.has(f.name)) ??
      schema.fields.find((f) => f.name === name && !taken.has(f.name));
    if (!field) {
      const list = schema.fields.map((f) => f.name).join(', ');
      throw fail(name, `table "${where.table}" has no column with this ingest_name or name (its columns are ${list})`);
    }
    taken.add(field.name);
    rename.set(name, field.name);
    types.set(name, field.type);
  }
  for (const f of schema.fields) {
    if (!f.nullable && !taken.has(f.name)) throw fail(f.name, 'the file lacks this non-nullable column');
  }
  return { rename, types };
}

// The type a created column gets: dictionaries as their values, an all-null column as text.
function storableType(type: DataType): DataType | null {
  if (type.typeId === Type.Dictionary) return storableType((type as unknown as { dictionary: DataType }).dictionary);
  if (type.typeId === Type.Null) return new Utf8();
  return type;
}
