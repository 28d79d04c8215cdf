// Runs test-util/mp-child.ts in a child process on a store, for tests that need another process.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { soakInt, soakTimeout } from './soak.js';

const child = fileURLToPath(new URL('./mp-child.ts', import.meta.url));

/** A child still running after this long is killed and reported with what it printed so far. */
const CHILD_MS = soakTimeout(45_000, 12, soakInt('HALOCLINE_SOAK_STEPS', 12));

/** Runs one child role to completion; resolves with its stdout lines, rejects with its stderr (or on a hang, its output so far). */
export function runChild(path: string, role: string, name: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, path, role, name, String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const started = performance.now();
    const at: string[] = []; // when each chunk of stdout came, for a hang's report
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      at.push(`${Math.round(performance.now() - started)} ms: ${JSON.stringify(d.toString())}`);
    });
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => {
      err += `still running after ${CHILD_MS} ms (stdout so far, by arrival: ${at.join(', ') || 'none'}); killed`;
      proc.kill('SIGKILL');
    }, CHILD_MS);
    // 'close', not 'exit': at 'exit' stdout may not have given its last line ('done') yet
    proc.on('close', (code) => {
      clearTimeout(timer);
      const lines = out.split('\n').filter(Boolean);
      if (code === 0 && lines.at(-1) === 'done') resolve(lines);
      else reject(new Error(`${role} ${name} exited with ${code}: ${err}`));
    });
  });
}
