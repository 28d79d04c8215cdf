// Where an ingest worker's entry is: the built .js beside this module, or (from TypeScript sources,
// in tests) a one-line script importing the .ts entry through tsx's API (a Worker's entry file does
// not go through `--import tsx` hooks here).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The Worker filename and `eval` flag for the entry module `relative` (without extension) to this directory. */
export function workerEntry(relative: string): { filename: string; eval: boolean } {
  const js = fileURLToPath(new URL(`./${relative}.js`, import.meta.url));
  if (existsSync(js)) return { filename: js, eval: false };
  const ts = JSON.stringify(new URL(`./${relative}.ts`, import.meta.url).href);
  return { filename: `import('tsx/esm/api').then(({ tsImport }) => tsImport(${ts}, ${ts}))`, eval: true };
}
