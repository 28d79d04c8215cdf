// Child process of the RSS workload: opens a store, streams a full `select()` of a table through
// `batches()` while sampling its own RSS, and reports the peak to the parent.
import { readFile } from 'node:fs/promises';
import { loadEngine } from './engine.js';

/** What the parent sends. */
export interface RssRequest {
  readonly path: string;
  readonly table: string;
  readonly workers: number;
  readonly sampleMs: number;
}

/** What the child answers: sizes in MiB, or the error that stopped it. */
export type RssReply =
  | { readonly ok: true; readonly rows: number; readonly expected: number; readonly batches: number; readonly ms: number; readonly samples: number;
      readonly startMiB: number; readonly openMiB: number; readonly peakMiB: number; readonly hwmMiB?: number }
  | { readonly ok: false; readonly error: string };

const MiB = 1024 * 1024;

process.once('message', (request: RssRequest) => {
  stream(request)
    .catch((e: unknown): RssReply => ({ ok: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }))
    .then((reply) => process.send!(reply, () => process.disconnect()));
});

async function stream(request: RssRequest): Promise<RssReply> {
  const startMiB = process.memoryUsage.rss() / MiB;
  const openEngine = await loadEngine();
  if (typeof openEngine === 'string') return { ok: false, error: openEngine };
  const store = await openEngine(request.path, request.workers);
  // the live rows (workloads before this one may have deleted and appended); counting reads no column
  const expected = await store.table(request.table).select().count();
  // sample from here on; the timer fires whenever the stream yields to the event loop
  let peak = process.memoryUsage.rss();
  let samples = 0;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
    samples++;
  };
  const timer = setInterval(sample, request.sampleMs);
  const openMiB = peak / MiB;
  const start = performance.now();
  let rows = 0;
  let batches = 0;
  try {
    for await (const b of store.table(request.table).select().batches()) {
      rows += b.numRows;
      batches++;
      sample();
    }
  } finally {
    clearInterval(timer);
    await store.close();
  }
  const ms = performance.now() - start;
  sample();
  return { ok: true, rows, expected, batches, ms, samples, startMiB, openMiB, peakMiB: peak / MiB, hwmMiB: await highWaterMiB() };
}

/**
 * The kernel's RSS high-water mark of this process image (Linux VmHWM), which also catches peaks between
 * samples. Not getrusage's maxRSS: Linux carries that across exec, so a forked child inherits the parent's.
 */
async function highWaterMiB(): Promise<number | undefined> {
  try {
    const status = await readFile('/proc/self/status', 'utf8');
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}
