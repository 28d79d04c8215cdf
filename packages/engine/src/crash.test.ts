// Kill -9 at random moments while committing transactions and compacting: the table is always before or after a commit.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from './index.js';
import { expectNoOrphans } from './test-util/orphans.js';
import { labelled, soakInt, soakTimeout } from './test-util/soak.js';
import { tempDir } from './test-util/tmp.js';

const ROWS = 400;
// soak runs set these (test-util/soak.ts); CI's are the defaults
const KILLS = soakInt('HALOCLINE_SOAK_KILLS', 50);
const SEED = soakInt('HALOCLINE_SOAK_SEED', 12345);
const source = fileURLToPath(new URL('./test-util/crash-child.ts', import.meta.url));
// bundled once (packages external, resolved from the package's node_modules): a child starts in a
// fraction of the time tsx needs, which keeps 50 kills within tens of seconds
const bundle = fileURLToPath(new URL('../node_modules/.cache/halocline/crash-child.js', import.meta.url));
// the child runs a scan worker and the part writer thread: their entries are bundled beside it
const entries = { 'crash-child': source, worker: fileURLToPath(new URL('./exec/worker.ts', import.meta.url)), 'part-worker': fileURLToPath(new URL('./write/part-worker.ts', import.meta.url)) };

describe('crash safety', () => {
  const dirs: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    await mkdir(join(bundle, '..'), { recursive: true });
    await writeFile(join(bundle, '..', 'package.json'), '{ "type": "module" }\n');
    await build({ entryPoints: entries, bundle: true, platform: 'node', format: 'esm', packages: 'external', outdir: join(bundle, '..'), logLevel: 'silent' });
  });
  afterAll(async () => Promise.all(dirs.map((r) => r())));

  it(`loses no acknowledged commit and shows no partial one across ${KILLS} kill -9 (seed ${SEED})`, async () => {
    const dir = await tempDir();
    dirs.push(dir.remove);
    let acked = -1;
    let seed = SEED;
    // a 31-bit LCG in exact integer arithmetic (Math.imul: the product of two such numbers is beyond a double's 53 bits)
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 2 ** 31;
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

function start(path: string, workers: number): ChildProcess {
  const proc = spawn(process.execPath, [bundle, path, String(ROWS), String(workers)], { stdio: ['pipe', 'pipe', 'pipe'] });
  proc.on('error', () => undefined);
  return proc;
}

// lets the child go and kills it with SIGKILL `ms` after it is ready (`early`: after the go); returns the last acknowledged commit
function runAndKill(proc: ChildProcess, ms: number, early: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    let last = -1;
    let buffered = '';
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [word, n] = line.split(' ');
        if (word === 'ready' && !early) setTimeout(() => proc.kill('SIGKILL'), ms);
        if (word === 'ack') last = Number(n);
      }
    });
    proc.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(last) : reject(new Error(`child exited without being killed: ${stderr}`))));
    proc.stdin!.write('go\n');
    if (early) setTimeout(() => proc.kill('SIGKILL'), ms);
  });
}

// checks the store after a kill; returns the last commit now in it (durable from here on)
async function verify(path: string, acked: number): Promise<number> {
  const store = await openStore({ path, workers: 0 });
  let last: number;
  try {
    const counts = new Map<number, number>();
    for await (const b of store.table('obs').select(undefined, { cols: ['batch'] }).batches()) {
      const col = b.getChild('batch')!.toArray() as Int32Array;
      for (const v of col) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    // the last commit is the acknowledged one or the one after it (committed, not yet acknowledged)
    last = Math.max(-1, ...counts.keys());
    expect([acked, acked + 1]).toContain(last);
    // commit c inserted batch c whole and deleted the odd rows of batch c - 2, all or nothing
    for (let b = 0; b <= last; b++) expect(counts.get(b), `batch ${b} of ${last}`).toBe(b <= last - 2 ? ROWS / 2 : ROWS);
  } finally {
    await store.close();
  }
  await expectNoOrphans(path);
  return last;
}
