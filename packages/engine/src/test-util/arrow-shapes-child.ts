// Child of data/layout.test.ts, run with --allow-natives-syntax --expose-gc --retain-maps-for-n-gc=0
// (a map no object uses dies at the next full GC): TurboFan optimises a function that makes and
// reads record batches as the engine's writers make them; then no batch is alive, three full GCs
// run, and the child prints whether the function is still optimised. With BARE=1 the engine's
// modules are not loaded (the control: the same batches, made with apache-arrow alone).
import { Data, Field, Float64, Int32, RecordBatch, Schema, Struct, Utf8 } from 'apache-arrow';

const layout = process.env.BARE === '1' ? null : await import('../data/layout.js');

const schema = new Schema([new Field('i', new Int32(), true), new Field('s', new Utf8(), false), new Field('x', new Float64(), false)]);

// a batch of `n` rows: fixed-width values with a validity bitmap and without, utf8 offsets and bytes
function batchOf(n: number): RecordBatch {
  const bits = new Uint8Array((n + 7) >> 3).fill(0xfe);
  const offsets = new Int32Array(n + 1).map((_, i) => i);
  const children = [
    new Data(new Int32(), 0, n, 1, [undefined, new Int32Array(n), bits] as never),
    new Data(new Utf8(), 0, n, 0, [offsets, new Uint8Array(n), undefined] as never),
    new Data(new Float64(), 0, n, 0, [undefined, new Float64Array(n), undefined] as never),
  ];
  if (layout) return layout.makeBatch(schema, children, n);
  return new RecordBatch(schema, new Data(new Struct(schema.fields), 0, n, 0, undefined, children));
}

// what a scan reads of a batch: its length, each chunk's length, stride and buffers
function readBatch(b: RecordBatch): number {
  let n = b.numRows;
  for (const c of b.data.children) n += c.length + c.stride + (c.values as ArrayLike<number>).length + (c.nullBitmap?.length ?? 0) + (c.valueOffsets?.length ?? 0);
  return n;
}

// a batch and a slice of it (whose chunks are clones), made and read
function hot(n: number): number {
  const b = batchOf(n);
  return readBatch(b) + readBatch(b.slice(1, 3));
}

const natives = (body: string) => new Function('f', body) as (f: unknown) => number;
const prepare = natives('%PrepareFunctionForOptimization(f)');
const optimiseNext = natives('%OptimizeFunctionOnNextCall(f)');
const status = natives('return %GetOptimizationStatus(f)');
const TURBOFANNED = 1 << 6;

prepare(hot);
let sum = hot(3) + hot(5);
optimiseNext(hot);
sum += hot(7);
const before = (status(hot) & TURBOFANNED) !== 0;
const gc = (globalThis as { gc?: () => void }).gc!;
for (let i = 0; i < 3; i++) gc();
const after = (status(hot) & TURBOFANNED) !== 0;
console.log(JSON.stringify({ before, after, sum }));
