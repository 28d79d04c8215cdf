import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('../test-util/arrow-shapes-child.ts', import.meta.url));

// whether the child's function on record batches was optimised before, and still after, three full GCs with no batch alive
function optimised(bare: boolean): { before: boolean; after: boolean; sum: number } {
  const flags = ['--allow-natives-syntax', '--expose-gc', '--retain-maps-for-n-gc=0', '--import', 'tsx'];
  const run = spawnSync(process.execPath, [...flags, child], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, BARE: bare ? '1' : '0' } });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!);
}

describe("apache-arrow's hidden classes", () => {
  it('outlive full GCs between batches once the engine is loaded, so code made for them stays optimised', () => {
    expect(optimised(false)).toMatchObject({ before: true, after: true });
  });

  it('die at a full GC when no batch is alive without it (the control: what the first test guards against)', () => {
    expect(optimised(true)).toMatchObject({ before: true, after: false });
  });
});
