// Every workload end to end on a small seeded table: the CLI exits cleanly, and no variant reports an
// engine error or an answer that disagrees with DuckDB's. Timings at this size mean nothing and are
// not looked at (benchmarks are not tests); this catches a workload the engine no longer runs, e.g. a
// query an engine change now rejects, which the report would otherwise show only as a note.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const main = new URL('../dist/main.js', import.meta.url);

describe('bench CLI', () => {
  it('runs every workload at 20k rows with no engine error and no disagreement with DuckDB', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'halocline-bench-smoke-'));
    try {
      const out = join(dir, 'smoke.json');
      await promisify(execFile)(process.execPath, ['--expose-gc', main.pathname, '--rows', '20000', '--runs', '1', '--workers', '1', '--out', out], { maxBuffer: 16 << 20 });
      const report = JSON.parse(await readFile(out, 'utf8')) as { results: { workload: string; notes?: string[] }[] };
      const ids = new Set(report.results.map((r) => r.workload.split(' ')[0]));
      expect([...ids].sort()).toEqual(['INGEST', 'RSS', 'W1', 'W1C', 'W1X', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7', 'W7D', 'W8']);
      const problems = report.results.flatMap((r) => (r.notes ?? []).filter((n) => /^(engine error|MISMATCH)/.test(n)).map((n) => `${r.workload}: ${n}`));
      expect(problems).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
