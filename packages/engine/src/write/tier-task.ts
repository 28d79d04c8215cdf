// A tier merge on the part writer thread: the merged rows split into leaves, each leaf gathered, encoded and written durably; every file of the merge is removed when one fails.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Data, Schema } from 'apache-arrow';
import { countSet } from '../exec/gather.js';
import { type SplitMaps, splitMaps } from '../mvcc/forward.js';
import { partFile } from '../storage/records.js';
import { takeRows } from './kd-split.js';
import { type EncodedPart, type WriteFile, partIdOf, writeEncoded } from './partition.js';
import { type MergeInput, type SharedData, share } from './part-writer.js';
import { type TierSplit, tierLeaves } from './tier-split.js';
import { sharedBuffer } from '../exec/shared-memory.js';

/** A tier merge for the thread: the live rows of `inputs`, in order, split (`split`) into partition files of `table`. */
export interface TierWriteTask {
  readonly root: string;
  readonly table: string;
  /** The writing process's token, part of every partition id (`partIdOf`). */
  readonly token: string;
  readonly schema: Uint8Array;
  readonly inputs: readonly MergeInput[];
  readonly split: TierSplit;
  /** Columns (by name) to send back in shared memory as each leaf was written, for the cache. */
  readonly warm?: readonly string[];
}

/**
 * What the thread wrote, leaf by leaf, and where each input's live rows went (`moved`, in shared
 * memory, for the merge's forward records); `warm[L]` the asked-for columns of leaf L.
 */
export interface TierWritten {
  readonly parts: (EncodedPart & { file: string })[];
  readonly moved: SplitMaps;
  readonly sortedBy?: string;
  readonly warm?: SharedData[][];
}

/**
 * Splits the merged `columns` into leaves (`tierLeaves`) and writes each as a partition file. When
 * a leaf fails, the files already written for the merge are removed and the error is thrown.
 */
export async function writeLeaves(task: TierWriteTask, schema: Schema, columns: readonly Data[], write?: WriteFile): Promise<TierWritten> {
  const rows = columns[0]?.length ?? 0;
  if (rows === 0) return { parts: [], moved: { wide: false, maps: [] } };
  const { leaves, at, sortedBy } = tierLeaves(schema, columns, rows, task.split, sharedBuffer);
  const warmAt = (task.warm ?? []).map((n) => schema.fields.findIndex((f) => f.name === n)).filter((i) => i >= 0);
  const parts: (EncodedPart & { file: string })[] = [];
  const warm: SharedData[][] = [];
  try {
    for (const leaf of leaves) {
      const id = partIdOf(task.token);
      const file = partFile(task.table, id);
      const data = takeRows(schema.fields, columns, leaf);
      parts.push({ file, ...(await writeEncoded(task.root, file, id, schema, data, undefined, write)) });
      // the gathered leaf is this thread's own memory: the cache gets copies in shared memory
      if (warmAt.length > 0) warm.push(warmAt.map((i) => share(data[i]!, true)));
    }
  } catch (e) {
    for (const p of parts) rmSync(join(task.root, p.file), { force: true });
    throw e;
  }
  const live = task.inputs.map((p) => (p.deleted ? p.rows - countSet(p.deleted, p.rows) : p.rows));
  const moved = splitMaps(live, leaves, at, sharedBuffer);
  return { parts, moved, ...(sortedBy ? { sortedBy } : {}), ...(warmAt.length > 0 ? { warm } : {}) };
}
