// Row objects taken one at a time (per-row tx.insert) into per-column staging arrays, converted in bulk.
import { type Data, Field, Float64, type RecordBatch, Schema, Type } from 'apache-arrow';
import { spatialProblem } from '../geo/validate.js';
import { fieldInfo } from '../schema/metadata.js';
import { putInt64, wordsOf } from './int64.js';
import { fixedData } from './layout.js';
import { keepShape } from '../shapes.js';
import { type DataContext, RowError, invalidData } from './fail.js';
import { convertColumns, sameKeys, unknownColumn } from './from-rows.js';
import { readExpression } from './gather.js';
import { type Lane, acceptOf, laneOf, stored } from './row-accept.js';
import { writeValues } from './write/column.js';
import type { Alloc } from './write/writer.js';
import { sharedBuffer } from '../exec/shared-memory.js';

/**
 * Per-row inserts staged column by column as they arrive, so each row object can die young: code
 * generated for the schema reads each column as a constant property name (monomorphic for rows of
 * one shape, as `gatherOf` reads them) into arrays that keep doubles unboxed. Only a row whose keys
 * differ from the previous row's (names or order) has its keys checked against the columns.
 * Each row is checked as it is added, so a bad one is refused by its own `add()` and nothing of it
 * is staged: a value its column's writer surely takes passes a test inlined in the generated code
 * (a number for float64, a well-formed string for utf8, ...); any other value is converted on its
 * own by the column writer and, for spatial columns, checked as inserts check them. `toBatch()`
 * then converts the columns with the same writers as `rowsToBatch`, so the values accepted and the
 * batch made are the same (it can still fail on what no row alone shows: more than 2 GiB of text
 * for 32-bit offsets, or a Date or byte array changed after its row was added).
 * Callers pass plain objects only (prototype `Object.prototype`).
 * @example
 * const stage = new RowStage(schema, { table: 't' }); stage.add({ id: 1, depth: 2 }); const batch = stage.toBatch({ table: 't' });
 */
export class RowStage {
  private columns: unknown[][];
  private count = 0;
  private keys: readonly string[] = [];
  private readonly names: ReadonlySet<string>;
  private readonly store: Store;
  private readonly fresh: () => unknown[][];
  // typed lanes: per column, the typed array of its values, or null (a JS array in `columns`)
  private readonly lanes: readonly (Lane | null)[];
  private readonly nullable: readonly boolean[];
  // per column: 0 no spatial check, 1 geometry, 2 latitude, 3 longitude
  private readonly spatialKind: readonly number[];
  // the row's values waiting for their spatial check: column, value, column, value, ...
  private readonly spatial: unknown[] = [];
  private typed: (Float64Array | BigInt64Array | null)[];
  private capacity = INITIAL;
  // values a lane could not take (wrong type, null, out of range), in row order: rows, columns, values
  private oddRows: number[] = [];
  private oddColumns: number[] = [];
  private oddValues: unknown[] = [];

  constructor(
    private readonly schema: Schema,
    private readonly ctx: DataContext = {},
  ) {
    const names = schema.fields.map((f) => f.name);
    this.names = new Set(names);
    this.lanes = schema.fields.map(laneOf);
    this.nullable = schema.fields.map((f) => f.nullable);
    this.spatialKind = schema.fields.map((f) => SPATIAL_KINDS.indexOf(fieldInfo(f).class ?? '') + 1);
    this.store = storeOf(names, this.lanes, schema.fields.map(acceptOf));
    this.fresh = freshColumns(schema);
    this.columns = this.fresh();
    this.typed = this.freshTyped();
  }

  /** Rows added since the last `toBatch()`. */
  get size(): number {
    return this.count;
  }

  /**
   * Stages one plain row object. A key that is not a column, or a value its column does not take,
   * throws InvalidData (row 0: the row itself; the column; the value), as would an exception from
   * reading it (a getter); either way nothing of the row is staged.
   */
  add(row: Readonly<Record<string, unknown>>): void {
    // the keys of the last row, in the same order, need no check
    if (!sameKeys(row, this.keys)) this.known(row);
    const at = this.count++;
    if (at === this.capacity) this.grow();
    try {
      this.store(row, this.columns, this.typed, at, this);
      if (this.spatial.length > 0) this.checkSpatial();
    } catch (e) {
      // the row is not staged (the next row overwrites every column at `at`)
      this.spatial.length = 0;
      this.count--;
      while (this.oddRows.length > 0 && this.oddRows[this.oddRows.length - 1] === at) this.dropOdd();
      throw e;
    }
  }

  /**
   * @internal called by the generated store: column `j` of row `at` is `v`, which its lane cannot
   * hold; checked (see `check`) and kept aside
   */
  odd(j: number, at: number, v: unknown): void {
    if (!((v === null || v === undefined) && this.nullable[j])) this.check(j, v);
    this.oddRows.push(at);
    this.oddColumns.push(j);
    this.oddValues.push(v);
  }

  /**
   * @internal called by the generated store for a value of column `j` that its inlined test does not
   * pass: converted alone by the column's writer (InvalidData when it does not convert), its spatial
   * check (if any) queued for the end of the row
   */
  check(j: number, v: unknown): void {
    const field = this.schema.fields[j]!;
    let data: Data;
    try {
      data = writeValues(field, [v]);
    } catch (e) {
      if (!(e instanceof RowError)) throw e;
      throw invalidData(this.ctx, e.message, { row: 0, column: field.name, value: v });
    }
    if (this.spatialKind[j] !== 0) this.spatial.push(j, stored(data));
  }

  // the spatial checks of the row's values that needed them, once every value converted (as an
  // insert converts first, then checks geometry columns, then latitudes and longitudes)
  private checkSpatial(): void {
    const pending = this.spatial;
    for (const geometry of [true, false]) {
      for (let k = 0; k < pending.length; k += 2) {
        const j = pending[k] as number;
        if ((this.spatialKind[j] === 1) !== geometry) continue;
        const field = this.schema.fields[j]!;
        const problem = spatialProblem(field, pending[k + 1]);
        if (problem !== null) throw invalidData(this.ctx, problem, { row: 0, column: field.name, value: pending[k + 1] });
      }
    }
    pending.length = 0;
  }

  /**
   * The staged rows as one batch of the schema (then none are staged). Every row passed its checks,
   * so this fails (InvalidData at the row) only on what no row alone shows (see the class).
   */
  toBatch(ctx: DataContext): RecordBatch {
    const { columns, typed, count, oddRows, oddColumns, oddValues } = this;
    this.columns = this.fresh();
    this.typed = this.freshTyped();
    this.count = 0;
    this.oddRows = [];
    this.oddColumns = [];
    this.oddValues = [];
    // a lane column is ready as it is, unless a value did not fit it: then it is converted from JS
    // values (the lane's, with the odd ones in place) like any other column, errors included
    const ready: (Data | null)[] = this.lanes.map((lane, j) => (lane === null ? null : laneData(this.schema.fields[j]!, typed[j]!, count)));
    for (let k = 0; k < oddRows.length; k++) {
      const j = oddColumns[k]!;
      if (ready[j] !== null) {
        columns[j] = Array.from(typed[j]!.subarray(0, count) as ArrayLike<unknown>);
        ready[j] = null;
      }
      columns[j]![oddRows[k]!] = oddValues[k];
    }
    return convertColumns(this.schema, columns, count, null, ctx, ready, stagedAlloc);
  }

  // a new key list: every key must be a column
  private known(row: Readonly<Record<string, unknown>>): void {
    const keys = Object.keys(row);
    for (const key of keys) {
      if (!this.names.has(key)) throw invalidData(this.ctx, unknownColumn(key, this.schema), { row: 0, column: key, value: row[key] });
    }
    this.keys = keys;
  }

  private freshTyped(): (Float64Array | BigInt64Array | null)[] {
    return this.lanes.map((lane) => (lane === null ? null : freshLane(lane === 'i64', this.capacity)));
  }

  // twice the room in every lane
  private grow(): void {
    this.capacity *= 2;
    this.typed = this.typed.map((t) => {
      if (t === null) return null;
      const next = freshLane(t instanceof BigInt64Array, this.capacity);
      next.set(t as never);
      return next;
    });
  }

  private dropOdd(): void {
    this.oddRows.pop();
    this.oddColumns.pop();
    this.oddValues.pop();
  }
}

const INITIAL = 2048;

/**
 * The staged columns' memory, and that of the batches made of them: shared memory, which V8 does
 * not count as external memory of the heap. Staged rows come in bulk (a replace loop stages 100k
 * rows, ~12 MB of column buffers); as ordinary ArrayBuffers those bytes counted against the old
 * generation's allocation limit and started a full incremental marking of the heap nearly every
 * such transaction (~10 ms of the committing thread's time, bench W7D). `sharedBuffer` collects
 * the young generation once enough has been allocated, which frees the buffers no one holds. The
 * batches are then in shared memory already when a scan worker writes them (`PartWriter`).
 */
const stagedAlloc: Alloc = sharedBuffer;

function freshLane(i64: boolean, n: number): Float64Array | BigInt64Array {
  return i64 ? new BigInt64Array(stagedAlloc(n * 8)) : new Float64Array(stagedAlloc(n * 8));
}
// the classes of spatial columns, in the order of `spatialKind` (1, 2, 3)
const SPATIAL_KINDS = ['geometry', 'latitude', 'longitude'];
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

// a lane's first `n` values as the column's chunk (no nulls: a null is odd)
function laneData(field: Field, values: Float64Array | BigInt64Array, n: number): Data {
  if (field.type.typeId === Type.Timestamp) {
    const out = new BigInt64Array(stagedAlloc(n * 8));
    const words = wordsOf(out);
    for (let i = 0; i < n; i++) putInt64(words, i, (values as Float64Array)[i]!);
    return fixedData(field.type, n, out, undefined, 0);
  }
  return fixedData(field.type, n, n === values.length ? values : values.subarray(0, n), undefined, 0);
}

/**
 * Copies the columns of one row at `at` (each read as `gatherOf` reads it): a lane column into its
 * typed array when the value passes the column's test, else to `stage.odd`; any other column into
 * its staging array, through `stage.check` when the value does not pass the column's test.
 */
type Store = (row: Readonly<Record<string, unknown>>, columns: unknown[][], typed: unknown[], at: number, stage: RowStage) => void;

const stores = new Map<string, Store>();
const creators = new Map<string, () => unknown[][]>();
const MAX_CACHED = 10_000;

function storeOf(names: readonly string[], lanes: readonly (Lane | null)[], accepts: readonly string[]): Store {
  const id = JSON.stringify([names, lanes, accepts]);
  let store = stores.get(id);
  if (store === undefined) {
    if (stores.size >= MAX_CACHED) stores.clear();
    const lines = names.map((name, j) => {
      const read = readExpression('row', name);
      if (lanes[j] === 'ms') return `v = ${read}; if (v instanceof Date && (ms = v.getTime()) === ms) t[${j}][at] = ms; else stage.odd(${j}, at, v);`;
      if (lanes[j] !== null) return `v = ${read}; if (${accepts[j]}) t[${j}][at] = v; else stage.odd(${j}, at, v);`;
      return `v = ${read}; if (!(${accepts[j]})) stage.check(${j}, v); c[${j}][at] = v;`;
    });
    store = new Function('MIN', 'MAX', `return (row, c, t, at, stage) => { let v, ms; ${lines.join('\n')} };`)(I64_MIN, I64_MAX) as Store;
    stores.set(id, store);
  }
  return store;
}

// one array literal per column in generated code, per schema (names and types): each is its own
// allocation site, so a column of numbers stays an array of unboxed doubles while a column of
// strings or Dates holds references
function freshColumns(schema: Schema): () => unknown[][] {
  const id = JSON.stringify(schema.fields.map((f) => [f.name, String(f.type)]));
  let make = creators.get(id);
  if (make === undefined) {
    if (creators.size >= MAX_CACHED) creators.clear();
    make = new Function(`return () => [${schema.fields.map(() => '[]').join(', ')}];`)() as () => unknown[][];
    creators.set(id, make);
  }
  return make;
}

// the stage's hidden class outlives full GCs (see keepShape)
keepShape(new RowStage(new Schema([new Field('x', new Float64(), true)])));
