// Spills: a transaction's inserted rows written before commit, committed as written, removed when not committed.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { Field, Float64, Int32, type RecordBatch, Schema, tableFromArrays } from 'apache-arrow';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openStore, type Store } from '../index.js';
import { rejected } from '../test-util/errors.js';
import { checkParams } from '../test-util/soak.js';
import { expectNoOrphans } from '../test-util/orphans.js';
import { tempDir } from '../test-util/tmp.js';
import { TEMP_SUFFIX } from '../storage/localfs.js';
import type { StoreContext } from '../context.js';
import { Claim } from '../write/part-writer.js';
import { type TxState, cut, tailShare } from './tx-state.js';

const schema = new Schema([new Field('id', new Int32(), false), new Field('v', new Float64(), true)]);
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ id: from + i, v: from + i }));
const SPILL = 100;

// a store whose transactions spill every SPILL rows (one worker: the part writer exists); `files`
// lists the finished ones (a file being written is a .tmp until renamed); `check` closes the store
// and expects its files to be exactly the committed partitions
async function spillingStore(): Promise<{ store: Store; files: () => Promise<string[]>; check: () => Promise<void> }> {
  const dir = await tempDir();
  const store = await openStore({ path: dir.path, workers: 1, spillRows: SPILL, partitionRows: 1000, compactRun: 1000 });
  let closed = false;
  onTestFinished(async () => {
    if (!closed) await store.close();
    await dir.remove();
  });
  const files = async () => (await readdir(join(dir.path, 'parts'), { recursive: true, withFileTypes: true }).catch(() => [])).filter((e) => e.isFile() && !e.name.endsWith(TEMP_SUFFIX)).map((e) => e.name);
  const check = async () => {
    closed = true;
    await store.close();
    await expectNoOrphans(dir.path);
  };
  await store.table('t').create(schema);
  return { store, files, check };
}

// a store whose transactions do not spill before commit (one worker: the part writer and one scan
// worker exist), so an insert's rows are all the commit's tail; closed and removed after the test
async function unspilledStore(): Promise<{ store: Store; dir: { path: string } }> {
  const dir = await tempDir();
  const store = await openStore({ path: dir.path, workers: 1, spillRows: 1 << 30, partitionRows: 1 << 20, compactRun: 1000 });
  onTestFinished(async () => {
    await store.close();
    await dir.remove();
  });
  return { store, dir };
}

// a store with two scan workers whose transactions spill every `spillRows` rows (none by default),
// table `t` created; from then on the files this thread creates are recorded in `here` until
// `stopRecording()`
async function twoWorkerStore(spillRows = 1 << 30) {
  const dir = await tempDir();
  const store = await openStore({ path: dir.path, workers: 2, spillRows, partitionRows: 1 << 20, compactRun: 1000 });
  onTestFinished(() => dir.remove());
  const ctx = (store as unknown as { ctx: StoreContext }).ctx;
  const t = store.table('t');
  await t.create(schema);
  const create = ctx.blobs.create.bind(ctx.blobs);
  const here: string[] = [];
  ctx.blobs.create = (path) => {
    here.push(path);
    return create(path);
  };
  return { store, dir, writer: ctx.partWriter!, t, here, stopRecording: () => (ctx.blobs.create = create) };
}

const ids = async (store: Store, filter?: string) => ((await store.table('t').select(filter).all()).map((r) => r.id as number)).sort((a, b) => a - b);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

type PartWrite = { claim?: Int32Array };

/**
 * Wraps the store's part writer: every write of a partition file (joined columns, or chunks the
 * thread joins) is recorded (its row count in `asked`) and shown to `hold` (with its index), and
 * waits for `release()` when `hold` says so; `release` also unwraps.
 */
function interceptWrites(store: Store, hold: (part: PartWrite, k: number) => boolean): { asked: number[]; release: () => void } {
  const writer = (store as unknown as { ctx: StoreContext }).ctx.partWriter!;
  const write = writer.write.bind(writer);
  const writeChunks = writer.writeChunks.bind(writer);
  let open = () => {};
  const held = new Promise<void>((r) => (open = r));
  const asked: number[] = [];
  const seen = async (part: PartWrite, rows: number) => {
    asked.push(rows);
    if (hold(part, asked.length - 1)) await held;
  };
  writer.write = async (part) => {
    await seen(part, part.columns[0]!.length);
    return write(part);
  };
  writer.writeChunks = async (part) => {
    await seen(part, part.chunks[0]!.reduce((n, c) => n + c.length, 0));
    return writeChunks(part);
  };
  return {
    asked,
    release: () => {
      open();
      writer.write = write;
      writer.writeChunks = writeChunks;
    },
  };
}

describe('transaction spills', () => {
  it('writes inserted rows before commit, invisible to others, and commits those files', async () => {
    const { store, files, check } = await spillingStore();
    const t = store.table('t');
    const tx = await t.begin();
    for (let i = 0; i < 5; i++) await tx.insert(rows(60 * i, 60 * (i + 1)));
    for (let i = 300; i < 350; i++) await tx.insert({ id: i, v: i }); // staged rows spill too
    await store.idle();
    // every spill written, and known to be (a spill still in flight at commit may be written again
    // on the committing thread, its first file removed: under load its reply can lag its file)
    const state = (tx as unknown as { data: TxState }).data;
    while (state.spillInFlight) await new Promise((r) => setTimeout(r, 5));
    const spilled = await files();
    expect(spilled.length).toBeGreaterThan(0);
    expect(await t.select().count()).toBe(0); // written, not committed
    expect(await tx.select('id >= 290').count()).toBe(60);
    await tx.commit();
    expect(await ids(store)).toEqual(range(0, 350));
    expect(await files()).toEqual(expect.arrayContaining(spilled)); // committed as written
    await check();
  });

  it('removes the written files on rollback, on a failed commit, and when rows of a spill were deleted again', async () => {
    const { store, files, check } = await spillingStore();
    const t = store.table('t');
    await t.insert(rows(0, 10));
    const before = await files();
    const rolled = await t.begin();
    await rolled.insert(rows(1000, 1250));
    await rolled.rollback();
    // a conflict: both delete row 0, the first commit wins, the second's spilled files go
    const a = await t.begin();
    const b = await t.begin();
    await b.insert(rows(2000, 2250));
    await a.delete('id == 0');
    await b.delete('id == 0');
    await a.commit();
    await rejected('Conflict', b.commit());
    await store.idle();
    expect(await files()).toEqual(before); // a's delete is a record, not a file
    // rows of a spill deleted and replaced in the same transaction: the spill's file cannot serve
    await t.transaction(async (tx) => {
      await tx.insert(rows(3000, 3250));
      expect(await tx.delete('id >= 3000 and id < 3010')).toBe(10);
      for await (const old of tx.replace('id >= 3240')) await tx.insert({ ...old, v: -1 });
    });
    expect(await ids(store)).toEqual([...range(1, 10), ...range(3010, 3250)]);
    expect(await t.select('v == -1').count()).toBe(10);
    await check();
  });

  it.each(['queued', 'started'])('writes a spill the part writer has not finished (%s) at commit on the committing thread, and leaves no second copy', async (when) => {
    const { store, files, check } = await spillingStore();
    const writer = (store as unknown as { ctx: StoreContext }).ctx.partWriter!;
    const write = writer.write.bind(writer);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    // the writer thread is busy elsewhere: a spill's write waits until released; 'started' claims it
    // first, as the thread does when it takes the task (then it cannot be taken back: both write)
    writer.write = async (part) => {
      if (when === 'started') expect(Claim.start(part.claim!)).toBe(true);
      await held;
      return write(part);
    };
    const t = store.table('t');
    await t.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) await tx.insert(rows(100 * i, 100 * (i + 1)));
    });
    expect(await ids(store)).toEqual(range(0, 300)); // committed without the writer
    const committed = await files();
    release();
    writer.write = write;
    await store.idle(); // a started write's late copy is written, then removed; a queued one is not written
    expect(await files()).toEqual(committed);
    expect(await ids(store)).toEqual(range(0, 300));
    await check();
  });

  it.each([false, true])('shares a large tail at commit between the part writer and the committing thread (writer held: %s), rows in insertion order', async (hold) => {
    const { store, dir } = await unspilledStore();
    // held: the thread gets to the write only after this thread is done (taken back, Claim)
    const { asked, release } = interceptWrites(store, () => hold);
    const t = store.table('t');
    await t.create(schema);
    const n = 20_000;
    await t.transaction(async (tx) => {
      await tx.insert(rows(0, 5000));
      await tx.insert(rows(5000, n));
    });
    release();
    await store.idle();
    expect(asked).toEqual([n / 2]); // half for the part writer (which of the two threads wrote it depends on timing)
    expect((await t.select().all()).map((r) => r.id)).toEqual(range(0, n)); // two files, in order
    expect((await t.stats()).num_rows).toBe(n);
    await store.close();
    await expectNoOrphans(dir.path); // a copy written twice (raced) left no file behind
  });
});

describe('spills in chunks', () => {
  it('by default holds at least a quarter of a partition: a spill is never a delta compaction would merge again', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 1 });
    onTestFinished(async () => {
      await store.close();
      await dir.remove();
    });
    const { options } = (store as unknown as { ctx: StoreContext }).ctx;
    // compaction's pickRun counts a partition with fewer live rows than this as small
    expect(options.spillRows).toBeGreaterThanOrEqual(options.partitionRows / 4);
  });

  it('queues spills of spillRows rows (growing with what was spilled), and commit takes back those the thread has not started', async () => {
    const { store, files, check } = await spillingStore();
    // the thread is busy until released; it starts the first spill only (claims it), the others stay queued
    const { asked, release } = interceptWrites(store, (part, k) => {
      if (k === 0) expect(Claim.start(part.claim!)).toBe(true);
      return true;
    });
    const t = store.table('t');
    await t.transaction(async (tx) => {
      for (let i = 0; i < 13; i++) await tx.insert(rows(50 * i, 50 * (i + 1))); // 650 rows
    });
    // 100 rows a spill until 400 are spilled, then a quarter of those spilled: 100, 100, 100, 100, 100, 125
    expect(asked).toEqual([100, 100, 100, 100, 100, 125]);
    expect((await t.select().all()).map((r) => r.id)).toEqual(range(0, 650)); // committed without the thread, in order
    release();
    await store.idle();
    expect((await t.select().all()).map((r) => r.id)).toEqual(range(0, 650));
    // the five spills taken back were written with the tail as one file; the first (written twice) left one copy
    expect(await files()).toHaveLength(2);
    await check();
  });
});

describe('the tail shared at commit', () => {
  it('gives the part writer what evens out the rows left to write, counting the spill it is writing', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 1, spillRows: 5000, compactRun: 1000 });
    onTestFinished(() => dir.remove());
    await store.table('t').create(schema);
    // the thread is busy until released; it starts the first spill only, the others stay queued
    const { asked, release } = interceptWrites(store, (part, k) => {
      if (k === 0) expect(Claim.start(part.claim!)).toBe(true);
      return true;
    });
    const t = store.table('t');
    await t.transaction(async (tx) => {
      for (let i = 0; i < 5; i++) await tx.insert(rows(5000 * i, 5000 * (i + 1)));
    });
    // five spills of 5k; at commit the four not started come back (20k queued, 5k on the thread):
    // the thread is asked for 7.5k more, so that each side has 12.5k; this thread writes the other
    // 12.5k (fewer than HELPER_ROWS: no scan worker takes a share)
    expect(asked).toEqual([5000, 5000, 5000, 5000, 5000, 7500]);
    expect((await t.select().all()).map((r) => r.id)).toEqual(range(0, 25_000)); // committed in order, the held thread's share written here too
    release();
    await store.close();
    await expectNoOrphans(dir.path);
  });

  it('leaves the share the part writer is writing to it while it finishes within the time the committing thread took for its own', async () => {
    const dir = await tempDir();
    const store = await openStore({ path: dir.path, workers: 1, spillRows: 1 << 30, partitionRows: 1 << 20, compactRun: 1000 });
    onTestFinished(() => dir.remove());
    const t = store.table('t');
    await t.create(schema);
    // the thread writes its share at once (it claims it: it cannot be taken back), but this thread
    // learns that it finished only when `finish` is called: by then the file is complete, whatever
    // the thread's speed on a loaded machine
    const ctx = (store as unknown as { ctx: StoreContext }).ctx;
    const writer = ctx.partWriter!;
    const asked: number[] = [];
    let wrote = () => {};
    const written = new Promise<void>((r) => (wrote = r));
    let finish = () => {};
    const finished = new Promise<void>((r) => (finish = r));
    const held = <T>(part: PartWrite, rows: number, write: () => Promise<T>): Promise<T> => {
      asked.push(rows);
      expect(Claim.start(part.claim!)).toBe(true);
      const result = write();
      void result.finally(wrote);
      return result.then(async (r) => {
        await finished;
        return r;
      });
    };
    const write = writer.write.bind(writer);
    const writeChunks = writer.writeChunks.bind(writer);
    writer.write = (part) => held(part, part.columns[0]!.length, () => write(part));
    writer.writeChunks = (part) => held(part, part.chunks[0]!.reduce((n, c) => n + c.length, 0), () => writeChunks(part));
    // this thread's own share takes a second and waits for the thread's file (its commit is held
    // back); the thread's result then arrives 50 ms after this thread's share is done, within the
    // time the share took (a timer that expires before the grace's always fires before it): the
    // committing thread waits for it and writes nothing twice
    const create = ctx.blobs.create.bind(ctx.blobs);
    const here: string[] = [];
    ctx.blobs.create = async (path) => {
      here.push(path);
      const file = await create(path);
      const commit = file.commit.bind(file);
      file.commit = async () => {
        await Promise.all([new Promise((r) => setTimeout(r, 1000)), written]);
        await commit();
        setTimeout(finish, 50);
      };
      return file;
    };
    await t.transaction((tx) => tx.insert(rows(0, 20_000)));
    ctx.blobs.create = create;
    writer.write = write;
    writer.writeChunks = writeChunks;
    expect(asked).toEqual([10_000]);
    expect(here).toHaveLength(1); // its own share only
    expect((await t.select().all()).map((r) => r.id)).toEqual(range(0, 20_000));
    await store.close();
    await expectNoOrphans(dir.path);
  });

  it.each([false, true])('gives half of a very large tail to a scan worker, while the part writer merges (scan worker held: %s), rows in insertion order', async (hold) => {
    const { store, dir } = await unspilledStore();
    const writer = (store as unknown as { ctx: StoreContext }).ctx.partWriter!;
    // the part writer is merging (compaction) all along: a share sent to it would wait
    Object.defineProperty(writer, 'busyMerging', { get: () => true, configurable: true });
    const onPart = interceptWrites(store, () => false);
    // held: the scan worker gets the task only after this thread is done (taken back, Claim)
    const helper = writer.helper!;
    const shares: number[] = [];
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    writer.helper = async (task) => {
      shares.push(task.chunks![0]!.reduce((n, c) => n + c.length, 0));
      if (hold) await held;
      return helper(task);
    };
    const t = store.table('t');
    await t.create(schema);
    const n = 40_000;
    await t.transaction(async (tx) => {
      await tx.insert(rows(0, 15_000));
      await tx.insert(rows(15_000, n));
    });
    release();
    onPart.release();
    writer.helper = helper;
    await store.idle();
    expect(shares).toEqual([n / 2]); // half to the scan worker (which thread wrote it depends on timing)
    expect(onPart.asked).toEqual([n / 2]); // sent through the part writer's writeChunks, as a spill
    expect((await t.select().all()).map((r) => r.id)).toEqual(range(0, n)); // two files, in order
    expect((await t.stats()).num_rows).toBe(n);
    await store.close();
    await expectNoOrphans(dir.path); // a copy written twice (raced) left no file behind
  });

  it('gives all of a very large tail to two scan workers, an even share each, and writes nothing on this thread', async () => {
    const { store, dir, writer, t, here, stopRecording } = await twoWorkerStore();
    // each share's answer comes once both are written (when the first is in, this thread takes back
    // or races what is not finished: how fast each scan worker starts must not decide the test)
    const helper = writer.helper!;
    const shares: number[] = [];
    const replies: Promise<unknown>[] = [];
    let both = () => {};
    const written = new Promise<void>((r) => (both = r));
    writer.helper = async (task) => {
      shares.push(task.chunks![0]!.reduce((n, c) => n + c.length, 0));
      const reply = helper(task);
      replies.push(reply);
      if (replies.length === 2) void Promise.all(replies).then(both);
      await written;
      return reply;
    };
    const n = 40_001;
    await t.transaction(async (tx) => {
      for (let i = 0; i < n; i += 4000) await tx.insert(rows(i, Math.min(n, i + 4000)));
    });
    stopRecording();
    writer.helper = helper;
    expect(shares).toEqual([20_001, 20_000]);
    expect(here).toEqual([]); // the committing thread wrote no file
    expect((await t.select().all()).map((r) => r.id)).toEqual(range(0, n)); // two files, in order
    await store.close();
    await expectNoOrphans(dir.path);
  });

  it('times the scan workers’ shares by the first of them, not by an older spill the part writer finishes first', async () => {
    const { store, dir, writer, t, here, stopRecording } = await twoWorkerStore(10_000);
    // the part writer's first spill is written at once (claimed, and written before the transaction
    // goes on), but its answer comes only once the scan workers have the commit's shares; its later
    // spills wait too, so commit takes them back
    let sharesPosted = () => {};
    const posted = new Promise<void>((r) => (sharesPosted = r));
    let firstWritten = () => {};
    const written = new Promise<void>((r) => (firstWritten = r));
    const writeChunks = writer.writeChunks.bind(writer);
    let spills = 0;
    writer.writeChunks = async (part) => {
      if (part.helper) return writeChunks(part);
      if (spills++ > 0) {
        await posted;
        return writeChunks(part);
      }
      expect(Claim.start(part.claim!)).toBe(true);
      const result = writeChunks(part);
      void result.finally(firstWritten);
      await posted;
      return result;
    };
    // the scan workers answer 200 ms after both have written: well after the part writer's answer
    // (and together, so how fast each worker starts does not decide the test)
    const helper = writer.helper!;
    const replies: Promise<unknown>[] = [];
    writer.helper = async (task) => {
      const reply = helper(task);
      replies.push(reply);
      if (replies.length === 2) sharesPosted();
      await posted;
      await Promise.all(replies);
      await new Promise((r) => setTimeout(r, 200));
      return reply;
    };
    const n = 50_000;
    await t.transaction(async (tx) => {
      await tx.insert(rows(0, 10_000));
      await written;
      await tx.insert(rows(10_000, n));
    });
    stopRecording();
    writer.writeChunks = writeChunks;
    writer.helper = helper;
    expect(replies).toHaveLength(2);
    expect(here).toEqual([]); // neither share written twice
    expect((await t.select().all()).map((r) => r.id)).toEqual(range(0, n));
    await store.close();
    await expectNoOrphans(dir.path);
  });

  it('takes back a scan worker share not started when the first share is written, and writes it on this thread', async () => {
    const { store, dir, writer, t, here, stopRecording } = await twoWorkerStore();
    const helper = writer.helper!;
    // the second share waits (its worker busy elsewhere) until the commit is done: this thread takes
    // it back (Claim) once the first is written, so the commit does not wait for it
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let k = 0;
    writer.helper = async (task) => {
      if (k++ === 1) await held;
      return helper(task);
    };
    const n = 40_000;
    await t.transaction((tx) => tx.insert(rows(0, n)));
    release();
    stopRecording();
    writer.helper = helper;
    await store.idle();
    expect(k).toBe(2);
    expect(here).toHaveLength(1); // the share taken back
    expect((await t.select().all()).map((r) => r.id)).toEqual(range(0, n));
    expect((await t.stats()).num_rows).toBe(n);
    await store.close();
    await expectNoOrphans(dir.path); // the held task was cancelled: it wrote nothing
  });

  it('tailShare evens out the two threads, never negative', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), (pending, busy) => {
        const give = tailShare(pending, busy);
        expect(give).toBeGreaterThanOrEqual(0);
        expect(give).toBeLessThanOrEqual(pending);
        // the thread ends with about half of what is left to write, or only what it had
        if (busy <= pending) expect(Math.abs(busy + give - (pending - give))).toBeLessThanOrEqual(1);
        else expect(give).toBe(0);
      }),
      checkParams(100),
    );
  });
});

describe('cut', () => {
  it('cuts a list of batches after any row, slicing the batch across the cut', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 6 }), fc.nat(), (sizes, k) => {
        let next = 0;
        const batches = sizes.map((size) => tableFromArrays({ id: Int32Array.from({ length: size }, () => next++) }).batches[0]!).filter((b) => b !== undefined);
        const total = batches.reduce((m, b) => m + b.numRows, 0);
        const at = total === 0 ? 0 : k % (total + 1);
        const [before, after] = cut(batches, at);
        const ids = (bs: RecordBatch[]) => bs.flatMap((b) => [...b.getChild('id')!].map(Number));
        expect(ids(before)).toEqual(range(0, at));
        expect(ids(after)).toEqual(range(at, total));
      }),
      checkParams(200),
    );
  });
});
