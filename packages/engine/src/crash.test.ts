// Kill -9 at random moments while inserting and compacting: the table is always before or after an insert.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open as openLmdb } from 'lmdb';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from './index.js';
import { tempDir } from './test-util/tmp.js';

const ROWS = 500;
const KILLS = 20;
const child = fileURLToPath(new URL('./test-util/crash-child.ts', import.meta.url));

describe('crash safety', () => {
  const dirs: Array<() => Promise<void>> = [];
  afterAll(async () => Promise.all(dirs.map((r) => r())));

  it(`loses no acknowledged insert and shows no partial one across ${KILLS} kill -9`, async () => {
    const dir = await tempDir();
    dirs.push(dir.remove);
    let acked = -1;
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let k = 0; k < KILLS; k++) {
      acked = Math.max(acked, await runAndKill(dir.path, 30 + random() * 400));
      await verify(dir.path, acked);
    }
    expect(acked).toBeGreaterThan(KILLS); // the child made real progress between kills
  });
});

// starts the child, kills it with SIGKILL `ms` after it is ready; returns the last acknowledged batch
function runAndKill(path: string, ms: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, path, String(ROWS)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let last = -1;
    let buffered = '';
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [word, n] = line.split(' ');
        if (word === 'ready') setTimeout(() => proc.kill('SIGKILL'), ms);
        if (word === 'ack') last = Number(n);
      }
    });
    proc.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(last) : reject(new Error(`child exited without being killed: ${stderr}`))));
  });
}

async function verify(path: string, acked: number): Promise<void> {
  const store = await openStore({ path, workers: 0 });
  try {
    const counts = new Map<number, number>();
    for await (const b of store.table('obs').select(undefined, { cols: ['batch'] }).batches()) {
      const col = b.getChild('batch')!.toArray() as Int32Array;
      for (const v of col) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    // every acknowledged batch is whole; at most one more (committed but not yet acknowledged) is whole too
    for (let b = 0; b <= acked; b++) expect(counts.get(b), `batch ${b}`).toBe(ROWS);
    for (const [b, n] of counts) {
      expect(n, `batch ${b} is partial`).toBe(ROWS);
      expect(b).toBeLessThanOrEqual(acked + 1);
    }
  } finally {
    await store.close();
  }
  await expectNoOrphans(path);
}

async function expectNoOrphans(path: string): Promise<void> {
  const db = openLmdb<Buffer, string>({ path: join(path, 'meta'), encoding: 'binary', readOnly: true });
  const referenced = new Set<string>();
  for (const { value } of db.getRange({ start: 'p/', end: 'p/\uffff' })) referenced.add(JSON.parse(value.toString()).file);
  await db.close();
  const files = (await readdir(join(path, 'parts'), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join('parts', e.parentPath.slice(join(path, 'parts').length + 1), e.name));
  expect(files.sort()).toEqual([...referenced].sort());
}
