// Schema bytes for storage and transport: an Arrow IPC file holding no record batches.
import { type Schema, Table, tableFromIPC, tableToIPC } from 'apache-arrow';
import { HaloclineError } from '../errors.js';

/**
 * Encodes a schema (fields, types, nullability, field and schema metadata) as an Arrow IPC file
 * with no batches; the file format starts with the magic `ARROW1`, checked by `decodeSchema`.
 */
export function encodeSchema(schema: Schema): Uint8Array {
  return tableToIPC(new Table(schema), 'file');
}

/** Decodes `encodeSchema` bytes; throws InvalidSchema when they are not an Arrow IPC schema. */
export function decodeSchema(bytes: Uint8Array): Schema {
  if (!hasMagic(bytes)) {
    throw new HaloclineError('InvalidSchema', `not an encoded schema: expected Arrow IPC file bytes starting with "ARROW1"`);
  }
  let schema: Schema;
  try {
    schema = tableFromIPC(bytes).schema;
  } catch (e) {
    throw new HaloclineError('InvalidSchema', `not an encoded schema: ${(e as Error).message}`, {}, { cause: e });
  }
  if (schema.fields.length === 0) throw new HaloclineError('InvalidSchema', 'not an encoded schema: it has no fields');
  return schema;
}

const MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // "ARROW1"

function hasMagic(bytes: Uint8Array): boolean {
  if (!(bytes instanceof Uint8Array) || bytes.length < 2 * MAGIC.length) return false;
  return MAGIC.every((b, i) => bytes[i] === b && bytes[bytes.length - MAGIC.length + i] === b);
}
