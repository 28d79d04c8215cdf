// Row objects taken one at a time (per-row tx.insert) into per-column staging arrays, converted in bulk.
import type { RecordBatch, Schema } from 'apache-arrow';
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

  constructor(private readonly schema: Schema) {
    const names = schema.fields.map((f) => f.name);
    this.names = new Set(names);
    this.store = storeOf(names);
    this.fresh = freshColumns(schema);
    this.columns = this.fresh();
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
    try {
      this.store(row, this.columns, at);
    } catch (e) {
      // a getter threw: the row is not staged (the next row overwrites every column at `at`)
      this.count--;
      throw e;
    }
  }

  /** The staged rows as one batch of the schema (then none are staged); InvalidData at the first bad row. */
  toBatch(ctx: DataContext): RecordBatch {
    const { columns, count, failure } = this;
    this.columns = this.fresh();
    this.count = 0;
    this.failure = null;
    return convertColumns(this.schema, columns, count, failure, ctx);
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
}

/** Copies the columns of one row into the staging columns at `at` (as `gatherOf` reads them). */
type Store = (row: Readonly<Record<string, unknown>>, columns: unknown[][], at: number) => void;

const stores = new Map<string, Store>();
const creators = new Map<string, () => unknown[][]>();
const MAX_CACHED = 10_000;

function storeOf(names: readonly string[]): Store {
  const id = JSON.stringify(names);
  let store = stores.get(id);
  if (store === undefined) {
    if (stores.size >= MAX_CACHED) stores.clear();
    const lines = names.map((name, j) => `c[${j}][at] = ${readExpression('row', name)};`);
    store = new Function('row', 'c', 'at', lines.join('\n')) as Store;
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
