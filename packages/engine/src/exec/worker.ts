// Piscina worker entry: runs scan tasks on shared column buffers.
import { isHaloclineError } from '../errors.js';
import { runScan } from './scan.js';
import type { ScanResult, ScanTask } from './task.js';

/**
 * A part writer's task on a scan worker (`PartWriter.writeChunks` with `helper`): at commit, the
 * share of a large transaction's rows a scan worker writes beside the committing thread, at normal
 * priority, while the part writer's thread is low-priority and often busy with a merge.
 */
export { default as writePart } from '../write/part-task.js';

/** A scan result, or an engine error as plain data (structured clone drops an Error's own fields). */
export type WorkerReply<T = ScanResult> = { ok: T } | { error: { code: string; message: string; context: Record<string, unknown> } };

export default function scan(task: ScanTask): WorkerReply {
  return reply(() => runScan(task));
}

/** Several tasks in one round trip, run one after the other. */
export function scanBatch(tasks: readonly ScanTask[]): WorkerReply<ScanResult[]> {
  return reply(() => tasks.map(runScan));
}

function reply<T>(fn: () => T): WorkerReply<T> {
  try {
    return { ok: fn() };
  } catch (e) {
    if (!isHaloclineError(e)) throw e;
    const { name: _name, code, ...context } = { ...e }; // own enumerable fields: name, code, context
    return { error: { code, message: e.message, context } };
  }
}
