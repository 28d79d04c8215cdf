// Test fixture: random well-typed filter queries (text + bind variables) over a random chunk.
import fc from 'fast-check';
import type { Vars } from './bind.js';
import { BASE_DAY, BASE_MS, CHARS, type Chunk, type Kind } from './data.fixture.js';

/** Renders a query fragment, registering its bind variables. */
type Q = (vars: VarSink) => string;

interface VarSink {
  add(value: unknown): string;
}

export interface Query {
  readonly query: string;
  readonly vars: Vars | undefined;
}

/** A random boolean filter over `chunk`'s columns, with `$name` or `?` variables. */
export function queryArb(chunk: Chunk): fc.Arbitrary<Query> {
  return fc.tuple(new Gen(chunk).bool(3), fc.constantFrom<'named' | 'positional'>('named', 'positional')).map(([q, mode]) => {
    const named: Record<string, unknown> = {};
    const positional: unknown[] = [];
    const query = q({
      add: (value) => {
        if (mode === 'positional') return positional.push(value), '?';
        const name = `v${Object.keys(named).length}`;
        named[name] = value;
        return `$${name}`;
      },
    });
    return { query, vars: mode === 'named' ? named : positional };
  });
}

const lit = (text: string): Q => () => text;
const bound = (value: unknown): Q => (vars) => vars.add(value);
const oneof = (...arbs: fc.Arbitrary<Q>[]): fc.Arbitrary<Q> => fc.oneof(...arbs);

/** Weighted choice; options of weight 0 (or whose list is empty) are left out. */
const pick = (...options: [number, fc.Arbitrary<Q>[]][]): fc.Arbitrary<Q> =>
  fc.oneof(...options.filter(([w, arbs]) => w > 0 && arbs.length > 0).map(([weight, arbs]) => ({ weight: Math.round(weight * 10), arbitrary: fc.oneof(...arbs) })));

class Gen {
  constructor(private readonly chunk: Chunk) {}

  bool(depth: number): fc.Arbitrary<Q> {
    const bools = this.columns('bool');
    const leaves: [number, fc.Arbitrary<Q>[]][] = [
      [0.3, [fc.constantFrom(lit('true'), lit('FALSE'))]],
      [5, [this.compare(this.num(1), this.num(1))]],
      [this.columns('utf8').length > 0 ? 3 : 0.5, [this.compare(this.str(), this.str())]],
      [1, [fc.tuple(this.any(), fc.constantFrom(' is null', ' IS NOT NULL')).map(([a, tail]) => (v: VarSink) => `${a(v)}${tail}`)]],
      [2, [this.inList(this.num(0), this.num(0)), this.inList(this.str(), this.str())]],
      [0.3, [this.compare(this.num(0), fc.constant(lit('null')))]],
      [2, bools.map((c) => fc.constant(lit(c)))],
      [1, bools.map((c) => fc.tuple(fc.constantFrom('==', '!=', '<'), fc.oneof(fc.boolean().map(bound), fc.boolean().map((b) => bound({ type: 'integer', value: b })))).map(([op, b]) => (v: VarSink) => `${c} ${op} ${b(v)}`))],
      [4, this.temporal()],
    ];
    if (depth === 0) return pick(...leaves);
    const sub = this.bool(depth - 1);
    return pick(
      ...leaves,
      [8, [fc.tuple(sub, fc.constantFrom('and', 'or', 'AND', 'Or'), sub).map(([a, op, b]) => (v: VarSink) => `(${a(v)} ${op} ${b(v)})`)]],
      [2, [fc.tuple(fc.constantFrom('not ', '~', 'NOT '), sub).map(([op, a]) => (v: VarSink) => `${op}(${a(v)})`)]],
      [0.5, [fc.tuple(sub, sub).map(([a, b]) => (v: VarSink) => `(${a(v)}) == (${b(v)})`)]],
    );
  }

  private num(depth: number): fc.Arbitrary<Q> {
    const leaves: [number, fc.Arbitrary<Q>[]][] = [
      [8, ['int32', 'int64', 'float64'].flatMap((k) => this.columns(k as Kind)).map((c) => fc.constant(lit(c)))],
      [2, [fc.integer({ min: -25, max: 25 }).map((n) => lit(n < 0 ? `(${n})` : String(n)))]],
      [1, [fc.integer({ min: -80, max: 80 }).map((k) => lit(k < 0 ? `(-${-k / 4})` : `${k / 4}`))]],
      [0.5, [fc.constantFrom(lit('9223372036854775807'), lit('2.5e1'), lit('1E-2'), lit('.5'))]],
      [1, [fc.oneof(fc.integer({ min: -5, max: 5 }), fc.bigInt({ min: -5n, max: 5n }), fc.constantFrom(NaN, Infinity, 0.5)).map(bound)]],
      [1, [fc.tuple(fc.constantFrom('integer', 'float'), fc.integer({ min: -5, max: 5 })).map(([type, n]) => bound({ type, value: n }))]],
    ];
    if (depth === 0) return pick(...leaves);
    const sub = this.num(depth - 1);
    return pick(
      ...leaves,
      [4, [fc.tuple(sub, fc.constantFrom('+', '-', '*', '/', '%'), sub).map(([a, op, b]) => (v: VarSink) => `(${a(v)} ${op} ${b(v)})`)]],
      [1, [sub.map((a) => (v: VarSink) => `-(${a(v)})`)]],
    );
  }

  private str(): fc.Arbitrary<Q> {
    const literal = fc.string({ unit: fc.constantFrom(...CHARS, '\\', '"', "'"), maxLength: 3 });
    return pick(
      [6, this.columns('utf8').map((c) => fc.constant(lit(c)))],
      [1, [literal.map((s) => lit(`"${s.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`))]],
      [1, [literal.map((s) => lit(`'${s.replace(/[\\']/g, (ch) => `\\${ch}`)}'`))]],
      [1, [literal.map((s) => bound({ type: 'string', value: s })), literal.map(bound)]],
    );
  }

  // comparisons of timestamp[ms] and date32 columns with ISO strings, datetime variables and each other
  private temporal(): fc.Arbitrary<Q>[] {
    const ts = this.columns('timestamp');
    const days = this.columns('date32');
    const instants = fc.tuple(fc.integer({ min: -7, max: 7 }), fc.constantFrom(0, 0, 1, 500_000, 999_999)).map(([ms, ns]) => iso(BigInt(BASE_MS + ms) * 1_000_000n + BigInt(ns)));
    const dates = fc.integer({ min: -7, max: 7 }).map((d) => iso(BigInt(BASE_DAY + d) * 86_400_000_000_000n).slice(0, 10));
    const tsValue = oneof(instants.map((s) => lit(`"${s}"`)), instants.map((s) => bound({ type: 'datetime', value: s })), fc.integer({ min: -7, max: 7 }).map((ms) => bound(new Date(BASE_MS + ms))));
    const dayValue = oneof(dates.map((s) => lit(`'${s}'`)), dates.map((s) => bound({ type: 'date', value: s })), instants.map((s) => bound({ type: 'datetime', value: s })));
    const cols = (names: string[]): fc.Arbitrary<Q>[] => names.map((c) => fc.constant(lit(c)));
    const out: fc.Arbitrary<Q>[] = [];
    if (ts.length > 0) out.push(this.compare(oneof(...cols(ts)), tsValue), this.inList(oneof(...cols(ts)), tsValue));
    if (days.length > 0) out.push(this.compare(oneof(...cols(days)), dayValue), this.compare(dayValue, oneof(...cols(days))));
    if (ts.length > 0 && days.length > 0) out.push(this.compare(oneof(...cols(ts)), oneof(...cols(days))));
    return out;
  }

  private any(): fc.Arbitrary<Q> {
    const others = ['bool', 'timestamp', 'date32'].flatMap((k) => this.columns(k as Kind)).map((c) => fc.constant(lit(c)));
    return pick([3, [this.num(1)]], [1, [this.str()]], [2, others]);
  }

  private compare(a: fc.Arbitrary<Q>, b: fc.Arbitrary<Q>): fc.Arbitrary<Q> {
    return fc.tuple(a, fc.constantFrom('==', '=', '!=', '<>', '<', '<=', '>', '>='), b).map(([x, op, y]) => (v: VarSink) => `${x(v)} ${op} ${y(v)}`);
  }

  private inList(arg: fc.Arbitrary<Q>, item: fc.Arbitrary<Q>): fc.Arbitrary<Q> {
    const items = fc.array(fc.oneof({ weight: 8, arbitrary: item }, { weight: 1, arbitrary: fc.constant(lit('null')) }), { minLength: 1, maxLength: 12 });
    return fc.tuple(arg, fc.constantFrom(' in ', ' not in ', ' IN '), items).map(([a, op, xs]) => (v: VarSink) => `${a(v)}${op}(${xs.map((x) => x(v)).join(', ')})`);
  }

  private columns(kind: Kind): string[] {
    return Object.entries(this.chunk.kinds).filter(([, k]) => k === kind).map(([name]) => name);
  }
}

/** ISO 8601 text of epoch nanoseconds, with all 9 fraction digits. */
export function iso(ns: bigint): string {
  const rest = ((ns % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const ms = (ns - rest) / 1_000_000n;
  const sub = String(rest).padStart(6, '0');
  return new Date(Number(ms)).toISOString().replace('Z', `${sub}Z`);
}
