// The README's engine example runs as written (against the built package, in a temporary directory).
import { execFile } from 'node:child_process';
import { readFile, writeFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { tempDir } from './test-util/tmp.js';

const run = promisify(execFile);
const readme = fileURLToPath(new URL('../../../README.md', import.meta.url));
const script = fileURLToPath(new URL('../readme-example.test-tmp.mjs', import.meta.url));

afterAll(() => rm(script, { force: true }));

it('runs the README example', async () => {
  const text = await readFile(readme, 'utf8');
  const section = text.slice(text.indexOf('## The engine in a few lines'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  expect(code).toBeDefined();
  const dir = await tempDir();
  try {
    await writeFile(script, code!.replace("'./data'", JSON.stringify(dir.path)));
    const { stdout } = await run(process.execPath, [script], { timeout: 60_000 });
    expect(stdout.trim().split('\n')).toEqual(['2024-05-01T10:00:10.000Z 250', '2']);
  } finally {
    await dir.remove();
  }
});
