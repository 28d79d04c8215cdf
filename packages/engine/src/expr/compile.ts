// Compiles a typed filter into fused, specialised JS loops (data-centric code generation).
import { HaloclineError } from '../errors.js';
import { Constants, type EmitContext, emitTruth } from './emit.js';
import type { FilterKernel } from './kernel.js';
import { countLoop, type RowPredicate, selectLoop } from './loops.js';
import * as runtime from './runtime.js';
import { columnNodes, referencedColumns, type TypedExpr } from './typed.js';

/** A filter ready to run: the kernel reads `cols[i]` as the column `columns[i]`. */
export interface CompiledFilter {
  readonly columns: readonly string[];
  readonly kernel: FilterKernel;
}

type Count = (cols: unknown, n: number, params: Float64Array) => number;
type Select = (cols: unknown, n: number, out: Int32Array, params: Float64Array) => number;
interface Variant {
  readonly count: Count;
  readonly select: Select;
  readonly params: Float64Array;
}

/** Compiled loops by generated source, for kernels without closure constants (see `Constants`). */
const shapes = new Map<string, { count: Count; select: Select }>();
const MAX_SHAPES = 256;

/**
 * Generates one count and one select loop per variant: a no-null variant, used when no referenced
 * column has a validity bitmap (null checks vanish), and a null-aware one. `out` must hold at least
 * `length` entries.
 * @example
 * const { columns, kernel } = compileFilter(prepareFilter('depth > 5500', schema).typed);
 * kernel([columnArrays(depth.data[0])], depth.length, null) // number of rows with depth > 5500
 */
export function compileFilter(typed: TypedExpr): CompiledFilter {
  const columns = referencedColumns(typed);
  if (typed.kind === 'literal') return { columns, kernel: constantKernel(typed.value === true) };
  const clean = build(typed, columns, false);
  const nullable = build(typed, columns, true);
  const width = columns.length;
  const kernel: FilterKernel = (cols, length, out) => {
    if (!(length >= 0 && length <= 0x7fffffff)) throw new HaloclineError('InvalidArgument', `filter kernel length ${length} is not in 0..2^31-1`);
    if (cols.length < width) throw new HaloclineError('InvalidArgument', `filter kernel needs ${width} columns (${columns.join(', ')}), got ${cols.length}`);
    let variant = clean;
    for (let c = 0; c < width; c++) if (cols[c]!.validity !== null) variant = nullable;
    if (out === null) {
      if (length >= PRIME_ROWS) prime(variant.count, (n) => variant.count(cols, n, variant.params));
      return variant.count(cols, length, variant.params);
    }
    if (out.length < length) throw new HaloclineError('InvalidArgument', `selection buffer holds ${out.length} rows, needs ${length}`);
    if (length >= PRIME_ROWS) prime(variant.select, (n) => variant.select(cols, n, out, variant.params));
    return variant.select(cols, length, out, variant.params);
  };
  return { columns, kernel };
}

/** The generated source of both loops of one variant (for tests and inspection). */
export function kernelSource(typed: TypedExpr, nullable: boolean): string {
  return generate(typed, referencedColumns(typed), nullable).body;
}

// the loops of one variant: compiled once per source text when they close over no constants
function build(typed: TypedExpr, columns: readonly string[], nullable: boolean): Variant {
  const { body, constants } = generate(typed, columns, nullable);
  const shared = constants.values.length === 0;
  let loops = shared ? shapes.get(body) : undefined;
  if (!loops) {
    const factory = new Function('K', 'EQ', 'CMP', 'MOD', 'BI', 'ONES', body) as (...args: unknown[]) => { count: Count; select: Select };
    loops = factory(constants.values, runtime.EQ, runtime.CMP, runtime.MOD, runtime.BI, runtime.ONES);
    if (shared) {
      if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
      shapes.set(body, loops);
    }
  }
  return { ...loops, params: Float64Array.from(constants.params) }; // doubles always: one type feedback per loop
}

/**
 * Rows of each priming run: enough bytecode for V8 to give the loop a feedback vector, a few µs; not
 * a multiple of 8 or 32, so the scalar tails run too.
 */
export const PRIME_ROWS = 256 + 31;

/** Loops that had their priming runs (shared, like the loops, by every kernel of their shape). */
const primed = new WeakSet<Count | Select>();

/**
 * Runs a loop twice over its first `PRIME_ROWS` rows before its first long run. V8 gives a function
 * its feedback vector only after some work, and a long first run compiles the hot loop on stack
 * (OSR) before the code after it (the scalar tail, the final sums) ever ran with one: that code then
 * deoptimises at the end of every call (a soft deopt keeps the cached OSR code), ~40% of a 1M-row
 * count. Short runs first record feedback for every operation, so the optimised loop runs to its
 * end. Shorter calls need none: they are never compiled on stack.
 */
function prime(loop: Count | Select, run: (n: number) => unknown): void {
  if (primed.has(loop)) return;
  primed.add(loop);
  run(PRIME_ROWS);
  run(PRIME_ROWS);
}

function generate(typed: TypedExpr, columns: readonly string[], nullable: boolean): { body: string; constants: Constants } {
  const kinds = columnKinds(typed);
  const constants = new Constants();
  const ctx: EmitContext = { column: (name) => ({ index: columns.indexOf(name), physical: kinds.get(name)! }), nullable, constants };
  const predicate: RowPredicate = (row) => `+${emitTruth(typed, true, row, ctx)}`;
  const [count, select] = [countLoop(predicate), selectLoop(predicate)];
  const params = constants.params.map((_, k) => `const P${k} = P[${k}];`).join(' ');
  // the loops take the columns' arrays as parameters: plain functions of typed arrays, whose code
  // depends on nothing but those arrays' types. A loop that read `cols[c].values` itself was
  // deoptimised ("wrong map" at that read) once scans of other queries had run in the thread, and
  // its code from then on ran ~1.4x slower: W1's count over 10M rows took 3.7-3.8 ms after 40 other
  // queries against 2.5-2.6 ms fresh, and 4.1 ms in a process that had run replaces against 2.9
  // reopened; with the arrays as parameters 2.4 ms either way (docs/performance-history.md, W1)
  const arrays: string[] = [];
  const loads: string[] = [];
  columns.forEach((name, c) => {
    arrays.push(`v${c}`);
    loads.push(`cols[${c}].values`);
    if (nullable) {
      arrays.push(`m${c}`);
      loads.push(`cols[${c}].validity ?? ONES(n)`);
    }
    if (/utf8|binary/.test(kinds.get(name)!)) {
      arrays.push(`o${c}`);
      loads.push(`cols[${c}].offsets`);
    }
  });
  const body = `"use strict";
${constants.values.map((_, k) => `const K${k} = K[${k}];`).join('\n')}
function countRows(n, P, ${arrays.join(', ')}) {
  ${params}
  ${count}
}
function selectRows(n, out, P, ${arrays.join(', ')}) {
  ${params}
  ${select}
}
return {
  count: (cols, n, P) => countRows(n, P, ${loads.join(', ')}),
  select: (cols, n, out, P) => selectRows(n, out, P, ${loads.join(', ')}),
};`;
  return { body, constants };
}

function columnKinds(typed: TypedExpr): Map<string, string> {
  return new Map(columnNodes(typed).map((c) => [c.name, c.physical]));
}

function constantKernel(selectAll: boolean): FilterKernel {
  return (_cols, length, out) => {
    if (!selectAll) return 0;
    if (out !== null) for (let i = 0; i < length; i++) out[i] = i;
    return length;
  };
}
