// A pool of SharedArrayBuffers reused across appends: the copies of an insert's columns that go to the
// part writer land in memory this process already touched, not in fresh pages the kernel must fault in.
//
// Why: a 1M-row insert of the bench's observations copies ~70 MB into shared memory for the part
// writer. In fresh buffers that is ~17k page faults (40-60 ms on this 2-core VM), and where the
// hypervisor has taken back the guest's free memory (free page reporting) each first touch also
// faults on the host: the same copy then took 180-240 ms after the bench's 10M-row load.
import { sharedBuffer } from '../exec/shared-memory.js';

/** Buffers below this many bytes are not pooled: small allocations come from the allocator's own free lists. */
export const MIN_POOLED = 1 << 16;

/** How much a pool keeps, and for how long it keeps it unused. */
export interface SharedPoolOptions {
  /** Bytes of idle buffers kept at most; a release beyond it leaves the buffer to the GC. */
  readonly maxBytes: number;
  /** An idle pool drops its buffers after this many ms without an acquire or release. */
  readonly idleMs: number;
}

/** Buffers leased for one job (`SharedPool.lease`); `release` gives every one back (again: nothing). */
export interface PoolLease {
  alloc(bytes: number): SharedArrayBuffer;
  release(): void;
}

/**
 * Reusable SharedArrayBuffers in size classes (each a power of two split in four, so a buffer is at
 * most 25% larger than asked for). A buffer is handed out once until released; the caller releases it
 * only when no thread reads it any more.
 * @example
 * const pool = new SharedPool(); const b = pool.acquire(8e6); ...; pool.release(b);
 */
export class SharedPool {
  private readonly idle = new Map<number, SharedArrayBuffer[]>();
  private held = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastUse = 0;

  constructor(readonly options: SharedPoolOptions = { maxBytes: 256 << 20, idleMs: 10_000 }) {}

  /** A buffer of at least `bytes` bytes (its contents are whatever the last user left). */
  acquire(bytes: number): SharedArrayBuffer {
    this.touch();
    if (bytes < MIN_POOLED) return sharedBuffer(bytes);
    const size = sizeClass(bytes);
    const reused = this.idle.get(size)?.pop();
    if (!reused) return sharedBuffer(size);
    this.held -= size;
    return reused;
  }

  /** Gives a buffer from `acquire` back; it is kept for the next acquire of its class while the pool has room. */
  release(buffer: SharedArrayBuffer): void {
    this.touch();
    const size = buffer.byteLength;
    if (size < MIN_POOLED || size !== sizeClass(size) || this.held + size > this.options.maxBytes) return;
    const list = this.idle.get(size) ?? [];
    if (list.includes(buffer)) return; // released twice: keep it once
    list.push(buffer);
    this.idle.set(size, list);
    this.held += size;
    this.arm();
  }

  /** An allocator of buffers from `acquire` for one job, and `release` giving back all it handed out. */
  lease(): PoolLease {
    const leased: SharedArrayBuffer[] = [];
    return {
      alloc: (bytes) => {
        const b = this.acquire(bytes);
        leased.push(b);
        return b;
      },
      release: () => {
        for (const b of leased.splice(0)) this.release(b);
      },
    };
  }

  /** Bytes of idle buffers the pool holds. */
  get bytesHeld(): number {
    return this.held;
  }

  /** Drops every idle buffer (the store closes, or the pool sat idle). */
  clear(): void {
    this.idle.clear();
    this.held = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private touch(): void {
    this.lastUse = performance.now();
  }

  // one unref'd timer: the process may exit with buffers pooled; an idle pool frees them
  private arm(): void {
    if (this.timer) return;
    const check = () => {
      const quiet = performance.now() - this.lastUse;
      if (quiet >= this.options.idleMs) this.clear();
      else this.timer = setTimeout(check, this.options.idleMs - quiet).unref();
    };
    this.timer = setTimeout(check, this.options.idleMs).unref();
  }
}

/**
 * `alloc` (a lease's) with the bytes asked for zero-filled: a pooled buffer holds what its last
 * user left, and column builders count on zeroed memory (bits set with |=, offsets from 0).
 */
export function zeroed(alloc: (bytes: number) => SharedArrayBuffer): (bytes: number) => SharedArrayBuffer {
  return (bytes) => {
    const buffer = alloc(bytes);
    new Uint8Array(buffer, 0, bytes).fill(0);
    return buffer;
  };
}

/** The size class of `bytes`: rounded up to a quarter of its power of two (≥ MIN_POOLED). */
export function sizeClass(bytes: number): number {
  if (bytes <= MIN_POOLED) return MIN_POOLED;
  let power = MIN_POOLED;
  while (power < bytes) power *= 2;
  const step = power / 8;
  return Math.ceil(bytes / step) * step;
}
