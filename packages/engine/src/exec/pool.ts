// The pool executor: scans on a Piscina worker pool, one thread per core.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { type ErrorCode, HaloclineError } from '../errors.js';
import type { Executor } from './executor.js';
import type { ScanResult, ScanTask } from './task.js';
import type { WorkerReply } from './worker.js';
import type { PartWriteReply, PartWriteTask } from '../write/part-writer.js';

/** Tasks handed to a worker at once: the one it runs and the next, queued on its port. */
export const TASKS_PER_WORKER = 2;

/** Runs tasks on `threads` worker threads. Buffers are shared (SharedArrayBuffer), never transferred. */
export class PoolExecutor implements Executor {
  private readonly pool: Piscina;

  constructor(readonly concurrency: number) {
    const { filename, execArgv } = workerModule('./worker', import.meta.url);
    // each worker holds its next task (TASKS_PER_WORKER): it starts it the moment the last one ends,
    // not after a round trip through the main thread, which a writer's commit may be holding
    // atomics 'async': an idle worker waits for its next task in its event loop (Atomics.waitAsync),
    // not blocked in Atomics.wait, so work it schedules for later (column sketch builds, exec/sketch.ts) runs while it is idle
    this.pool = new Piscina({ filename, execArgv, minThreads: concurrency, maxThreads: concurrency, concurrentTasksPerWorker: TASKS_PER_WORKER, idleTimeout: 60_000, atomics: 'async' });
    // a worker that dies rejects its task; without a listener Piscina's 'error' event would end the process
    this.pool.on('error', () => undefined);
  }

  /** The pool's threads, all started when it is made. */
  get threads(): readonly Worker[] {
    return this.pool.threads;
  }

  async run(task: ScanTask): Promise<ScanResult> {
    return answer((await this.pool.run(task)) as WorkerReply);
  }

  async runBatch(tasks: readonly ScanTask[]): Promise<ScanResult[]> {
    return answer((await this.pool.run(tasks, { name: 'scanBatch' })) as WorkerReply<ScanResult[]>);
  }

  /** Runs a part writer's task (`write/part-task.ts`) on one of the workers. */
  async runWrite(task: PartWriteTask): Promise<PartWriteReply> {
    return (await this.pool.run(task, { name: 'writePart' })) as PartWriteReply;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

// a worker's answer, or its engine error rethrown as one
function answer<T>(reply: WorkerReply<T>): T {
  if ('ok' in reply) return reply.ok;
  const { code, message, context } = reply.error;
  throw new HaloclineError(code as ErrorCode, message, context);
}

/**
 * The Piscina entry `stem` (a path without extension, relative to the module at `from`): the built
 * .js, or, running from TypeScript sources (tests), the .ts loaded through tsx.
 */
export function workerModule(stem: string, from: string): { filename: string; execArgv: string[] } {
  const js = fileURLToPath(new URL(`${stem}.js`, from));
  if (existsSync(js)) return { filename: js, execArgv: [] };
  return { filename: fileURLToPath(new URL(`${stem}.ts`, from)), execArgv: ['--import', 'tsx'] };
}
