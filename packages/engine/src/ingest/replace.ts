// Creating or recreating a table from ingested partitions: the table record (new id, new schema)
// and all its partition records in ONE metadata transaction; the old table's parts are retired.
import { randomBytes } from 'node:crypto';
import type { Schema } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { HaloclineError } from '../errors.js';
import { encodeSchema } from '../schema/serialize.js';
import { type PartRecord, type TableRecord, partKey, partPrefix, tableKey } from '../storage/records.js';
import { type Change, publishVersion } from '../write/commit.js';
import { type WrittenPart, removeParts } from '../write/partition.js';
import { retireParts } from '../mvcc/retire.js';

/** A fresh table id (never reused, so caches keyed by id cannot see stale data). */
export function newTableId(): string {
  return randomBytes(8).toString('hex');
}

/**
 * Makes `parts` the whole content of table `name` under a new record with `id` and `schema`.
 * `replaces` is the id of the table being recreated, or null when the table must not exist yet;
 * anything else found (a concurrent create or drop) is a Conflict, and the written files are removed.
 * Its version 1 is published as a commit event (`write/commit.ts` `publishVersion`) with `trace`.
 */
export async function replaceTable(
  ctx: StoreContext,
  name: string,
  replaces: string | null,
  next: { id: string; schema: Schema },
  parts: readonly WrittenPart[],
  trace?: Change['trace'],
): Promise<void> {
  const written = performance.now();
  let retired: { id: string; parts: PartRecord[] } | null = null;
  try {
    retired = await ctx.meta.write((tx) => {
      const current = tx.get<TableRecord>(tableKey(name));
      if ((current?.id ?? null) !== replaces) {
        const what = replaces === null ? 'created' : 'dropped or recreated';
        throw new HaloclineError('Conflict', `table "${name}" was ${what} while the file was being ingested`, { table: name });
      }
      const old = current ? tx.range<PartRecord>(partPrefix(current.id)) : [];
      if (current) retireParts(tx, current.id, old.map(([, p]) => p), Number.POSITIVE_INFINITY);
      const record: TableRecord = {
        id: next.id,
        name,
        schema: Buffer.from(encodeSchema(next.schema)).toString('base64'),
        version: 1,
        nextSeq: parts.length,
        created: new Date().toISOString(),
      };
      tx.put(tableKey(name), record);
      parts.forEach((p, seq) => tx.put(partKey(next.id, p.id), { ...p, seq, added: 1 } satisfies PartRecord));
      return current ? { id: current.id, parts: old.map(([, p]) => p) } : null;
    });
  } catch (e) {
    await removeParts(ctx, parts);
    throw e;
  }
  if (retired) ctx.collectGarbage();
  publishVersion(name, 1, { add: parts, remove: retired?.parts ?? [], ...(trace ? { trace } : {}) }, written);
}
