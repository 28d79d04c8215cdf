import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { RECLAIM_BYTES, reclaimCount, sharedBuffer } from './shared-memory.js';

const betweenTasks = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('sharedBuffer', () => {
  it('allocates zero-filled shared memory of the size asked for', () => {
    const b = sharedBuffer(24);
    expect(b).toBeInstanceOf(SharedArrayBuffer);
    expect(b.byteLength).toBe(24);
    expect([...new Uint8Array(b)].every((v) => v === 0)).toBe(true);
  });

  it('runs one young-generation collection once RECLAIM_BYTES were allocated, after the current task', async () => {
    await betweenTasks(); // anything an earlier test left scheduled has run
    const before = reclaimCount();
    const kept: SharedArrayBuffer[] = [];
    for (let n = 0; n < RECLAIM_BYTES; n += 1 << 20) kept.push(sharedBuffer(1 << 20));
    kept.push(sharedBuffer(1 << 20)); // past the limit again while one is pending: no second one
    // not while the buffers just made are still referenced by the task that made them
    expect(reclaimCount()).toBe(before);
    await betweenTasks();
    expect(reclaimCount()).toBe(before + 1);
    // the buffers still referenced are intact
    new Uint8Array(kept[0]!)[0] = 7;
    expect(new Uint8Array(kept[0]!)[0]).toBe(7);
    // and the count starts again from zero
    sharedBuffer(1 << 20);
    await betweenTasks();
    expect(reclaimCount()).toBe(before + 1);
  });

  it('sets the flag that exposes gc back: contexts made afterwards have none', () => {
    expect(reclaimCount()).toBeGreaterThan(0); // the collector was made
    const started = typeof (globalThis as { gc?: unknown }).gc === 'function'; // --expose-gc given
    expect(runInNewContext('typeof gc')).toBe(started ? 'function' : 'undefined');
  });
});
