import { Field, Float64, Int64, Schema, Table, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTable } from '../generate.js';
import { appendBatches } from './duckdb-append.js';
import { openDuckDB, type DuckDBBaseline } from './duckdb.js';

describe('DuckDB baseline', () => {
  let db: DuckDBBaseline;
  beforeAll(async () => {
    db = await openDuckDB(2);
  });
  afterAll(() => db.close());

  it('round-trips generated batches through the appender and back to Arrow', async () => {
    const source = generateTable({ rows: 5000, seed: 7, batchRows: 3000 });
    await db.createObsTable('obs');
    expect(await db.append('obs', source.batches)).toBe(5000);
    const back = await db.selectArrow('SELECT * FROM obs ORDER BY id');
    expect(back.numRows).toBe(5000);
    for (const name of ['id', 'lat', 'lon', 'depth', 'temp', 'salinity', 'platform']) {
      expect([...back.getChild(name)!], name).toEqual([...source.getChild(name)!]);
    }
    // TIMESTAMP comes back in DuckDB's microseconds
    const ms = source.getChild('time')!.toArray() as BigInt64Array;
    const us = back.getChild('time')!.toArray() as BigInt64Array;
    expect(Array.from(us)).toEqual(Array.from(ms, (t) => t * 1000n));
    expect(await db.count('SELECT count(*) FROM obs WHERE depth > 5500')).toBe(
      source.toArray().filter((r) => (r.depth as number) > 5500).length,
    );
  });

  it('appends row objects value by value', async () => {
    const source = generateTable({ rows: 100, seed: 3 });
    await db.createObsTable('rows');
    const rows = source.toArray().map((r) => ({ ...r.toJSON(), time: new Date(r.time as number) }));
    expect(await db.appendRows('rows', rows)).toBe(100);
    const back = await db.selectArrow('SELECT * FROM rows ORDER BY id');
    expect([...back.getChild('platform')!]).toEqual([...source.getChild('platform')!]);
    expect([...back.getChild('depth')!]).toEqual([...source.getChild('depth')!]);
  });

  it('keeps long strings and nulls across chunk boundaries', async () => {
    const n = 4500;
    const strings = Array.from({ length: n }, (_, i) =>
      i % 7 === 0 ? null : i % 3 === 0 ? `a string longer than twelve bytes #${i}` : `s${i}`,
    );
    const values = Array.from({ length: n }, (_, i) => (i % 5 === 0 ? null : i / 2));
    const schema = new Schema([new Field('id', new Int64()), new Field('s', new Utf8()), new Field('v', new Float64())]);
    const table = new Table(schema, {
      id: vectorFromArray(Array.from({ length: n }, (_, i) => BigInt(i)), new Int64()),
      s: vectorFromArray(strings, new Utf8()),
      v: vectorFromArray(values, new Float64()),
    });
    await db.connection.run('CREATE TABLE mixed(id BIGINT, s VARCHAR, v DOUBLE)');
    const appender = await db.connection.createAppender('mixed');
    appendBatches(appender, schema, table.batches);
    appender.closeSync();
    const back = await db.selectArrow('SELECT s, v FROM mixed ORDER BY id');
    expect([...back.getChild('s')!]).toEqual(strings);
    expect([...back.getChild('v')!]).toEqual(values);
    expect(back.getChild('s')!.nullCount).toBe(strings.filter((s) => s === null).length);
  });
  it('appends on a second connection while the first one queries, each append a commit the next query sees', async () => {
    await db.createObsTable('busy');
    const writer = await db.writer('busy');
    try {
      const batch = generateTable({ rows: 3000, seed: 5 });
      let appended = 0;
      let queries = 0;
      const writing = (async () => {
        for (let i = 0; i < 5; i++) appended += await writer.append(batch.batches);
      })();
      // counts run on the first connection while the appends go on, and never see half an append
      while (appended < 15000) {
        const n = await db.count('SELECT count(*) FROM busy');
        expect(n % 3000).toBe(0);
        queries++;
        await new Promise((r) => setImmediate(r));
      }
      await writing;
      expect(queries).toBeGreaterThan(0);
      expect(await db.count('SELECT count(*) FROM busy')).toBe(15000);
    } finally {
      writer.close();
    }
  });
});
