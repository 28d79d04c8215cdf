import type { RecordBatch } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { START_MS, generateBatches, generateTable, obsSchema } from './generate.js';

const ROWS = 200_000;

function column(b: RecordBatch, name: string) {
  const c = b.getChild(name);
  if (!c) throw new Error(`missing column ${name}`);
  return c;
}

/** Every column of the batches as one byte string (utf8 columns as their joined values). */
function snapshot(batches: RecordBatch[]): Buffer[] {
  return obsSchema.fields.map((f) =>
    Buffer.concat(
      batches.map((b) => {
        const c = column(b, f.name);
        if (f.name === 'platform') return Buffer.from((c.toArray() as string[]).join('\n') + '\n');
        const v = c.data[0]!.values;
        return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
      }),
    ),
  );
}

describe('generateBatches', () => {
  const batches = [...generateBatches({ rows: ROWS, seed: 42, batchRows: 64_000 })];

  it('produces the requested rows in batches of the requested size', () => {
    expect(batches.map((b) => b.numRows)).toEqual([64_000, 64_000, 64_000, 8_000]);
    expect(batches[0]!.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(
      obsSchema.fields.map((f) => `${f.name}:${f.type}`),
    );
  });

  it('is deterministic for a seed and independent of the batch size', () => {
    const again = [...generateBatches({ rows: ROWS, seed: 42, batchRows: 50_000 })];
    const a = snapshot(again);
    const b = snapshot(batches);
    for (const [i, f] of obsSchema.fields.entries()) expect(a[i]!.equals(b[i]!), f.name).toBe(true);
  });

  it('gives different rows for a different seed', () => {
    const other = generateTable({ rows: 1000, seed: 43 });
    const same = generateTable({ rows: 1000, seed: 42 });
    for (const name of ['lat', 'lon', 'depth', 'temp', 'salinity', 'platform', 'time']) {
      expect(column(other.batches[0]!, name).toArray()).not.toEqual(column(same.batches[0]!, name).toArray());
    }
  });

  it('numbers ids 0..n-1 and keeps time non-decreasing from 2020-01-01', () => {
    let expectedId = 0n;
    let last = BigInt(START_MS);
    for (const b of batches) {
      const ids = column(b, 'id').data[0]!.values as BigInt64Array;
      const times = column(b, 'time').data[0]!.values as BigInt64Array;
      for (let i = 0; i < b.numRows; i++) {
        expect(ids[i]).toBe(expectedId++);
        if (times[i]! < last) throw new Error(`time decreases at row ${ids[i]}`);
        last = times[i]!;
      }
    }
    // ~100 observations per second overall: 1000 platforms, one each ~10 s
    const seconds = Number(last - BigInt(START_MS)) / 1000;
    expect(ROWS / seconds).toBeGreaterThan(90);
    expect(ROWS / seconds).toBeLessThan(110);
  });

  it('hits the workload selectivities and value ranges', () => {
    let deep = 0;
    let deepest = 0;
    let coldDeep = 0;
    const platforms = new Set<string>();
    for (const b of batches) {
      const depth = column(b, 'depth').toArray() as Float64Array;
      const temp = column(b, 'temp').toArray() as Float64Array;
      const lat = column(b, 'lat').toArray() as Float64Array;
      const lon = column(b, 'lon').toArray() as Float64Array;
      const sal = column(b, 'salinity').toArray() as Float64Array;
      const platform = column(b, 'platform');
      for (let i = 0; i < b.numRows; i++) {
        const d = depth[i]!;
        if (d > 5500) deep++;
        if (d > 5994) deepest++;
        if (d > 100 && temp[i]! < 5) coldDeep++;
        if (!(d >= 0 && d <= 6000)) throw new Error(`depth ${d}`);
        if (!(lat[i]! >= -80 && lat[i]! <= 80)) throw new Error(`lat ${lat[i]}`);
        if (!(lon[i]! >= -180 && lon[i]! < 180)) throw new Error(`lon ${lon[i]}`);
        if (!(sal[i]! >= 30 && sal[i]! <= 38)) throw new Error(`salinity ${sal[i]}`);
      }
      for (let i = 0; i < b.numRows; i++) platforms.add(platform.get(i) as string);
    }
    expect(deep / ROWS).toBeCloseTo(0.0833, 2);
    expect(deepest / ROWS).toBeGreaterThan(0.0008);
    expect(deepest / ROWS).toBeLessThan(0.0012);
    expect(coldDeep / ROWS).toBeGreaterThan(0.3);
    expect(coldDeep / ROWS).toBeLessThan(0.95);
    expect(platforms.size).toBe(1000);
    expect([...platforms].every((p) => /^PLAT-\d{4}$/.test(p))).toBe(true);
  });

  it('keeps temperature falling with depth', () => {
    const b = batches[0]!;
    const depth = column(b, 'depth').toArray() as Float64Array;
    const temp = column(b, 'temp').toArray() as Float64Array;
    const mean = (lo: number, hi: number) => {
      let sum = 0;
      let n = 0;
      for (let i = 0; i < b.numRows; i++) if (depth[i]! >= lo && depth[i]! < hi) (sum += temp[i]!), n++;
      return sum / n;
    };
    expect(mean(0, 100)).toBeGreaterThan(mean(500, 1000) + 5);
    expect(mean(500, 1000)).toBeGreaterThan(mean(3000, 6000));
  });
});
