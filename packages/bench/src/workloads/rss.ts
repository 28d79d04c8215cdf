// RSS: peak resident memory of a fresh process streaming a full select() of the store via batches().
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RssReply, RssRequest } from '../rss-child.js';
import type { Workload } from './workload.js';

const TARGET_MIB = 1024;
const SAMPLE_MS = 2;
const child = fileURLToPath(new URL('../rss-child.js', import.meta.url));

/** Runs after the main process closed its store (the child opens the same directory). */
export const rss: Workload = {
  id: 'RSS',
  title: 'streaming RSS',
  async run(ctx) {
    if (typeof ctx.openEngine === 'string') {
      return [{ workload: 'RSS stream select() of obs', target: `< ${TARGET_MIB} MiB`, notes: [`engine error: ${ctx.openEngine}`] }];
    }
    const reply = await runChild({ path: ctx.storePath, table: 'obs', workers: ctx.workers, sampleMs: SAMPLE_MS });
    if (!reply.ok) {
      return [{ workload: 'RSS stream select() of obs', target: `< ${TARGET_MIB} MiB`, notes: [`engine error: ${reply.error}`] }];
    }
    const notes = [
      `sampled peak ${reply.peakMiB.toFixed(0)} MiB (${reply.samples} samples every ${SAMPLE_MS} ms), ` +
        `kernel high-water mark (VmHWM) ${reply.hwmMiB === undefined ? '—' : `${reply.hwmMiB.toFixed(0)} MiB`}; ` +
        `${reply.startMiB.toFixed(0)} MiB at start, ${reply.openMiB.toFixed(0)} MiB after openStore`,
      `streamed ${reply.rows} rows in ${reply.batches} batches, ${reply.ms.toFixed(0)} ms (${((reply.rows / reply.ms) * 1000 / 1e6).toFixed(1)} M rows/s)`,
    ];
    if (reply.expected !== ctx.rows) notes.push(`obs holds ${reply.expected} live rows (W7D deletes and W1C appends ran before), not the ${ctx.rows} loaded`);
    if (reply.rows !== reply.expected) notes.push(`MISMATCH: streamed ${reply.rows} rows, count() says ${reply.expected}`);
    const peak = Math.max(reply.peakMiB, reply.hwmMiB ?? 0);
    return [
      {
        workload: 'RSS stream select() of obs',
        measured: `${peak.toFixed(0)} MiB`,
        target: `< ${TARGET_MIB} MiB`,
        pass: peak < TARGET_MIB && reply.rows === reply.expected,
        notes,
      },
    ];
  },
};

function runChild(request: RssRequest): Promise<RssReply> {
  return new Promise((resolve, reject) => {
    const proc = fork(child, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let reply: RssReply | undefined;
    proc.once('message', (m) => (reply = m as RssReply));
    proc.once('error', reject);
    proc.once('exit', (code, signal) => {
      resolve(reply ?? { ok: false, error: `child exited with ${signal ?? `code ${code}`} before replying` });
    });
    proc.send(request);
  });
}
