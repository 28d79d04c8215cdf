// Command-line options of the bench: node dist/main.js [--rows N] [--runs N] [--seed N] [--only W1,W6]
// [--workers N] [--out results/latest.json]
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';

/** Parsed options, defaults filled in. */
export interface BenchArgs {
  readonly rows: number;
  readonly runs: number;
  readonly seed: number;
  /** Workload ids to run (upper case), or undefined for all. */
  readonly only?: readonly string[];
  readonly workers: number;
  readonly out: string;
}

/** Parses argv (without node and the script); throws with a usage line on bad input. */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      rows: { type: 'string', default: '10000000' },
      runs: { type: 'string', default: '7' },
      seed: { type: 'string', default: '42' },
      only: { type: 'string' },
      workers: { type: 'string', default: String(availableParallelism()) },
      out: { type: 'string', default: 'results/latest.json' },
    },
    strict: true,
  });
  return {
    rows: integer('rows', values.rows, 1),
    runs: integer('runs', values.runs, 1),
    seed: integer('seed', values.seed, 0),
    only: values.only?.split(',').map((s) => s.trim().toUpperCase()).filter((s) => s !== ''),
    workers: integer('workers', values.workers, 0),
    out: values.out,
  };
}

export const USAGE =
  'usage: node dist/main.js [--rows 10000000] [--runs 7] [--seed 42] [--only W1,W6,W7,W8,INGEST,RSS] [--workers N] [--out results/latest.json]';

function integer(name: string, text: string, min: number): number {
  const n = Number(text.replace(/_/g, ''));
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${text}\n${USAGE}`);
  return n;
}
