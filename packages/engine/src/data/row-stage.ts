// Row objects taken one at a time (per-row tx.insert) into per-column staging arrays, converted in bulk.
import { type Data, Field, Float64, Precision, type RecordBatch, Schema, TimeUnit, Type } from 'apache-arrow';
import { floatPrecision, intBits, isSigned, timeUnit } from '../schema/types.js';
import { putInt64, wordsOf } from './int64.js';
import { fixedData } from './layout.js';
import { keepShape } from '../shapes.js';
import type { DataContext } from './fail.js';
import { type Failure, convertColumns, sameKeys, unknownColumn } from './from-rows.js';
import { readExpression } from './gather.js';

/**
 * Per-row inserts staged column by column as they arrive, so each row object can die young: code
 * generated for the schema reads each column as a constant property name (monomorphic for rows of
 * one shape, as `gatherOf` reads them) into arrays that keep doubles unboxed. Only a row whose keys
 * differ from the previous row's (names or order) has its keys checked against the columns. `toBatch()`
 * then converts the columns with the same writers as `rowsToBatch`, so the values accepted, the
 * batch made and the error reported (the lowest bad row, the first column on ties) are the same.
 * Callers pass plain objects only (prototype `Object.prototype`); a key that is not a column is
 * remembered as the failure at that row, and rows after a failure are counted but not kept.
 * @example
 * const stage = new RowStage(schema); stage.add({ id: 1, depth: 2 }); const batch = stage.toBatch({ table: 't' });
 */
export class RowStage {
  private columns: unknown[][];
  private count = 0;
  private keys: readonly string[] = [];
  private failure: Failure | null = null;
  private readonly names: ReadonlySet<string>;
  private readonly store: Store;
  private readonly fresh: () => unknown[][];
  // typed lanes: per column, the typed array of its values, or null (a JS array in `columns`)
  private readonly lanes: readonly (Lane | null)[];
  private typed: (Float64Array | BigInt64Array | null)[];
  private capacity = INITIAL;
  // values a lane could not take (wrong type, null, out of range), in row order: rows, columns, values
  private oddRows: number[] = [];
  private oddColumns: number[] = [];
  private oddValues: unknown[] = [];

  constructor(private readonly schema: Schema) {
    const names = schema.fields.map((f) => f.name);
    this.names = new Set(names);
    this.lanes = schema.fields.map(laneOf);
    this.store = storeOf(names, this.lanes);
    this.fresh = freshColumns(schema);
    this.columns = this.fresh();
    this.typed = this.freshTyped();
  }

  /** Rows added since the last `toBatch()`. */
  get size(): number {
    return this.count;
  }

  /** Stages one plain row object; an exception from reading it (a getter) leaves it unstaged and propagates. */
  add(row: Readonly<Record<string, unknown>>): void {
    const at = this.count++;
    if (this.failure !== null) return;
    // the keys of the last row, in the same order, need no check
    if (!sameKeys(row, this.keys) && !this.known(row, at)) return;
    if (at === this.capacity) this.grow();
    try {
      this.store(row, this.columns, this.typed, at, this);
    } catch (e) {
      // a getter threw: the row is not staged (the next row overwrites every column at `at`)
      this.count--;
      while (this.oddRows.length > 0 && this.oddRows[this.oddRows.length - 1] === at) this.dropOdd();
      throw e;
    }
  }

  /** @internal called by the generated store: column `j` of row `at` is `v`, which its lane cannot hold */
  odd(j: number, at: number, v: unknown): void {
    this.oddRows.push(at);
    this.oddColumns.push(j);
    this.oddValues.push(v);
  }

  /** The staged rows as one batch of the schema (then none are staged); InvalidData at the first bad row. */
  toBatch(ctx: DataContext): RecordBatch {
    const { columns, typed, count, failure, oddRows, oddColumns, oddValues } = this;
    this.columns = this.fresh();
    this.typed = this.freshTyped();
    this.count = 0;
    this.failure = null;
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
    return convertColumns(this.schema, columns, count, failure, ctx, ready);
  }

  // a new key list: true when every key is a column, else the failure at this row
  private known(row: Readonly<Record<string, unknown>>, at: number): boolean {
    const keys = Object.keys(row);
    for (const key of keys) {
      if (!this.names.has(key)) {
        this.failure = { row: at, column: key, message: unknownColumn(key, this.schema), value: row[key] };
        return false;
      }
    }
    this.keys = keys;
    return true;
  }

  private freshTyped(): (Float64Array | BigInt64Array | null)[] {
    return this.lanes.map((lane) => (lane === null ? null : lane === 'i64' ? new BigInt64Array(this.capacity) : new Float64Array(this.capacity)));
  }

  // twice the room in every lane
  private grow(): void {
    this.capacity *= 2;
    this.typed = this.typed.map((t) => {
      if (t === null) return null;
      const next = new (t.constructor as Float64ArrayConstructor)(this.capacity) as Float64Array | BigInt64Array;
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

/**
 * A column staged straight into a typed array: `f64` (float64) takes numbers, `i64` (int64) bigints
 * in range, `ms` (timestamp[ms]) valid Dates as their milliseconds (a Date then dies with its row
 * instead of living in a staging array); any other value of the column (null, another type, an
 * invalid Date) is kept aside as odd. Each takes exactly what its column writer's common case
 * takes, so a lane's values, converted, are what the writer would have made of them.
 */
type Lane = 'f64' | 'i64' | 'ms';

const INITIAL = 2048;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

function laneOf(f: Field): Lane | null {
  if (f.type.typeId === Type.Float && floatPrecision(f.type) === Precision.DOUBLE) return 'f64';
  if (f.type.typeId === Type.Int && intBits(f.type) === 64 && isSigned(f.type)) return 'i64';
  if (f.type.typeId === Type.Timestamp && timeUnit(f.type) === TimeUnit.MILLISECOND) return 'ms';
  return null;
}

// a lane's first `n` values as the column's chunk (no nulls: a null is odd)
function laneData(field: Field, values: Float64Array | BigInt64Array, n: number): Data {
  if (field.type.typeId === Type.Timestamp) {
    const out = new BigInt64Array(n);
    const words = wordsOf(out);
    for (let i = 0; i < n; i++) putInt64(words, i, (values as Float64Array)[i]!);
    return fixedData(field.type, n, out, undefined, 0);
  }
  return fixedData(field.type, n, n === values.length ? values : values.slice(0, n), undefined, 0);
}

/**
 * Copies the columns of one row at `at` (each read as `gatherOf` reads it): a lane column into its
 * typed array when the value fits, else to `stage.odd`; any other column into its staging array.
 */
type Store = (row: Readonly<Record<string, unknown>>, columns: unknown[][], typed: unknown[], at: number, stage: RowStage) => void;

const stores = new Map<string, Store>();
const creators = new Map<string, () => unknown[][]>();
const MAX_CACHED = 10_000;

function storeOf(names: readonly string[], lanes: readonly (Lane | null)[]): Store {
  const id = JSON.stringify([names, lanes]);
  let store = stores.get(id);
  if (store === undefined) {
    if (stores.size >= MAX_CACHED) stores.clear();
    const lines = names.map((name, j) => {
      const read = readExpression('row', name);
      if (lanes[j] === 'f64') return `v = ${read}; if (typeof v === 'number') t[${j}][at] = v; else stage.odd(${j}, at, v);`;
      if (lanes[j] === 'ms') return `v = ${read}; if (v instanceof Date && (ms = v.getTime()) === ms) t[${j}][at] = ms; else stage.odd(${j}, at, v);`;
      if (lanes[j] === 'i64') return `v = ${read}; if (typeof v === 'bigint' && v >= MIN && v <= MAX) t[${j}][at] = v; else stage.odd(${j}, at, v);`;
      return `c[${j}][at] = ${read};`;
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
