// Seeded ocean observations in time order, built column by column straight into typed arrays.
import {
  Field,
  Float64,
  Int64,
  RecordBatch,
  Schema,
  Struct,
  Table,
  TimestampMillisecond,
  Utf8,
  makeData,
} from 'apache-arrow';

/** Options for {@link generateBatches}; the same options always give the same rows. */
export interface GenerateOptions {
  readonly rows: number;
  readonly seed?: number;
  /** Rows per RecordBatch (the unit of extra memory). */
  readonly batchRows?: number;
  readonly platforms?: number;
}

/** The observation schema shared by the engine table and the DuckDB `obs` table. */
export const obsSchema = new Schema([
  new Field('id', new Int64(), false),
  new Field('time', new TimestampMillisecond(), false),
  new Field('lat', new Float64(), false),
  new Field('lon', new Float64(), false),
  new Field('depth', new Float64(), false),
  new Field('temp', new Float64(), false),
  new Field('salinity', new Float64(), false),
  new Field('platform', new Utf8(), false),
]);

/** 2020-01-01T00:00:00Z, the time of the first observation. */
export const START_MS = Date.UTC(2020, 0, 1);

/**
 * Observations of `platforms` ships in time order, one RecordBatch of at most `batchRows` rows at a time.
 * The rows do not depend on `batchRows`.
 * @example
 * for (const batch of generateBatches({ rows: 10_000_000, seed: 42 })) await t.insert(batch);
 */
export function* generateBatches(opts: GenerateOptions): Generator<RecordBatch> {
  const batchRows = opts.batchRows ?? 1_000_000;
  const state = initState(opts.seed ?? 42, opts.platforms ?? 1000);
  for (let offset = 0; offset < opts.rows; offset += batchRows) {
    yield makeBatch(state, offset, Math.min(batchRows, opts.rows - offset));
  }
}

/** All rows of {@link generateBatches} as one Table (one chunk per batch). */
export function generateTable(opts: GenerateOptions): Table {
  return new Table([...generateBatches(opts)]);
}

/** mulberry32 (Tommy Ettinger, public domain): a 32-bit seeded PRNG returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Generator state carried from batch to batch; one platform's track is lat[k], lon[k], heading[k]. */
interface State {
  readonly rand: () => number;
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  readonly heading: Float64Array;
  readonly names: readonly Uint8Array[];
  timeMs: number;
}

const TWO_32 = 4294967296;
/** Degrees moved per observation (~50 m: 5 m/s for 10 s). */
const STEP_DEG = 0.00045;

function initState(seed: number, platforms: number): State {
  const rand = mulberry32(seed);
  const lat = new Float64Array(platforms);
  const lon = new Float64Array(platforms);
  const heading = new Float64Array(platforms);
  const encoder = new TextEncoder();
  const names: Uint8Array[] = [];
  for (let k = 0; k < platforms; k++) {
    lat[k] = rand() * 140 - 70;
    lon[k] = rand() * 360 - 180;
    heading[k] = rand() * 2 * Math.PI;
    names.push(encoder.encode(`PLAT-${String(k).padStart(4, '0')}`));
  }
  return { rand, lat, lon, heading, names, timeMs: START_MS };
}

function makeBatch(s: State, offset: number, n: number): RecordBatch {
  const { rand, lat, lon, heading, names } = s;
  const id = new BigInt64Array(n);
  const time = new BigInt64Array(n);
  const idWords = new Uint32Array(id.buffer);
  const timeWords = new Uint32Array(time.buffer);
  const la = new Float64Array(n);
  const lo = new Float64Array(n);
  const depth = new Float64Array(n);
  const temp = new Float64Array(n);
  const sal = new Float64Array(n);
  const codes = new Uint32Array(n);
  let nameBytes = 0;
  for (let i = 0; i < n; i++) {
    // which ship reports, and when (mean 10 ms apart: each of 1000 ships every ~10 s)
    const k = Math.floor(rand() * lat.length);
    s.timeMs += Math.floor(rand() * 21);
    // move the ship along its heading, which drifts; bounce off ±80° latitude, wrap longitude
    let h = heading[k]! + (rand() - 0.5) * 0.2;
    let y = lat[k]! + Math.cos(h) * STEP_DEG;
    if (y > 80 || y < -80) {
      y = y > 80 ? 160 - y : -160 - y;
      h = Math.PI - h;
    }
    let x = lon[k]! + (Math.sin(h) * STEP_DEG) / Math.cos((y * Math.PI) / 180);
    if (x >= 180) x -= 360;
    else if (x < -180) x += 360;
    heading[k] = h;
    lat[k] = y;
    lon[k] = x;
    // a uniform depth; temperature falls from a latitude-dependent surface value
    const d = rand() * 6000;
    const sst = Math.max(-1.8, 29 - 0.0045 * y * y);
    const t = -1 + (sst + 1) * Math.exp(-d / 800) + (rand() + rand() + rand() - 1.5) * 0.6;
    const sa = 34.7 + 0.8 * Math.exp(-d / 500) * Math.cos((y * Math.PI) / 90) + (rand() + rand() - 1) * 0.6;
    const row = offset + i;
    idWords[2 * i] = row >>> 0;
    idWords[2 * i + 1] = Math.floor(row / TWO_32);
    timeWords[2 * i] = s.timeMs >>> 0;
    timeWords[2 * i + 1] = Math.floor(s.timeMs / TWO_32);
    la[i] = y;
    lo[i] = x;
    depth[i] = d;
    temp[i] = t;
    sal[i] = Math.min(38, Math.max(30, sa));
    codes[i] = k;
    nameBytes += names[k]!.length;
  }
  return new RecordBatch(
    obsSchema,
    makeData({
      type: new Struct(obsSchema.fields),
      length: n,
      nullCount: 0,
      children: [
        makeData({ type: new Int64(), length: n, nullCount: 0, data: id }),
        makeData({ type: new TimestampMillisecond(), length: n, nullCount: 0, data: time }),
        makeData({ type: new Float64(), length: n, nullCount: 0, data: la }),
        makeData({ type: new Float64(), length: n, nullCount: 0, data: lo }),
        makeData({ type: new Float64(), length: n, nullCount: 0, data: depth }),
        makeData({ type: new Float64(), length: n, nullCount: 0, data: temp }),
        makeData({ type: new Float64(), length: n, nullCount: 0, data: sal }),
        utf8Data(codes, names, nameBytes),
      ],
    }),
  );
}

/** A utf8 column whose i-th value is names[codes[i]]. */
function utf8Data(codes: Uint32Array, names: readonly Uint8Array[], totalBytes: number) {
  const offsets = new Int32Array(codes.length + 1);
  const bytes = new Uint8Array(totalBytes);
  let at = 0;
  for (let i = 0; i < codes.length; i++) {
    const name = names[codes[i]!]!;
    bytes.set(name, at);
    at += name.length;
    offsets[i + 1] = at;
  }
  return makeData({ type: new Utf8(), length: codes.length, nullCount: 0, valueOffsets: offsets, data: bytes });
}
