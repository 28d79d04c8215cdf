// The geo table: the generated observations with lat/lon marked as a point and a WKB point column.
import { Binary, Data, Field, RecordBatch, Schema, Struct } from 'apache-arrow';
import type { EngineStore } from './engine.js';
import { generateBatches, obsSchema } from './generate.js';

const klass = (c: string, index = false) => new Map([['class', c], ...(index ? [['index', 'true'] as [string, string]] : [])]);

/** `obs` plus class metadata on lat/lon (indexed: partitions split spatially) and `geom`, the same point as WKB. */
export const geoSchema = new Schema([
  ...obsSchema.fields.map((f) => (f.name === 'lat' ? f.clone({ metadata: klass('latitude', true) }) : f.name === 'lon' ? f.clone({ metadata: klass('longitude', true) }) : f)),
  new Field('geom', new Binary(), false, klass('geometry')),
]);

/** A generated batch with the WKB point column added (little-endian 2D points, 21 bytes each). */
export function withGeometry(batch: RecordBatch): RecordBatch {
  const n = batch.numRows;
  const lat = batch.getChild('lat')!.data[0]!.values as Float64Array;
  const lon = batch.getChild('lon')!.data[0]!.values as Float64Array;
  const bytes = new Uint8Array(21 * n);
  const view = new DataView(bytes.buffer);
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const at = 21 * i;
    view.setUint8(at, 1);
    view.setUint32(at + 1, 1, true);
    view.setFloat64(at + 5, lon[i]!, true);
    view.setFloat64(at + 13, lat[i]!, true);
    offsets[i + 1] = at + 21;
  }
  const geom = new Data(new Binary(), 0, n, 0, [offsets, bytes, undefined] as never);
  const children = [...batch.data.children, geom];
  return new RecordBatch(geoSchema, new Data(new Struct(geoSchema.fields), 0, n, 0, undefined, children));
}

/** Creates `geo` in the engine from the same seeded rows as `obs`; returns the load time (ms). */
export async function loadGeo(store: EngineStore, rows: number, seed: number): Promise<number> {
  const t = store.table('geo');
  await t.create(geoSchema);
  const start = performance.now();
  for (const batch of generateBatches({ rows, seed })) await t.insert(withGeometry(batch));
  return performance.now() - start;
}
