import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('../test-util/isolates-child.ts', import.meta.url));

// how V8 compiled each `<name>Hot` function of the child (its --trace-opt lines): on the isolate's
// own thread (kSynchronous) or on V8's platform threads (kConcurrent)
function modes(flags: string[]): Record<string, string[]> {
  const run = spawnSync(process.execPath, [...flags, '--trace-opt', '--import', 'tsx', child], { encoding: 'utf8', timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  const out: Record<string, string[]> = {};
  for (const m of run.stdout.matchAll(/compiling method .*?<JSFunction (\w+)Hot .*?mode: ConcurrencyMode::k(\w+)/g)) {
    (out[m[1]!] ??= []).push(m[2]!);
  }
  return out;
}

describe('startIsolates', () => {
  it('gives a worker started with its own compiles synchronous compiles, and no other isolate', () => {
    const seen = modes([]);
    // the worker started with ownCompiles, while another start was under way
    expect(seen.own?.length).toBeGreaterThan(0);
    expect(new Set(seen.own)).toEqual(new Set(['Synchronous']));
    // the worker started at the same time without it, this thread, and a worker started afterwards
    for (const name of ['plain', 'main', 'late']) expect(new Set(seen[name]), name).toEqual(new Set(['Concurrent']));
  });

  it('leaves a process started with the flag as it was', () => {
    const seen = modes(['--no-concurrent-recompilation']);
    for (const name of ['own', 'plain', 'main', 'late']) expect(new Set(seen[name]), name).toEqual(new Set(['Synchronous']));
  });
});
