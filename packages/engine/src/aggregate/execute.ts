// Runs an aggregate: partial aggregates per partition on the executor, merged in partition order.
import { Binary, Bool, type Data, type DataType, Float64, Int32, Int64, Utf8, makeData } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { taskColumn } from '../exec/arrays.js';
import type { ScanTask, TaskColumn } from '../exec/task.js';
import { candidates, columnOf, oversized, run, sortedBy } from '../read/execute.js';
import { plan } from '../read/plan.js';
import type { Snapshot } from '../read/snapshot.js';
import type { PartRecord } from '../storage/records.js';
import { Merged } from './merge.js';
import { cacheableKey, type GroupCodes, type GroupKeys, type PartialAggregate } from './partial.js';
import { type AggregateOptions, type AggregateTask, aggregateTask, aggregateVars, keyColumns } from './spec.js';

/** The merged groups of an aggregate over a snapshot, with what shaping the result needs. */
export interface AggregateRun {
  readonly merged: Merged;
  readonly task: AggregateTask;
  readonly keyType: DataType;
}

/**
 * Plans and runs `aggregate(groupBy, options)` on `snap`. Partitions run on the worker pool (or
 * inline when small), each returning partial aggregates; they merge in partition order, so the
 * result does not depend on the number of workers.
 */
export async function aggregateSnapshot(ctx: StoreContext, snap: Snapshot, groupBy: string, options: AggregateOptions, table: string): Promise<AggregateRun> {
  const task = aggregateTask(snap.schema, groupBy, options, table);
  const filtered = plan(snap.schema, table, options.query, { vars: aggregateVars(groupBy, options).query });
  const parts = candidates(snap, filtered);
  const read = [...new Set([...(filtered.filter?.columns ?? []), ...task.fields.map((f) => f.name)])];
  const names = [...new Set([...read, ...keyColumns(task.key)])];
  const cache = !oversized(ctx, parts, filtered, names);
  const merged = new Merged(task.fields.length, task.key.kind === 'h3point' ? task.key.res : null);
  // partials merge in partition order, each as soon as those before it are in: the calling thread
  // merges while the workers still scan
  const done: (PartialAggregate | null)[] = parts.map(() => null);
  let next = 0;
  let reserved = false;
  await Promise.all(
    parts.map(async (part, i) => {
      const scan = await scanTask(ctx, snap, part, { names, read }, filtered.allMatch(part.zones) ? null : filtered.filter, task, cache);
      const result = await run(ctx, part, scan, parts.length > 1);
      if (result.codes) cacheCodes(ctx, codesKey(part, task)!, result.codes, part.rows);
      done[i] = result.partial!;
      // room for the groups, guessed from the first partial in (partitions tend to be alike)
      if (!reserved) merged.reserve(Math.min(result.partial!.keys.length * parts.length, 1 << 20));
      reserved = true;
      for (; next < parts.length && done[next] !== null; next++) {
        merged.add(done[next]!);
        done[next] = null;
      }
    }),
  );
  return { merged, task, keyType: keyType(snap, task) };
}

// the task of one partition; with its group codes cached, the key's own columns are not read
async function scanTask(ctx: StoreContext, snap: Snapshot, part: PartRecord, cols: { names: string[]; read: string[] }, filter: ScanTask['filter'], task: AggregateTask, cache: boolean): Promise<ScanTask> {
  const key = codesKey(part, task);
  const hit = key === null ? undefined : ctx.cache.get(key);
  const codes = hit ? groupKeys.get(hit.data) : undefined;
  const names = hit && codes ? cols.read : cols.names;
  const loaded = await Promise.all(names.map((n) => columnOf(ctx, snap, part, n, cache)));
  const columns: Record<string, TaskColumn> = {};
  names.forEach((name, i) => (columns[name] = taskColumn(loaded[i]!)));
  const deleted = snap.deleted.get(part.id)?.bits ?? null;
  return { mode: 'aggregate', length: part.rows, filter, columns, project: [], aggregate: task, deleted, ...sortedBy(part, filter, names, loaded, cache), ...(hit && codes ? { codes: { codes: hit.data.values as Int32Array, keys: codes } } : {}) };
}

// Group codes of a partition (a bare column key, or h3(lat, lon, res): h3-js computes ~1.3 M cells/s
// per core) are computed once and kept in the column cache like a column: the codes as an Int32
// chunk, the key of each code beside it
const groupKeys = new WeakMap<Data, GroupKeys>();

function codesKey(part: PartRecord, task: AggregateTask): string | null {
  return cacheableKey(task.key) ? `${part.id}/\u0000group:${JSON.stringify(task.key, (_, v) => (typeof v === 'bigint' ? String(v) : v))}` : null;
}

function cacheCodes(ctx: StoreContext, key: string, codes: GroupCodes, rows: number): void {
  const data = makeData({ type: new Int32(), length: rows, data: codes.codes });
  groupKeys.set(data, codes.keys);
  const keys = codes.keys;
  const keyBytes = keys instanceof Float64Array ? keys.byteLength : keys.reduce<number>((n, k) => n + (typeof k === 'string' ? 2 * k.length + 16 : 16), 0);
  ctx.cache.put(key, { data, bytes: codes.codes.byteLength + keyBytes });
}

function keyType(snap: Snapshot, task: AggregateTask): DataType {
  const k = task.key;
  if (k.kind === 'h3point' || k.kind === 'h3geom') return new Utf8();
  if (k.kind === 'bucket') return new Float64();
  const t = k.typed;
  if (t.kind === 'column') return snap.schema.fields.find((f) => f.name === t.name)!.type;
  return typeFor(t.type);
}

// the key column type of an expression key: its value type (ints and floats as Float64)
function typeFor(type: string): DataType {
  if (type === 'bool') return new Bool();
  if (type === 'string') return new Utf8();
  if (type === 'binary') return new Binary();
  if (type === 'int64' || type.startsWith('timestamp') || type === 'date64' || type === 'datetime' || type === 'time') return new Int64();
  return new Float64();
}
