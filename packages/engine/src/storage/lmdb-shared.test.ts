import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-util/tmp.js';
import { openShared } from './lmdb-shared.js';

const child = fileURLToPath(new URL('../test-util/reopen-child.ts', import.meta.url));

describe('shared LMDB handles', () => {
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
