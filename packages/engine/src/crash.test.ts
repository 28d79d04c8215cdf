// Kill -9 at random moments while committing transactions and compacting: the table is always before or after a commit.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from './index.js';
import { countBatches, bundleChild, describeBatch, killedOnly, onLines, rowsOf, startChild } from './test-util/crash.js';
import { expectNoOrphans } from './test-util/orphans.js';
import { labelled, seededRandom, soakInt, soakTimeout } from './test-util/soak.js';
import { tempDir } from './test-util/tmp.js';

// soak runs set these (test-util/soak.ts); CI's are the defaults
const KILLS = soakInt('HALOCLINE_SOAK_KILLS', 50);
const SEED = soakInt('HALOCLINE_SOAK_SEED', 12345);
let bundle = '';
const start = (path: string, workers: number) => startChild(bundle, path, workers);

describe('crash safety', () => {
  const dirs: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    bundle = await bundleChild('crash');
  });
  afterAll(async () => Promise.all(dirs.map((r) => r())));

  it(`loses no acknowledged commit and shows no partial one across ${KILLS} kill -9 (seed ${SEED})`, async () => {
    const dir = await tempDir();
    dirs.push(dir.remove);
    let acked = -1;
    const random = seededRandom(SEED);
    let next = start(dir.path, 0);
    let progress = 0;
    let late = 0;
    try {
      for (let k = 0; k < KILLS; k++) {
        const child = next;
        // every fifth kill counts from the go instead of the first commit: it lands in the open (orphan
        // removal, garbage collection of the last child's old versions, the part writer's start) or the first commit
        const early = k % 5 === 4;
        const ms = random() * (early ? 150 : 200);
        const when = `seed ${SEED}, kill ${k} (${ms.toFixed(1)} ms after ${early ? 'go' : 'ready'})`;
        const last = await labelled(when, () => runAndKill(child, ms, early));
        next = start(dir.path, (k + 1) % 2); // loads its modules while this one is checked; every other child writes on the part writer thread
        if (!early) late++;
        progress += Math.max(0, last - acked);
        acked = await labelled(`after ${when}`, () => verify(dir.path, Math.max(acked, last)));
      }
    } finally {
      next.kill('SIGKILL');
    }
    expect(progress, `seed ${SEED}`).toBeGreaterThan(late); // the children made real progress between kills
  }, soakTimeout(300_000, 50, KILLS));
});

// lets the child go and kills it with SIGKILL `ms` after it is ready (`early`: after the go); returns the last acknowledged commit
function runAndKill(proc: ChildProcess, ms: number, early: boolean): Promise<number> {
  let last = -1;
  onLines(proc, (word, n) => {
    if (word === 'ready' && !early) setTimeout(() => proc.kill('SIGKILL'), ms);
    if (word === 'ack') last = Number(n);
  });
  // after 'close': a commit acknowledged but not read would look like a second unacknowledged one
  const dead = killedOnly(proc, 'the child').then(() => last);
  proc.stdin!.write('go\n');
  if (early) setTimeout(() => proc.kill('SIGKILL'), ms);
  return dead;
}

// checks the store after a kill; returns the last commit now in it (durable from here on)
async function verify(path: string, acked: number): Promise<number> {
  const store = await openStore({ path, workers: 0 });
  let last: number;
  try {
    const counts = await countBatches(store);
    // the last commit is the acknowledged one or the one after it (committed, not yet acknowledged)
    last = Math.max(-1, ...counts.keys());
    expect([acked, acked + 1]).toContain(last);
    // commit c inserted batch c whole and deleted the odd rows of batch c - 2, all or nothing
    for (let b = 0; b <= last; b++) {
      if (counts.get(b) !== rowsOf(b, last)) expect(counts.get(b), `batch ${b} of ${last}: ${await describeBatch(store, b)}`).toBe(rowsOf(b, last));
    }
  } finally {
    await store.close();
  }
  await expectNoOrphans(path);
  return last;
}
