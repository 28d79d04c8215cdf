// The crash tests' child processes (test-util/crash-child.ts, bundled) and what they left in the store.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Store } from '../index.js';
import type { StoreContext } from '../context.js';
import { type PartRecord, type TableRecord, partPrefix, tableKey } from '../storage/records.js';

/** Rows each child commits per batch. */
export const ROWS = 400;

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Bundles the child `child` (a module of test-util, by default the crash tests' `crash-child.ts`;
 * packages external, resolved from the package's node_modules) into its own folder per test file
 * (`name`: test files run in parallel): a child starts in a fraction of the time tsx needs. A child
 * may run a scan worker and the part writer thread: their entries are bundled beside it. Resolves
 * with the bundle's path.
 */
export async function bundleChild(name: string, child = 'crash-child'): Promise<string> {
  const dir = here(`../../node_modules/.cache/halocline/${name}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  const entryPoints = { [child]: here(`./${child}.ts`), worker: here('../exec/worker.ts'), 'part-worker': here('../write/part-worker.ts') };
  await build({ entryPoints, bundle: true, platform: 'node', format: 'esm', packages: 'external', outdir: dir, logLevel: 'silent' });
  return join(dir, `${child}.js`);
}

/** Starts a child on the store at `path`; it loads its modules and waits for `go` on stdin. Lane `lane` of `lanes` writes the batches b with b % lanes == lane. */
export function startChild(bundle: string, path: string, workers: number, lane = 0, lanes = 1): ChildProcess {
  const proc = spawn(process.execPath, [bundle, path, String(ROWS), String(workers), String(lane), String(lanes)], { stdio: ['pipe', 'pipe', 'pipe'] });
  proc.on('error', () => undefined);
  return proc;
}

/**
 * Resolves once `proc` is gone after a SIGKILL; rejects when it ended any other way, naming `who`,
 * its exit code, signal and stderr. Waits for 'close', not 'exit': at 'exit' stdout may still hold
 * acknowledgements not yet read.
 */
export function killedOnly(proc: ChildProcess, who: string): Promise<void> {
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    proc.on('close', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`${who} exited without being killed (code ${code}, signal ${signal}): ${stderr}`))));
  });
}

/** Calls `onLine(word, n)` for each line `word n` the child prints. */
export function onLines(proc: ChildProcess, onLine: (word: string, n: string) => void): void {
  let buffered = '';
  proc.stdout!.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      const [word, n] = line.split(' ');
      onLine(word!, n ?? '');
    }
  });
}

/** Rows per batch in the table the children write. */
export async function countBatches(store: Store): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for await (const b of store.table('obs').select(undefined, { cols: ['batch'] }).batches()) {
    const col = b.getChild('batch')!.toArray() as Int32Array;
    for (const v of col) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return counts;
}

/**
 * What a batch whose count is wrong holds, for the failure's message: its rows, distinct and odd
 * row numbers (a lost delete leaves odd rows; a batch written twice or a partition visible beside
 * its replacement, each row number twice), and every partition of the table with its rows and version.
 */
export async function describeBatch(store: Store, b: number): Promise<string> {
  const rows = await store.table('obs').select('batch == $b', { cols: ['i'], vars: { b } }).all();
  const seen = new Map<number, number>();
  for (const r of rows) seen.set(r.i as number, (seen.get(r.i as number) ?? 0) + 1);
  const odd = [...seen.keys()].filter((i) => i % 2 === 1).length;
  const twice = [...seen.values()].filter((n) => n > 1).length;
  const ctx = (store as unknown as { ctx: StoreContext }).ctx;
  const table = ctx.meta.get<TableRecord>(tableKey('obs'))!;
  const parts = ctx.meta.range<PartRecord>(partPrefix(table.id)).map(([, p]) => `${p.id} (${p.rows} rows, added v${p.added})`);
  return `${rows.length} rows, ${seen.size} distinct row numbers (${odd} odd, ${twice} seen more than once), table at v${table.version} in ${parts.length} partitions: ${parts.join(', ')}`;
}

/** The rows batch `b` of a lane whose last commit is `last` has: commit c deleted the odd rows of the lane's batch two back. */
export const rowsOf = (b: number, last: number, lanes = 1): number => (b <= last - 2 * lanes ? ROWS / 2 : ROWS);
