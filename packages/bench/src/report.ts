// Statistics over run times, the result rows every workload produces, and the printed table.

/** min / median / max of a set of run times (ms). */
export interface Stats {
  readonly min: number;
  readonly median: number;
  readonly max: number;
  readonly runs: number;
}

/** One line of the report: a workload variant measured on the engine and on DuckDB. */
export interface ResultRow {
  readonly workload: string;
  readonly engine?: Stats;
  readonly duckdb?: Stats;
  /** What the target is judged on, formatted, e.g. "0.82×" or "4.1 M rows/s". */
  readonly measured?: string;
  readonly target?: string;
  /** undefined when there is no target or nothing was measured. */
  readonly pass?: boolean;
  /** Anomalies, errors and context (result sizes, alternative paths). */
  readonly notes?: readonly string[];
}

/** Stats of the samples (at least one). */
export function stats(samples: readonly number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { min: sorted[0]!, median, max: sorted[sorted.length - 1]!, runs: sorted.length };
}

/** engine median / DuckDB median, when both were measured. */
export function ratio(row: Pick<ResultRow, 'engine' | 'duckdb'>): number | undefined {
  return row.engine && row.duckdb ? row.engine.median / row.duckdb.median : undefined;
}

/** A time in ms with precision that suits its size. */
export function formatMs(ms: number): string {
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

/** Rows per second as "4.12 M rows/s". */
export function formatRate(rowsPerSecond: number): string {
  return `${(rowsPerSecond / 1e6).toFixed(2)} M rows/s`;
}

/** The report as an aligned text table, notes indented under their row. */
export function formatTable(rows: readonly ResultRow[]): string {
  const header = ['workload', 'engine ms min/med/max', 'duckdb ms min/med/max', 'ratio', 'measured', 'target', ''];
  const cells = rows.map((r) => {
    const q = ratio(r);
    return [
      r.workload,
      triple(r.engine),
      triple(r.duckdb),
      q === undefined ? '—' : `${q.toFixed(2)}×`,
      r.measured ?? '—',
      r.target ?? '—',
      r.pass === undefined ? '' : r.pass ? 'PASS' : 'MISS',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((s, i) => s.padEnd(widths[i]!)).join('  ').trimEnd();
  const out = [line(header), line(widths.map((w) => '-'.repeat(w)))];
  rows.forEach((r, i) => {
    out.push(line(cells[i]!));
    for (const note of r.notes ?? []) out.push(`    ${note}`);
  });
  return out.join('\n');
}

function triple(s: Stats | undefined): string {
  return s ? `${formatMs(s.min)} / ${formatMs(s.median)} / ${formatMs(s.max)}` : '—';
}
