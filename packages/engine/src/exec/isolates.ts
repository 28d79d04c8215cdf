// Worker threads started one group at a time; a group may get V8's optimising compiles on its own thread.
import { setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';

/**
 * Starts worker threads with `start` and resolves once each of `threads(started)` has its isolate
 * (the worker is online, or it ended). Starts are serialised, so the isolates of one start are made
 * while no other start's are.
 *
 * With `ownCompiles`, those isolates compile optimised code (TurboFan) on their own thread, at its
 * priority. Otherwise V8 compiles on its platform threads, which every isolate in the process
 * shares and which run at normal priority: the part writer's compiles (a long tail of functions
 * reaching the optimising tier over its first minute of work) ran there beside the scans, at nice
 * 0 while the writer itself ran at nice 19 (docs/architecture.md, the part writer; measured in
 * docs/performance-history.md, W1C session 9). V8 decides this per
 * isolate when it makes one (`--concurrent-recompilation`), so the flag is off only while these
 * isolates are made, then on again. A process started with the flag set either way is left as it is.
 * A worker Piscina starts again later (after a crash) gets the platform threads: only slower.
 */
export function startIsolates<T>(start: () => T, threads: (started: T) => readonly Worker[], ownCompiles = false): Promise<T> {
  const run = gate.then(async () => {
    const flip = ownCompiles && !userSet();
    if (flip) setFlagsFromString('--no-concurrent-recompilation');
    try {
      const started = start();
      await Promise.all(threads(started).map(made));
      return started;
    } finally {
      if (flip) setFlagsFromString('--concurrent-recompilation');
    }
  });
  gate = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

let gate: Promise<void> = Promise.resolve();

// resolves once the worker's isolate exists: it runs JavaScript ('online'), or it has ended
function made(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      worker.off('online', done);
      worker.off('exit', done);
      worker.off('error', done);
      resolve();
    };
    worker.on('online', done);
    worker.on('exit', done);
    worker.on('error', done);
  });
}

// true when the process was started with the flag set either way (command line or NODE_OPTIONS)
function userSet(): boolean {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => /^--(no-)?concurrent[-_]recompilation\b/.test(a));
}
