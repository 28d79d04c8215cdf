// Emits the per-row JS expression of a typed filter for one row index variable.
import { type Handlers, visit } from './ast.js';
import { band, bor, type CodeVal, comparison, constant, convert, costly, memberSet, type Val } from './codegen.js';
import { BytesSet } from './bytes-set.js';
import { bytesOf } from './scalar.js';
import { geoTest } from '../geo/predicate.js';
import type { LiteralValue, TypedExpr } from './typed.js';

/**
 * Closure constants of a kernel (pre-encoded string literals, in-list sets), named K0, K1, ...; and
 * its parameters P0, P1, ...: number literals compared with number values, passed at each call, so
 * kernels that differ only in those literals share one compiled (and JIT-optimised) loop.
 */
export class Constants {
  readonly values: unknown[] = [];
  readonly params: number[] = [];
  private readonly names = new Map<string, string>();

  private readonly slots = new Map<TypedExpr, string>();

  /** The name of the parameter holding the value of the number literal `node`. */
  param(node: TypedExpr & { kind: 'literal' }, value: number): string {
    let name = this.slots.get(node);
    if (name === undefined) this.slots.set(node, (name = `P${this.params.push(value) - 1}`));
    return name;
  }

  /** The name of the constant identified by `id`, created by `make` the first time. */
  name(id: string, make: () => unknown): string {
    let name = this.names.get(id);
    if (name === undefined) {
      name = `K${this.values.length}`;
      this.values.push(make());
      this.names.set(id, name);
    }
    return name;
  }
}

/** What the emitter needs to know about the kernel being generated. */
export interface EmitContext {
  /** Kernel column index by name, and the column's physical kind. */
  readonly column: (name: string) => { readonly index: number; readonly physical: string };
  /** False in the variant used when no referenced column has a validity bitmap. */
  readonly nullable: boolean;
  readonly constants: Constants;
}

/** Large literal in-lists are looked up in a Set instead of a chain of comparisons. */
const SET_THRESHOLD = 8;

/** How generated code reaches the current row: its index, and its bit in an LSB-first bitmap. */
export interface RowAccess {
  readonly index: string;
  readonly bit: (bitmap: string) => string;
}

/**
 * A bit-valued JS expression that is truthy exactly where the boolean `e` is TRUE (`want` true) or
 * FALSE (`want` false) on the row; null is neither. Kleene logic: T(a and b) = T(a) & T(b),
 * F(a and b) = F(a) | F(b), T(not a) = F(a).
 */
export function emitTruth(e: TypedExpr, want: boolean, row: RowAccess, ctx: EmitContext): string {
  return new Emitter(row, ctx).truth(e, want);
}

class Emitter {
  constructor(private readonly row: RowAccess, private readonly ctx: EmitContext) {}

  truth(e: TypedExpr, want: boolean): string {
    return visit(this.truths, e)(want);
  }

  value(e: TypedExpr): Val {
    return visit(this.values, e);
  }

  private readonly truths: Handlers<TypedExpr, (want: boolean) => string> = {
    literal: (e) => (want) => (e.value === want ? 'true' : 'false'),
    column: (e) => (want) => {
      const v = this.value(e) as CodeVal;
      return band([v.valid, want ? v.code : `(${v.code} ^ 1)`]);
    },
    compare: (e) => (want) => {
      const [a, b] = this.operands(e.left, e.right);
      const test = comparison(e.op, a, b);
      return band([a.valid, b.valid, want ? test : `!${test}`], costly(test));
    },
    logical: (e) => (want) => {
      const parts = [this.truth(e.left, want), this.truth(e.right, want)];
      const lazy = costly(parts[1]!);
      return (e.op === 'and') === want ? band(parts, lazy) : bor(parts, lazy);
    },
    not: (e) => (want) => this.truth(e.arg, !want),
    isnull: (e) => (want) => {
      const valid = this.value(e.arg).valid;
      const isNull = want !== e.negated;
      if (valid === null) return isNull ? 'false' : 'true';
      return isNull ? `(${valid} ^ 1)` : valid;
    },
    in: (e) => (want) => this.member(e.arg, e.list, want !== e.negated),
    arith: notBoolean,
    neg: notBoolean,
    rescale: notBoolean,
    geo: (e) => (want) => {
      const args = e.args.map((a) => this.value(a));
      const test = this.ctx.constants.name(`geo:${e.op}:${e.wkt}`, () => geoTest(e.op, e.wkt));
      const [a, b] = args as [Val, CodeVal | undefined];
      // a geometry with its box columns (which share its validity) and the row, or a lon/lat pair
      const sides = e.args.slice(1).map((c) => `v${this.ctx.column(c.name).index}`).join(', ');
      const call = a.rep === 'bytes' ? `${test}.row(${a.data}, ${a.start}, ${a.end}, ${/binary/.test(e.args[0]!.physical)}, ${sides}, ${this.row.index})` : `${test}.point(${(a as CodeVal).code}, ${b!.code})`;
      const valid = a.rep === 'bytes' ? [a.valid] : args.map((v) => v.valid);
      return band([...valid, want ? call : `!${call}`], true);
    },
  };

  private readonly values: Handlers<TypedExpr, Val> = {
    literal: (e) => this.literal(e.value),
    column: (e) => {
      const { index: c, physical } = this.ctx.column(e.name);
      const r = this.row.index;
      const valid = this.ctx.nullable ? this.row.bit(`m${c}`) : null;
      if (physical === 'bool') return { rep: 'bool', code: this.row.bit(`v${c}`), valid };
      if (/utf8|binary/.test(physical)) {
        const at = (i: string): string => (physical.startsWith('large') ? `Number(o${c}[${i}])` : `o${c}[${i}]`);
        return { rep: 'bytes', data: `v${c}`, start: at(r), end: at(`${r} + 1`), valid };
      }
      return { rep: BIGINT_KINDS.has(physical) ? 'bigint' : 'number', code: `v${c}[${r}]`, valid };
    },
    arith: (e) => {
      const rep = e.type === 'int64' ? 'bigint' : 'number';
      const [a, b] = [convert(this.value(e.left) as CodeVal, rep), convert(this.value(e.right) as CodeVal, rep)];
      if (e.op !== '%' || e.type === 'float') return { rep, code: `(${a.code} ${e.op} ${b.code})`, valid: band2(a.valid, b.valid) };
      // integer remainder: null for a zero divisor (which a literal divisor never is here)
      const zero = rep === 'bigint' ? '0n' : '0';
      const guard = b.literal !== undefined ? null : `(${b.code} !== ${zero})`;
      const code = rep === 'bigint' && guard !== null ? `MOD(${a.code}, ${b.code})` : `(${a.code} % ${b.code})`;
      return { rep, code, valid: band2(band2(a.valid, b.valid), guard) };
    },
    neg: (e) => {
      const a = this.value(e.arg) as CodeVal;
      return { rep: e.type === 'int64' ? 'bigint' : 'number', code: `(-${a.code})`, valid: a.valid };
    },
    rescale: (e) => {
      const a = convert(this.value(e.arg) as CodeVal, 'bigint');
      return { rep: 'bigint', code: `(${a.code} * ${e.factor}n)`, valid: a.valid };
    },
    compare: (e) => this.booleanValue(e),
    logical: (e) => this.booleanValue(e),
    not: (e) => this.booleanValue(e),
    isnull: (e) => this.booleanValue(e),
    in: (e) => this.booleanValue(e),
    geo: (e) => this.booleanValue(e),
  };

  // both sides of a comparison; a number literal against a computed number becomes a parameter
  private operands(left: TypedExpr, right: TypedExpr): [Val, Val] {
    const [a, b] = [this.value(left), this.value(right)];
    const param = (node: TypedExpr, v: Val, other: Val): Val =>
      node.kind === 'literal' && v.rep === 'number' && typeof v.literal === 'number' && other.rep === 'number' && other.literal === undefined
        ? { rep: 'number', code: this.ctx.constants.param(node, v.literal), valid: null }
        : v;
    return [param(left, a, b), param(right, b, a)];
  }

  // a boolean subexpression used as a value: TRUE as the bit, valid where TRUE or FALSE
  private booleanValue(e: TypedExpr): Val {
    const t = this.truth(e, true);
    const valid = mayBeNull(e, this.ctx.nullable) ? bor([t, this.truth(e, false)]) : null;
    return { rep: 'bool', code: t, valid: valid === 'true' ? null : valid };
  }

  private literal(value: LiteralValue): Val {
    if (value === null) return { rep: 'null', code: '0', valid: 'false', literal: null };
    if (typeof value === 'boolean') return { rep: 'bool', code: String(value), valid: null, literal: value };
    if (typeof value === 'string') {
      const data = this.ctx.constants.name(`s${JSON.stringify(value)}`, () => bytesOf(value));
      return { rep: 'bytes', data, start: '0', end: String(bytesOf(value).length), valid: null };
    }
    return { rep: typeof value === 'bigint' ? 'bigint' : 'number', code: constant(value), valid: null, literal: value };
  }

  // Kleene OR of `arg == item` (want TRUE) or its FALSE side (want false)
  private member(arg: TypedExpr, list: readonly TypedExpr[], want: boolean): string {
    const a = this.value(arg);
    const literals = list.every((x) => x.kind === 'literal') ? list.map((x) => (x as { value: LiteralValue }).value) : null;
    if (literals && literals.length > SET_THRESHOLD && (a.rep === 'number' || a.rep === 'bigint')) {
      const set = this.ctx.constants.name(`set:${a.rep}:${literals.map(String).join(',')}`, () => memberSet(literals, a.rep as 'number'));
      if (!want && literals.includes(null)) return 'false';
      return band([a.valid, `${want ? '' : '!'}${set}.has(${a.code})`]);
    }
    if (literals && literals.length > SET_THRESHOLD && a.rep === 'bytes' && literals.every((v) => v === null || typeof v === 'string')) {
      // one hashed lookup per row instead of a comparison per item (a list of 10k strings made a 9 MB loop)
      const strings = literals.filter((v): v is string => v !== null);
      const set = this.ctx.constants.name(`bset:${JSON.stringify(strings)}`, () => new BytesSet(strings));
      if (!want && literals.includes(null)) return 'false';
      return band([a.valid, `${want ? '' : '!'}${set}.has(${a.data}, ${a.start}, ${a.end})`], true);
    }
    const tests = list.map((item) => {
      const b = this.value(item);
      const test = comparison('==', a, b);
      return band([b.valid, want ? test : `!${test}`], costly(test));
    });
    const any = want ? bor(tests, tests.some(costly)) : band(tests, tests.some(costly));
    return band([a.valid, any], costly(any));
  }
}

function notBoolean(e: TypedExpr): never {
  throw new Error(`internal: ${e.kind} is not a boolean expression`);
}

const band2 = (a: string | null, b: string | null): string | null => (a === null && b === null ? null : band([a, b]));

const BIGINT_KINDS: ReadonlySet<string> = new Set(['int64', 'uint64', 'timestamp', 'date64']);

/** Whether `e` can be null on some row (columns only when `nullable`). */
function mayBeNull(e: TypedExpr, nullable: boolean): boolean {
  const any = (...xs: TypedExpr[]): boolean => xs.some((x) => mayBeNull(x, nullable));
  const rules: Handlers<TypedExpr, boolean> = {
    literal: (x) => x.value === null,
    column: () => nullable,
    isnull: () => false,
    arith: (x) => any(x.left, x.right) || (x.op === '%' && x.type !== 'float' && x.right.kind !== 'literal'),
    compare: (x) => any(x.left, x.right),
    logical: (x) => any(x.left, x.right),
    in: (x) => any(x.arg, ...x.list),
    not: (x) => any(x.arg),
    neg: (x) => any(x.arg),
    rescale: (x) => any(x.arg),
    geo: (x) => any(...x.args),
  };
  return visit(rules, e);
}
