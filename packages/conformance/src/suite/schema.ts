// Schema and metadata, create twice, alter (rename, type change, added column, failure), drop, truncate, stats.
import type { TableApi } from '@halocline/engine';
import { Field, Float64, Int32, Schema, Utf8 } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { filled, fixtureRows, fixtureSchema, ids, rejects } from './fixture.js';

export function schemaSuite(open: () => Promise<TableApi>): void {
  describe('schema, create, alter, drop', () => {
    it('a new table has no schema; create sets it with types, nullability and metadata', async () => {
      const t = await open();
      expect(await t.schema()).toBeUndefined();
      await t.create(fixtureSchema);
      const s = (await t.schema())!;
      expect(s.fields.map((f) => [f.name, String(f.type), f.nullable])).toEqual(fixtureSchema.fields.map((f) => [f.name, String(f.type), f.nullable]));
      expect(s.fields[0]!.metadata.get('description')).toBe('cast id');
      expect(s.fields[2]!.metadata.get('unit')).toBe('m');
    });

    it('create twice fails with FileAlreadyExists and keeps the first schema', async () => {
      const t = await filled(open);
      await rejects('FileAlreadyExists', () => t.create(new Schema([new Field('x', new Int32(), true)])));
      expect((await t.schema())!.fields.length).toBe(fixtureSchema.fields.length);
      expect(await ids(t)).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it('rejects an invalid schema (duplicate column)', async () => {
      const t = await open();
      await rejects('InvalidSchema', () => t.create(new Schema([new Field('a', new Int32(), true), new Field('a', new Utf8(), true)])));
      expect(await t.schema()).toBeUndefined();
    });

    it('alter renames through prev_name, changes types (values converted) and adds nullable columns', async () => {
      const t = await open();
      await t.create(new Schema([new Field('id', new Int32(), false), new Field('v', new Int32(), true)]));
      await t.insert([{ id: 1, v: 10 }, { id: 2, v: null }]);
      await t.alter(new Schema([
        new Field('id', new Int32(), false),
        new Field('value', new Float64(), true, new Map([['prev_name', 'v']])),
        new Field('note', new Utf8(), true),
      ]));
      const s = (await t.schema())!;
      expect(s.fields.map((f) => f.name)).toEqual(['id', 'value', 'note']);
      expect(String(s.fields[1]!.type)).toBe('Float64');
      expect(await t.select().all()).toEqual([{ id: 1, value: 10, note: null }, { id: 2, value: null, note: null }]);
    });

    it('an alter whose values do not convert changes nothing', async () => {
      const t = await open();
      await t.create(new Schema([new Field('s', new Utf8(), true)]));
      await t.insert([{ s: '1' }, { s: 'x' }]);
      await expect(t.alter(new Schema([new Field('s', new Int32(), true)]))).rejects.toThrow();
      expect(String((await t.schema())!.fields[0]!.type)).toBe('Utf8');
      expect(await t.select().all()).toEqual([{ s: '1' }, { s: 'x' }]);
    });

    it('drop removes schema and rows; a missing table answers NotFound', async () => {
      const t = await filled(open);
      await t.drop();
      expect(await t.schema()).toBeUndefined();
      await rejects('NotFound', () => t.drop());
      await rejects('NotFound', () => t.select().all());
      await rejects('NotFound', () => t.insert(fixtureRows));
    });

    it('truncate removes rows and keeps the schema; stats count rows and ranges', async () => {
      const t = await filled(open);
      const st = await t.stats();
      expect(st.num_rows).toBe(6);
      const depth = st.columns.find((c) => c.name === 'depth')!;
      expect([Number(depth.min), Number(depth.max)]).toEqual([10, 3000]);
      expect(st.columns.find((c) => c.name === 'temp')!.null_count).toBe(1);
      await t.truncate();
      expect(await t.select().count()).toBe(0);
      expect((await t.stats()).num_rows).toBe(0);
      expect((await t.schema())!.fields.length).toBe(fixtureSchema.fields.length);
    });

    it('invalid rows fail with InvalidData and store nothing', async () => {
      const t = await filled(open);
      await rejects('InvalidData', () => t.insert([{ ...fixtureRows[0], id: 7 }, { ...fixtureRows[0], id: 'eight' }]));
      await rejects('InvalidData', () => t.insert([{ ...fixtureRows[0], id: 9, geom: 'POLYGON((0 0, 1 1' }]));
      expect(await t.select().count()).toBe(6);
    });
  });
}
