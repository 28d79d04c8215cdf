// Scalar semantics shared by constant folding and the reference evaluator; kernels must agree.
import type { ArithOp, CompareOp } from './ast.js';
import type { NumericType } from './types.js';

/** A non-null runtime value; see ValueType for which representation each type uses. */
export type Scalar = boolean | number | bigint | string | Uint8Array;

const encoder = new TextEncoder();

/**
 * `a op b` for two non-null values of comparable types. Numbers and bigints compare exactly
 * (NaN: every comparison false, `!=` true); strings and bytes compare by UTF-8 bytes; false < true.
 */
export function compareScalars(op: CompareOp, a: Scalar, b: Scalar): boolean {
  if (typeof a === 'string' && typeof b === 'string') return holds(op, compareText(a, b), 0);
  if (typeof a === 'string' || typeof b === 'string' || a instanceof Uint8Array || b instanceof Uint8Array) {
    return holds(op, compareBytes(bytesOf(a), bytesOf(b)), 0);
  }
  if (typeof a === 'boolean' || typeof b === 'boolean') return holds(op, Number(a), Number(b));
  return holds(op, a, b);
}

/** `a op b` for non-null numeric operands of a node of result type `type`; null for integer `% 0`. */
export function arithmetic(op: ArithOp, a: number | bigint, b: number | bigint, type: NumericType): number | bigint | null {
  if (type === 'float' || op === '/') return apply(op, Number(a), Number(b));
  if (type === 'int64') {
    const [x, y] = [BigInt(a), BigInt(b)];
    return op === '%' && y === 0n ? null : apply(op, x, y);
  }
  const [x, y] = [Number(a), Number(b)];
  return op === '%' && y === 0 ? null : apply(op, x, y);
}

/** `-a` in the representation of `type`. */
export function negate(a: number | bigint, type: NumericType): number | bigint {
  return type === 'int64' ? -BigInt(a) : -Number(a);
}

/** Kleene AND: false wins over null, null over true. */
export const and3 = (a: boolean | null, b: boolean | null): boolean | null => (a === false || b === false ? false : a === null || b === null ? null : true);

/** Kleene OR: true wins over null, null over false. */
export const or3 = (a: boolean | null, b: boolean | null): boolean | null => (a === true || b === true ? true : a === null || b === null ? null : false);

export const not3 = (a: boolean | null): boolean | null => (a === null ? null : !a);

/** The UTF-8 bytes of a string (bytes pass through). */
export function bytesOf(v: string | Uint8Array | Scalar): Uint8Array {
  return typeof v === 'string' ? encoder.encode(v) : (v as Uint8Array);
}

/**
 * `compareBytes` of the UTF-8 encodings of two strings without encoding them (pruning compares
 * every item of an in-list with each partition's bounds): UTF-8 orders as code points, and a lone
 * surrogate encodes as U+FFFD.
 */
export function compareText(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.charCodeAt(i);
    if (x === b.charCodeAt(j) && (x < 0xd800 || x > 0xdfff)) {
      i++;
      j++;
      continue;
    }
    const cx = codePoint(a, i);
    const cy = codePoint(b, j);
    if (cx !== cy) return cx - cy;
    i += cx > 0xffff ? 2 : 1;
    j += cy > 0xffff ? 2 : 1;
  }
  return a.length - i - (b.length - j);
}

// the code point at i, a lone surrogate read as U+FFFD (as TextEncoder writes it)
function codePoint(s: string, i: number): number {
  const c = s.codePointAt(i)!;
  return c >= 0xd800 && c <= 0xdfff ? 0xfffd : c;
}

/** Lexicographic byte order: negative, zero or positive. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

function holds(op: CompareOp, a: number | bigint, b: number | bigint): boolean {
  switch (op) {
    case '==': return a == b;
    case '!=': return !(a == b);
    case '<': return a < b;
    case '<=': return a <= b;
    case '>': return a > b;
    case '>=': return a >= b;
  }
}

function apply<T extends number | bigint>(op: ArithOp, x: T, y: T): T {
  const [a, b] = [x as number, y as number];
  switch (op) {
    case '+': return (a + b) as T;
    case '-': return (a - b) as T;
    case '*': return (a * b) as T;
    case '/': return (a / b) as T;
    case '%': return (a % b) as T;
  }
}
