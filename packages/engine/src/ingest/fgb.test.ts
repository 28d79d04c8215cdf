// FlatGeobuf ingest through the public entry: geometry as a WKB geometry column, properties as columns.
import { serialize } from 'flatgeobuf/lib/mjs/geojson.js';
import { describe, expect, it } from 'vitest';
import wkx from 'wkx';
import type { IngestProgress } from '../index.js';
import { freshStore } from '../test-util/store.js';

const fresh = () => freshStore();

const features = Array.from({ length: 40 }, (_, i) => ({
  type: 'Feature',
  geometry: i % 2 ? { type: 'Point', coordinates: [i, -i] } : { type: 'LineString', coordinates: [[0, 0], [i, i]] },
  properties: { station: `S${i}`, depth: i * 1.5, casts: i },
}));

describe('FlatGeobuf ingest', () => {
  it('creates a table with a WKB geometry column and typed property columns', async () => {
    const t = (await fresh()).table('stations');
    const bytes = serialize({ type: 'FeatureCollection', features } as Parameters<typeof serialize>[0]);
    const result = await t.raw.ingest(await t.raw.upload('stations.fgb', bytes));
    expect(result).toMatchObject({ rows: 40, format: 'flatgeobuf', created: true });
    const schema = (await t.schema())!;
    expect(schema.fields.map((f) => `${f.name}:${String(f.type)}:${f.metadata.get('class') ?? ''}`)).toEqual([
      'geometry:Binary:geometry',
      'station:Utf8:',
      'depth:Float64:',
      'casts:Float64:',
    ]);
    const rows = await t.select('station == "S3" or station == "S4"').all();
    expect(rows.map((r) => wkx.Geometry.parse(Buffer.from(r.geometry as Uint8Array)).toWkt())).toEqual(['POINT(3 -3)', 'LINESTRING(0 0,4 4)']);
    expect(rows.map((r) => r.depth)).toEqual([4.5, 6]);
  });

  it('reports progress as batches land (16,384 features each), ending at every feature and the whole file', async () => {
    const t = (await fresh()).table('stations');
    const many = Array.from({ length: 2000 }, (_, i) => ({ ...features[i % 40]!, properties: { station: `S${i}`, depth: i * 1.5, casts: i } }));
    const bytes = serialize({ type: 'FeatureCollection', features: many } as Parameters<typeof serialize>[0]);
    const progress: IngestProgress[] = [];
    await t.raw.ingest(await t.raw.upload('many.fgb', bytes), { onProgress: (p) => progress.push(p) });
    expect(progress).toEqual([{ rows: 2000, bytes: bytes.length, totalBytes: bytes.length }]);
  });

  it('appends into an existing table built from an earlier file', async () => {
    const t = (await fresh()).table('stations');
    const bytes = serialize({ type: 'FeatureCollection', features } as Parameters<typeof serialize>[0]);
    await t.raw.ingest(await t.raw.upload('a.fgb', bytes));
    await t.raw.ingest(await t.raw.upload('b.fgb', bytes));
    expect(await t.select().count()).toBe(80);
  });
});
