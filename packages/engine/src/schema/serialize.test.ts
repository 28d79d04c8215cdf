import * as arrow from 'apache-arrow';
import { Field, Schema } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { isHaloclineError } from '../errors.js';
import { decodeSchema, encodeSchema } from './serialize.js';
import { normalizeSchema } from './validate.js';

const schema = new Schema(
  [
    new Field('id', new arrow.Int64(), false, new Map([['index', 'true']])),
    new Field('time', new arrow.TimestampNanosecond('UTC'), false),
    new Field('day', new arrow.DateDay(), true),
    new Field('day64', new arrow.DateMillisecond(), true),
    new Field('geom', new arrow.LargeBinary(), true, new Map([['class', 'geometry'], ['description', 'WKB ✓']])),
    new Field('name', new arrow.LargeUtf8(), true),
    new Field('u', new arrow.Uint64(), true, new Map([['aggr', 'sum'], ['unit', 'm']])),
    new Field('f', new arrow.Float32(), false),
    new Field('ok', new arrow.Bool(), true),
  ],
  new Map([['source', 'argo']]),
);

describe('encodeSchema / decodeSchema', () => {
  it('round-trips types, nullability and field and schema metadata', () => {
    const back = decodeSchema(encodeSchema(schema));
    expect(back.fields.map((f) => [f.name, String(f.type), f.nullable, Object.fromEntries(f.metadata)])).toEqual(
      schema.fields.map((f) => [f.name, String(f.type), f.nullable, Object.fromEntries(f.metadata)]),
    );
    expect(Object.fromEntries(back.metadata)).toEqual({ source: 'argo' });
    expect(normalizeSchema(back).fields.map((f) => f.type.toString())).toEqual(schema.fields.map((f) => f.type.toString()));
  });
  it('starts and ends with the Arrow file magic', () => {
    const bytes = encodeSchema(schema);
    const text = Buffer.from(bytes).toString('latin1');
    expect(text.startsWith('ARROW1')).toBe(true);
    expect(text.endsWith('ARROW1')).toBe(true);
  });
  it('rejects bytes that are not an encoded schema', () => {
    for (const bytes of [new Uint8Array(0), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]), encodeSchema(schema).slice(0, 40)]) {
      let error: unknown;
      try {
        decodeSchema(bytes);
      } catch (e) {
        error = e;
      }
      expect(isHaloclineError(error, 'InvalidSchema')).toBe(true);
      expect((error as Error).message).toMatch(/^not an encoded schema/);
    }
  });
});
