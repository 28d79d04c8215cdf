import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-util/tmp.js';
import { checkReaders, openShared } from './lmdb-shared.js';

const child = fileURLToPath(new URL('../test-util/reopen-child.ts', import.meta.url));

describe('shared LMDB handles', () => {
  // a process killed holding a read snapshot pins every page freed after it: the data file grows by
  // each commit's copies until its slot is cleared (lmdb-js itself does so only at an open, or every 10 minutes on a write)
  it('clear the reader slot of a process killed holding a snapshot, so freed pages are reused again', async () => {
    const dir = await tempDir();
    try {
      const a = await openShared<string>(dir.path, {});
      await a.db.put('k', 'x'.repeat(2000));
      const lmdb = pathToFileURL(createRequire(import.meta.url).resolve('lmdb')).href;
      const script = `const { open } = await import(${JSON.stringify(lmdb)}); const db = open({ path: ${JSON.stringify(dir.path)} }); db.get('k'); process.stdout.write('holding\\n'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000);`;
      const proc = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        proc.stdout.on('data', (d: Buffer) => { if (d.toString().includes('holding')) resolve(); });
        proc.on('exit', (code) => reject(new Error(`the reader exited with ${code}`)));
      });
      proc.kill('SIGKILL');
      await new Promise((r) => proc.on('exit', r));
      const pages = () => (a.db.getStats() as { lastPageNumber: number }).lastPageNumber;
      const before = pages();
      for (let i = 0; i < 50; i++) await a.db.put('k', `${i}`.repeat(2000));
      const pinned = pages();
      expect(pinned - before).toBeGreaterThan(50); // the dead reader's snapshot held every freed page
      expect(checkReaders()).toBe(1);
      expect(checkReaders()).toBe(0);
      for (let i = 0; i < 200; i++) await a.db.put('k', `${i}`.repeat(2000));
      // with the slot cleared, the 200 commits reuse freed pages: the file grows by far less than the 50 pinned ones made it
      expect(pages() - pinned).toBeLessThan(20);
      await a.release();
    } finally {
      await dir.remove();
    }
  }, 30_000);

  it('give every use in a process one handle, closed with its last use', async () => {
    const dir = await tempDir();
    try {
      const a = await openShared<number>(dir.path, { encoding: 'json' });
      const b = await openShared<number>(`${dir.path}/./`, { encoding: 'json' });
      expect(b.db).toBe(a.db);
      await expect(openShared(dir.path, { encoding: 'binary' })).rejects.toThrow(/other options/);
      await a.db.put('k', 1);
      await a.release();
      await a.release(); // a second release of one use is a no-op
      expect(b.db.get('k')).toBe(1);
      const closing = b.release();
      const c = await openShared<number>(dir.path, { encoding: 'json' }); // waits for the close, then opens afresh
      await closing;
      expect(c.db).not.toBe(a.db);
      expect(c.db.get('k')).toBe(1);
      await c.release();
    } finally {
      await dir.remove();
    }
  });

  // a second lmdb-js open() of the environment here would block this thread on the write lock that the
  // first handle's write thread holds while it waits for this thread: run it in a child, killed on a hang
  it('open a store a second time while a write of the first holds the lock, without deadlock', async () => {
    const dir = await tempDir();
    try {
      const out = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const proc = spawn(process.execPath, ['--import', 'tsx', child, dir.path], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
        proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
        const timer = setTimeout(() => {
          err += 'deadlocked: killed after 30 s';
          proc.kill('SIGKILL');
        }, 30_000);
        proc.on('exit', (code) => {
          clearTimeout(timer);
          resolve({ code, out, err });
        });
      });
      expect(out.err).toBe('');
      expect(out).toMatchObject({ code: 0, out: 'done\n' });
    } finally {
      await dir.remove();
    }
  }, 45_000);
});
