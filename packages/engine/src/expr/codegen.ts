// Code fragments for generated kernels: bit-valued boolean algebra, conversions, comparisons.
import type { CompareOp } from './ast.js';
import { literalText } from './key.js';
import type { LiteralValue } from './typed.js';

/**
 * A value in generated code. `valid` is a bit-valued expression (0/1/false/true) that is truthy
 * where the value is not null, or null when the value is never null. Bytes values are a slice
 * `data[start, end)`; `bool` values are bit-valued; `literal` is set for inlined constants.
 */
export type Val = CodeVal | BytesVal;

export interface CodeVal {
  readonly rep: 'number' | 'bigint' | 'bool' | 'null';
  readonly code: string;
  readonly valid: string | null;
  readonly literal?: LiteralValue;
}

export interface BytesVal {
  readonly rep: 'bytes';
  readonly data: string;
  readonly start: string;
  readonly end: string;
  readonly valid: string | null;
}

/** Parts joined by `&` (or `&&` when `lazy`, to skip costly parts); constants simplified. */
export function band(parts: readonly (string | null)[], lazy = false): string {
  const kept = parts.filter((p): p is string => p !== null && p !== 'true');
  if (kept.includes('false')) return 'false';
  if (kept.length === 0) return 'true';
  return kept.length === 1 ? kept[0]! : `(${kept.join(lazy ? ' && ' : ' & ')})`;
}

/** Parts joined by `|` (or `||` when `lazy`); constants simplified. */
export function bor(parts: readonly string[], lazy = false): string {
  const kept = parts.filter((p) => p !== 'false');
  if (kept.includes('true')) return 'true';
  if (kept.length === 0) return 'false';
  return kept.length === 1 ? kept[0]! : `(${kept.join(lazy ? ' || ' : ' | ')})`;
}

/** Whether generated code calls a helper (string comparison, set lookup, geometry test): worth short-circuiting. */
export const costly = (code: string): boolean => /\b(?:EQ|CMP)\(|\.(?:has|bytes|point|row)\(/.test(code);

/** Bit `r` of an LSB-first bitmap: 0 or 1. */
export const bit = (bitmap: string, r: string): string => `((${bitmap}[${r} >>> 3] >>> (${r} & 7)) & 1)`;

/** Source text of a constant, parenthesized when negative. */
export function constant(value: LiteralValue): string {
  const text = literalText(value);
  return text.startsWith('-') ? `(${text})` : text;
}

/** `v` in representation `rep` (number <-> bigint); literals convert at compile time. */
export function convert(v: CodeVal, rep: 'number' | 'bigint'): CodeVal {
  if (v.rep === rep || v.rep === 'null' || v.rep === 'bool') return v;
  if (v.literal !== undefined && v.literal !== null) {
    const value = rep === 'number' ? Number(v.literal) : BigInt(v.literal as number);
    return { rep, code: constant(value), valid: v.valid, literal: value };
  }
  return { rep, code: rep === 'number' ? `Number(${v.code})` : `BI(${v.code})`, valid: v.valid };
}

const JS_OP: Readonly<Record<CompareOp, string>> = { '==': '===', '!=': '!==', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

/** A bit-valued expression for `a op b` on non-null values. */
export function comparison(op: CompareOp, a: Val, b: Val): string {
  if (a.rep === 'bytes' || b.rep === 'bytes') {
    if (a.rep !== 'bytes' || b.rep !== 'bytes') return 'false';
    const args = `${a.data}, ${a.start}, ${a.end}, ${b.data}, ${b.start}, ${b.end}`;
    if (op === '==') return `EQ(${args})`;
    return op === '!=' ? `!EQ(${args})` : `(CMP(${args}) ${op} 0)`;
  }
  return codeComparison(op, a, b);
}

function codeComparison(op: CompareOp, a: CodeVal, b: CodeVal): string {
  if (a.rep === 'null' || b.rep === 'null') return 'false';
  if (a.rep === 'bool' || b.rep === 'bool') return `(+${a.code} ${JS_OP[op]} +${b.code})`;
  [a, b] = unifyNumbers(a, b);
  // bigint against number: JS compares exactly, but only with loose equality
  const js = a.rep === b.rep ? JS_OP[op] : op;
  return `(${a.code} ${js} ${b.code})`;
}

// an integral number literal against a bigint becomes a bigint literal
function unifyNumbers(a: CodeVal, b: CodeVal): [CodeVal, CodeVal] {
  if (a.rep === b.rep) return [a, b];
  const integral = (v: CodeVal): boolean => typeof v.literal === 'number' && Number.isInteger(v.literal);
  if (b.rep === 'bigint' && integral(a)) return [convert(a, 'bigint'), b];
  if (a.rep === 'bigint' && integral(b)) return [a, convert(b, 'bigint')];
  return [a, b];
}

/** Members of a literal in-list as a Set in `rep`, keeping only values that can equal such a value. */
export function memberSet(values: readonly LiteralValue[], rep: 'number' | 'bigint'): Set<number | bigint> {
  const set = new Set<number | bigint>();
  for (const v of values) {
    if (typeof v === 'number' && Number.isNaN(v)) continue;
    if (rep === 'number' && typeof v === 'bigint' && BigInt(Number(v)) === v) set.add(Number(v));
    else if (rep === 'number' && typeof v === 'number') set.add(v);
    else if (rep === 'bigint' && typeof v === 'bigint') set.add(v);
    else if (rep === 'bigint' && typeof v === 'number' && Number.isInteger(v)) set.add(BigInt(v));
  }
  return set;
}
