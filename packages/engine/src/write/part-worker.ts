// Piscina worker entry of the part writer: lowers its own thread's priority, then runs the part
// writer's tasks (`part-task.ts`) at it.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';
import { WRITER_NICE } from './part-writer.js';

export { default } from './part-task.js';

// only as the writer thread: a module imported on the main thread must not lower the main thread
if (!isMainThread) lowerPriority();

// Linux gives each thread its own nice value (setpriority on a thread id); elsewhere this is a no-op
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, WRITER_NICE);
  } catch {
    // no /proc or not permitted: the thread runs at normal priority
  }
}
