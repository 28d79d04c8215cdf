// The part writer's tasks, run on a worker thread (the part writer's, `part-worker.ts`; a commit's
// share of its rows also on a scan worker, `exec/worker.ts`): encodes partition files (reading,
// joining and k-d splitting the inputs of merges) and writes them with synchronous calls (the work
// stays on the thread, at its priority).
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Data, Schema } from 'apache-arrow';
import { HaloclineError, isHaloclineError } from '../errors.js';
import { PREFIX_BYTES, checkPrefix, checkSegment, decodeSegment, isChecksummed } from '../storage/format.js';
import { concatData } from '../storage/concat.js';
import { decodeSchema } from '../schema/serialize.js';
import { resultData, taskColumn } from '../exec/arrays.js';
import { gather } from '../exec/gather.js';
import { survivors } from '../mvcc/deletes.js';
import { writeEncoded } from './partition.js';
import { SharedPool } from './shared-pool.js';
import { Claim, type MergeInput, type PartWriteReply, type PartWriteTask, type TierWriteReply, rebuild, share } from './part-writer.js';
import { type TierWriteTask, writeLeaves } from './tier-task.js';
import { sharedBuffer } from '../exec/shared-memory.js';

/**
 * The memory a merge reads its inputs into and joins them in, reused from merge to merge: without
 * it each merge allocated its inputs' and its result's bytes afresh (tens of MB), and that external
 * memory set off a full GC of this thread's isolate several times a second, whose concurrent
 * marking and sweeping run on V8's platform threads at normal priority (docs/architecture.md).
 */
export const mergeBuffers = new SharedPool({ maxBytes: 128 << 20, idleMs: 10_000 });

export default async function writePartTask(task: PartWriteTask | TierWriteTask): Promise<PartWriteReply | TierWriteReply> {
  if ('claim' in task && task.claim && !Claim.start(task.claim)) return { cancelled: true };
  // what this task took from `mergeBuffers`: given back once the file is written (and the warm copies made)
  const lease = mergeBuffers.lease();
  const alloc = lease.alloc;
  try {
    const schema = schemaOf(task.schema);
    // a tier merge: read and joined like a merge, then split into leaves written one by one (tier-task.ts)
    if ('split' in task) return { tier: await writeLeaves(task, schema, merged(task.root, schema, task.inputs, alloc)) };
    // chunks joined here: a column the caller's cache will keep is joined straight into fresh shared
    // memory and sent back as it is (no second copy); the others in pooled buffers
    const kept = new Set<Data>();
    const columns = task.chunks
      ? task.chunks.map((list, i) => {
          const field = schema.fields[i]!;
          const chunks = list.map((c) => rebuild(field.type, c));
          if (!task.warm?.includes(field.name)) return concatData(field.type, chunks, alloc);
          const joined = concatData(field.type, chunks, sharedBuffer);
          if (joined !== chunks[0]) kept.add(joined);
          return joined;
        })
      : task.columns
        ? task.columns.map((c, i) => rebuild(schema.fields[i]!.type, c))
        : merged(task.root, schema, task.inputs ?? [], alloc);
    const encoded = await writeEncoded(task.root, task.file, task.id, schema, columns, task.known);
    // in fresh shared memory: the caller's cache keeps them; this thread's pooled buffers are reused
    // (a lone chunk, the caller's own, is copied: the caller may reuse its buffers)
    const warm = (task.warm ?? []).map((name) => {
      const column = columns[schema.fields.findIndex((f) => f.name === name)]!;
      return share(column, !kept.has(column));
    });
    return warm.length > 0 ? { ok: encoded, warm } : { ok: encoded };
  } catch (e) {
    if (!isHaloclineError(e)) throw e;
    const { name: _name, code, ...context } = { ...e };
    return { error: { code, message: e.message, context } };
  } finally {
    lease.release();
  }
}

// the live rows of the inputs' columns joined in order, read with synchronous calls on this thread
// into buffers from `alloc`, joined into buffers from `alloc`
function merged(root: string, schema: Schema, inputs: readonly MergeInput[], alloc: (bytes: number) => SharedArrayBuffer): Data[] {
  const read: { p: MergeInput; fd: number }[] = [];
  try {
    for (const p of inputs) read.push({ p, fd: openInput(root, p.file) });
    for (const { p, fd } of read) checkPrefix(readAt(fd, 0, PREFIX_BYTES, p.file), p.file, isChecksummed(p.segments));
    // the rows each input keeps, found once for all its columns
    const live = new Map(inputs.flatMap((p) => (p.deleted ? [[p, survivors(p.deleted, p.rows)] as const] : [])));
    return schema.fields.map((f) =>
      concatData(
        f.type,
        read.map(({ p, fd }) => {
          const seg = p.segments.find((s) => s.name === f.name);
          if (!seg) throw new HaloclineError('Corrupt', `partition file ${p.file} has no column "${f.name}"`, { column: f.name, path: p.file });
          // checked against its CRC before it is decoded: a damaged input fails the merge, nothing is written
          const bytes = readAt(fd, seg.offset, seg.length, p.file, alloc);
          checkSegment(bytes, seg, p.file);
          const data = decodeSegment(bytes, p.file, f.name, seg.crc !== undefined);
          if (data.length !== p.rows) throw new HaloclineError('Corrupt', `${p.file}: column "${f.name}" has ${data.length} rows, expected ${p.rows}`, { column: f.name, path: p.file });
          const keep = live.get(p);
          return keep ? resultData(f.type, keep.length, gather(taskColumn(data), keep, keep.length)) : data;
        }),
        alloc,
      ),
    );
  } finally {
    for (const { fd } of read) closeSync(fd);
  }
}

function openInput(root: string, file: string): number {
  try {
    return openSync(join(root, file), 'r');
  } catch (e) {
    throw new HaloclineError('Corrupt', `cannot open data file ${file}: ${(e as Error).message}`, { path: file });
  }
}

function readAt(fd: number, offset: number, length: number, file: string, alloc?: (bytes: number) => SharedArrayBuffer): Uint8Array {
  const out = alloc ? new Uint8Array(alloc(length), 0, length) : new Uint8Array(length);
  for (let done = 0; done < length; ) {
    const n = readSync(fd, out, done, length - done, offset + done);
    if (n === 0) throw new HaloclineError('Corrupt', `partition file ${file} is truncated at ${offset + done}`, { path: file });
    done += n;
  }
  return out;
}

let last: { bytes: Uint8Array; schema: Schema } | null = null;

function schemaOf(bytes: Uint8Array): Schema {
  if (last && Buffer.compare(last.bytes, bytes) === 0) return last.schema;
  last = { bytes, schema: decodeSchema(bytes) };
  return last.schema;
}
