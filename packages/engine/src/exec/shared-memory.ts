// Shared memory for columns, with its reuse in mind.
//
// V8 does not count a SharedArrayBuffer's bytes as external memory, so allocating them never sets
// off a collection. A thread whose own heap sees little other allocation (a scan worker, the part
// writer) therefore keeps every buffer it made and handed off referenced from its isolate until
// some unrelated collection runs, long after the thread that took the buffer is done with it; the
// memory is never freed, and each new buffer is memory the allocator has to get from the system
// afresh, a page fault per 4 KiB on first write (~12 µs each on the 2-core VM the benchmarks run
// on: ~150 faults a gather task of a 1% replace, which took 6.4 ms with them and 4.5 ms without). Counting the bytes here and,
// once `RECLAIM_BYTES` have been allocated, running a young-generation collection as soon as the
// thread is between tasks frees what no thread references any more, and the allocator hands the
// same memory, already mapped, out again.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bytes of shared memory allocated on a thread between two collections it asks for. */
export const RECLAIM_BYTES = 8 << 20;

type Collect = (options: { type: 'minor' }) => void;

let allocated = 0;
let pending = false;
let collect: Collect | null | undefined;

/** A new zero-filled SharedArrayBuffer of `bytes` bytes, counted towards this thread's next young-generation collection. */
export function sharedBuffer(bytes: number): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(bytes);
  allocated += bytes;
  if (allocated >= RECLAIM_BYTES && !pending) schedule();
  return buffer;
}

// after the current task (whose results are still referenced now: collected now, they would only
// be promoted to the old generation, which a young collection does not free)
function schedule(): void {
  pending = true;
  setImmediate(() => {
    pending = false;
    allocated = 0;
    collector()?.({ type: 'minor' });
  }).unref();
}

let reclaims = 0;

/** How many young-generation collections `sharedBuffer` has run on this thread. */
export function reclaimCount(): number {
  return reclaims;
}

// `gc` of a context made while `--expose-gc` is set (the flag is set back at once; a process started
// with it has `gc` already); null where the flag cannot be set. Another thread setting the flag back
// in between leaves a context without `gc`: tried again at the next collection, three times at most
let failures = 0;

function collector(): Collect | null {
  if (collect === undefined) {
    const own = (globalThis as { gc?: unknown }).gc;
    if (typeof own === 'function') collect = own as Collect;
    else {
      try {
        setFlagsFromString('--expose-gc');
        const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
        if (typeof gc === 'function') collect = gc as Collect;
        else if (++failures >= 3) collect = null;
      } catch {
        collect = null;
      } finally {
        setFlagsFromString('--no-expose-gc');
      }
    }
  }
  if (!collect) return null;
  reclaims++;
  return collect;
}
