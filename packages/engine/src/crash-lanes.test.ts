// Kill -9 one of two processes committing to one table at once: the other carries on, no acknowledged commit of either is lost.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from './index.js';
import { bundleChild, countBatches, describeBatch, killedOnly, onLines, rowsOf, startChild } from './test-util/crash.js';
import { expectNoOrphans, expectNoOrphansOf } from './test-util/orphans.js';
import { labelled, seededRandom, soakInt, soakTimeout } from './test-util/soak.js';
import { tempDir } from './test-util/tmp.js';

const LANES = 2;
// soak runs set these (test-util/soak.ts): a twelfth of the single-process test's kills
const KILLS = Math.ceil(soakInt('HALOCLINE_SOAK_KILLS', 50) / 12);
const SEED = soakInt('HALOCLINE_SOAK_SEED', 12345);
let bundle = '';
const dirs: Array<() => Promise<void>> = [];
// the batch each child of a lane began with (it goes on from the last one of its lane it sees), for failures' messages
const starts: number[][] = Array.from({ length: LANES }, () => []);
beforeAll(async () => {
  bundle = await bundleChild('crash-lanes');
});
afterAll(async () => Promise.all(dirs.map((r) => r())));

/** A running child: its last acknowledged batch (-Infinity before the first), its file token, its first commit, its death. */
interface Lane {
  readonly proc: ChildProcess;
  last: number;
  token: string;
  readonly ready: Promise<void>;
  readonly killed: Promise<void>;
}

it(`keeps both writers' acknowledged commits when one of two is killed, ${KILLS} times (seed ${SEED})`, async () => {
  const dir = await tempDir();
  dirs.push(dir.remove);
  const random = seededRandom(SEED);
  // lane l writes batches l, l + 2, ...: none yet is l - 2
  let acked = [-2, -1];
  // one child writes on the part writer thread, the other inline
  const lanes = [launch(dir.path, 0, 1), launch(dir.path, 1, 0)];
  try {
    for (let k = 0; k < KILLS; k++) {
      const lane = k % LANES;
      const victim = lanes[lane]!;
      await victim.ready;
      const ms = random() * 200;
      await new Promise((r) => setTimeout(r, ms));
      const survivor = lanes[1 - lane]!;
      victim.proc.kill('SIGKILL');
      await victim.killed;
      // what the survivor acknowledged before the store is opened below is durable
      const seen = lanes.map((l, i) => Math.max(acked[i]!, l.last));
      acked = await labelled(`seed ${SEED}, kill ${k} of lane ${lane} (${ms.toFixed(1)} ms after its first commit)`, async () => {
        const now = await verify(dir.path, seen, lane);
        await expectNoOrphansOf(dir.path, victim.token); // the open removed what the dead one was writing
        return now;
      });
      lanes[lane] = launch(dir.path, lane, k % 2);
      expect(survivor.proc.exitCode, `lane ${1 - lane} carried on`).toBe(null);
    }
  } finally {
    for (const l of lanes) l.proc.kill('SIGKILL');
  }
  await Promise.all(lanes.map((l) => l.killed));
  await labelled(`seed ${SEED}, both killed`, async () => {
    await verify(dir.path, lanes.map((l, i) => Math.max(acked[i]!, l.last)), null);
    await expectNoOrphans(dir.path);
  });
}, soakTimeout(60_000, 5, KILLS));

// starts lane `lane`'s child and lets it go at once
function launch(path: string, lane: number, workers: number): Lane {
  const proc = startChild(bundle, path, workers, lane, LANES);
  let started = () => {};
  const state: Lane = {
    proc,
    last: Number.NEGATIVE_INFINITY,
    token: '',
    ready: new Promise<void>((r) => (started = r)),
    killed: killedOnly(proc, `lane ${lane}'s child`),
  };
  onLines(proc, (word, n) => {
    if (word === 'start') starts[lane]!.push(Number(n));
    if (word === 'ack') state.last = Number(n);
    if (word === 'ready') started();
    if (word === 'token') state.token = n;
  });
  proc.stdin!.write('go\n');
  return state;
}

// checks each lane's batches with another process (or none) writing: no acknowledged commit lost, at
// most one unacknowledged one of the `dead` lane, every commit whole; returns each lane's last batch
async function verify(path: string, acked: readonly number[], dead: number | null): Promise<number[]> {
  const store = await openStore({ path, workers: 0 });
  try {
    const counts = await countBatches(store);
    const lasts: number[] = [];
    // every lane's wrong batches, for one message: a lost or misdirected delete may show in the other lane
    const problems: string[] = [];
    for (const [lane, floor] of acked.entries()) {
      const mine = [...counts.keys()].filter((b) => b % LANES === lane);
      const last = Math.max(lane - LANES, ...mine);
      expect(last, `lane ${lane}'s last batch`).toBeGreaterThanOrEqual(floor);
      if (lane === dead || dead === null) expect(last, `lane ${lane}'s last batch`).toBeLessThanOrEqual(floor + LANES);
      // every batch whose count is wrong, for the message: a lost commit leaves its batch missing and the one it deleted from whole
      const wrong = [];
      for (let b = lane; b <= last; b += LANES) if (counts.get(b) !== rowsOf(b, last, LANES)) wrong.push(b);
      if (wrong.length > 0) {
        const each = wrong.map((b) => `${b}: ${counts.get(b) ?? 'none'} rows, not ${rowsOf(b, last, LANES)}`);
        problems.push(`lane ${lane} (last ${last}; its children started at batches ${starts[lane]!.join(', ')}): ${each.join('; ')}; batch ${wrong[0]}: ${await describeBatch(store, wrong[0]!)}`);
      }
      lasts.push(last);
    }
    expect(problems, `batches with wrong counts: ${problems.join(' | ')}`).toEqual([]);
    return lasts;
  } finally {
    await store.close();
  }
}
