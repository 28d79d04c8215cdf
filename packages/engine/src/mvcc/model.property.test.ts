// Model test: random interleavings of concurrent transactions against a serial in-memory model.
import fc from 'fast-check';
import { Field, Int32, Schema } from 'apache-arrow';
import { afterAll, expect, it } from 'vitest';
import { isHaloclineError, type Table, type Transaction } from '../index.js';
import type { StoreContext } from '../context.js';
import { openSnapshot } from '../read/snapshot.js';
import { checkParams, soakTimeout } from '../test-util/soak.js';
import { withStore } from '../test-util/store.js';
import { compactOnce } from '../write/compact.js';

type Pred = { readonly op: '<' | '=='; readonly c: number };
type Cmd =
  | { readonly kind: 'begin' | 'commit' | 'rollback'; readonly slot: number }
  | { readonly kind: 'insert'; readonly slot: number | null; readonly vs: readonly number[] }
  | { readonly kind: 'delete' | 'select'; readonly slot: number | null; readonly pred: Pred }
  | { readonly kind: 'replace'; readonly slot: number; readonly pred: Pred; readonly delta: number }
  | { readonly kind: 'compact' };

const SLOTS = 3;
const pred = fc.record({ op: fc.constantFrom<'<' | '=='>('<', '=='), c: fc.integer({ min: 0, max: 6 }) });
const slot = fc.integer({ min: 0, max: SLOTS - 1 });
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant<'begin'>('begin'), slot }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constantFrom<'commit' | 'rollback'>('commit', 'commit', 'commit', 'rollback'), slot }), weight: 3 },
  {
    arbitrary: fc.record({ kind: fc.constant<'insert'>('insert'), slot: fc.option(slot, { freq: 4 }), vs: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 6 }) }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constantFrom<'delete' | 'select'>('delete', 'select'), slot: fc.option(slot, { freq: 4 }), pred }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant<'replace'>('replace'), slot, pred, delta: fc.integer({ min: 1, max: 3 }) }), weight: 2 },
  // every merge due now (background compaction also runs, when it gets the chance): invisible to the model
  { arbitrary: fc.record({ kind: fc.constant<'compact'>('compact') }), weight: 2 },
);
let conflicts = 0;

/** The serial model: committed rows by id, and per transaction its base, own rows and deletions. */
interface ModelTx {
  readonly began: number;
  readonly base: Map<number, number>;
  readonly own: Map<number, number>;
  readonly deleted: Set<number>;
}

const matches = (p: Pred, v: number) => (p.op === '<' ? v < p.c : v === p.c);
const filterOf = (p: Pred) => `v ${p.op} ${p.c}`;
const sorted = (m: Iterable<[number, number]>) => [...m].sort((a, b) => a[0] - b[0]);

function view(tx: ModelTx): Map<number, number> {
  const out = new Map<number, number>();
  for (const [id, v] of tx.base) if (!tx.deleted.has(id)) out.set(id, v);
  for (const [id, v] of tx.own) if (!tx.deleted.has(id)) out.set(id, v);
  return out;
}

// with `index` on v, background compaction does k-d split merges (rows reordered, forwarded row by row);
// spilling, transactions write their inserted rows on the part writer before commit (every 4 rows)
it.each([
  ['', 50],
  [' (index on v: k-d split merges)', 30],
  [' (spilling: inserts written before commit)', 10],
])('concurrent transactions behave like the serial model%s', async (label, numRuns) => {
  const indexed = label.includes('index');
  const spilling = label.includes('spilling') ? { workers: 1, spillRows: 4 } : {};
  await fc.assert(
    fc.asyncProperty(fc.array(cmd, { minLength: 20, maxLength: 50 }), async (cmds) => {
      // one store per run, closed when it ends: fast-check's runs are one vitest test, whose end is too late for hundreds of stores
      await withStore({ partitionRows: 16, compactRun: 2, ...spilling }, async (store) => {
        const t = store.table('m');
        const meta = indexed ? new Map([['index', 'true']]) : undefined;
        await t.create(new Schema([new Field('id', new Int32(), false), new Field('v', new Int32(), false, meta)]));
        const committed = new Map<number, number>();
        const deletedAt = new Map<number, number>(); // id → commit number that deleted it
        let commits = 0;
        let nextId = 1;
        const seed = Array.from({ length: 40 }, (_, i) => ({ id: nextId++, v: i % 6 }));
        await t.insert(seed);
        for (const r of seed) committed.set(r.id, r.v);
        const txs: (ModelTx | null)[] = Array(SLOTS).fill(null);
        const real: (Transaction | null)[] = Array(SLOTS).fill(null);

        const commitModel = (tx: ModelTx) => {
          const conflict = [...tx.deleted].some((id) => tx.base.has(id) && (deletedAt.get(id) ?? -1) > tx.began);
          if (conflict) {
            conflicts++;
            return false;
          }
          commits++;
          for (const id of tx.deleted) if (committed.delete(id)) deletedAt.set(id, commits);
          for (const [id, v] of tx.own) if (!tx.deleted.has(id)) committed.set(id, v);
          return true;
        };
        const readAll = async (target: Table | Transaction, p: Pred) =>
          sorted((await target.select(filterOf(p)).all()).map((r) => [r.id as number, r.v as number] as [number, number]));

        const ctx = (t as unknown as { ctx: StoreContext }).ctx;
        for (const c of cmds) {
          if (c.kind === 'compact') {
            const snap = openSnapshot(ctx, 'm');
            snap.release();
            while (await compactOnce(ctx, 'm', snap.record.id));
            continue;
          }
          const s = c.slot;
          const mtx = s === null ? null : txs[s]!;
          const rtx = s === null ? null : real[s]!;
          if (c.kind === 'begin') {
            if (txs[c.slot]) continue;
            txs[c.slot] = { began: commits, base: new Map(committed), own: new Map(), deleted: new Set() };
            real[c.slot] = await t.begin();
          } else if (c.kind === 'commit' || c.kind === 'rollback') {
            if (!mtx || !rtx) continue;
            txs[c.slot] = null;
            real[c.slot] = null;
            if (c.kind === 'rollback') {
              await rtx.rollback();
              continue;
            }
            const ok = commitModel(mtx);
            const got = await rtx.commit().then(
              () => true,
              (e) => (isHaloclineError(e, 'Conflict') ? false : Promise.reject(e)),
            );
            expect(got, 'commit outcome').toBe(ok);
          } else if (s !== null && (!mtx || !rtx)) {
            continue;
          } else if (c.kind === 'insert') {
            const rows = c.vs.map((v) => ({ id: nextId++, v }));
            if (mtx && rtx) {
              for (const r of rows) mtx.own.set(r.id, r.v);
              await rtx.insert(rows);
            } else {
              commits++;
              for (const r of rows) committed.set(r.id, r.v);
              await t.insert(rows);
            }
          } else if (c.kind === 'delete') {
            const expected = [...(mtx ? view(mtx) : committed)].filter(([, v]) => matches(c.pred, v)).map(([id]) => id);
            if (mtx && rtx) {
              for (const id of expected) mtx.deleted.add(id);
              expect(await rtx.delete(filterOf(c.pred))).toBe(expected.length);
            } else {
              const n = await t.transaction(async (tx) => tx.delete(filterOf(c.pred)));
              expect(n).toBe(expected.length);
              commits++;
              for (const id of expected) if (committed.delete(id)) deletedAt.set(id, commits);
            }
          } else if (c.kind === 'select') {
            const expected = sorted([...(mtx ? view(mtx) : committed)].filter(([, v]) => matches(c.pred, v)));
            expect(await readAll(rtx ?? t, c.pred)).toEqual(expected);
            if (!rtx) expect((await t.stats()).num_rows).toBe(committed.size);
          } else if (c.kind === 'replace') {
            const m = mtx!;
            const matched = [...view(m)].filter(([, v]) => matches(c.pred, v));
            for (const [id, v] of matched) {
              m.deleted.add(id);
              m.own.set(id + 100_000, v + c.delta);
            }
            const seen: number[] = [];
            for await (const old of rtx!.replace(filterOf(c.pred))) {
              seen.push(old.id as number);
              await rtx!.insert({ id: (old.id as number) + 100_000, v: (old.v as number) + c.delta });
            }
            expect(seen.sort((a, b) => a - b)).toEqual(matched.map(([id]) => id).sort((a, b) => a - b));
          }
        }
        for (const r of real) if (r) await r.rollback();
        expect(await readAll(t, { op: '<', c: 1000 })).toEqual(sorted(committed));
      });
    }),
    checkParams(numRuns),
  );
}, soakTimeout(120_000, 10, checkParams(10).numRuns!)); // the spilling variant's 10 runs take longest

afterAll(() => {
  if (checkParams(50).numRuns! < 50) return; // a soak run replaying one counterexample
  expect(conflicts, 'the generated interleavings exercise conflicts').toBeGreaterThanOrEqual(3); // about 16 expected over both
});
