// Piscina worker entry: runs scan tasks on shared column buffers.
import { isHaloclineError } from '../errors.js';
import { runScan } from './scan.js';
import type { ScanResult, ScanTask } from './task.js';

/** A scan result, or an engine error as plain data (structured clone drops an Error's own fields). */
export type WorkerReply = { ok: ScanResult } | { error: { code: string; message: string; context: Record<string, unknown> } };

export default function scan(task: ScanTask): WorkerReply {
  try {
    return { ok: runScan(task) };
  } catch (e) {
    if (!isHaloclineError(e)) throw e;
    const { name: _name, code, ...context } = { ...e }; // own enumerable fields: name, code, context
    return { error: { code, message: e.message, context } };
  }
}
