// Bind variables: $name and ? forms, plain and typed values, the integer-true quirk, errors.
import { describe, expect, it } from 'vitest';
import { isHaloclineError } from '../errors.js';
import type { LiteralExpr } from './ast.js';
import { bind, type Vars } from './bind.js';
import { parse } from './parser.js';

/** The literal that `$v` (or a lone `?`) binds to. */
function literalOf(value: unknown, positional = false): Pick<LiteralExpr, 'type' | 'value'> {
  const query = positional ? 'x == ?' : 'x == $v';
  const bound = bind(parse(query), positional ? [value] : { v: value }, query);
  if (bound.kind !== 'binary' || bound.right.kind !== 'literal') throw new Error('expected a literal');
  return { type: bound.right.type, value: bound.right.value };
}

function errorOf(query: string, vars: Vars | undefined): { code: string; message: string; position?: number; token?: string } {
  try {
    bind(parse(query), vars, query);
  } catch (e) {
    if (!isHaloclineError(e)) throw e;
    return { code: e.code, message: e.message, position: e.position, token: e.token };
  }
  throw new Error(`no error for ${query}`);
}

describe('bind', () => {
  it('replaces $name variables from an object and ? variables from a list, in order', () => {
    const named = 'a > $lo and a < $hi or b == $lo';
    expect(bind(parse(named), { lo: 1, hi: 5 }, named)).toMatchObject({
      left: { left: { right: { kind: 'literal', type: 'int', value: 1n, pos: 4, token: '$lo' } }, right: { right: { value: 5n } } },
      right: { right: { value: 1n, pos: 28 } },
    });
    const q = 'a > ? and b < ? and c in (?, ?)';
    expect(bind(parse(q), [1, 'x', true, null], q)).toMatchObject({
      left: { left: { right: { kind: 'literal', value: 1n, pos: 4, token: '?' } }, right: { right: { type: 'string', value: 'x' } } },
      right: { arg: { name: 'c' }, list: [{ type: 'bool', value: true }, { type: 'null', value: null }] },
    });
  });

  it('maps plain JSON values, bigints and Dates by their JS type', () => {
    expect(literalOf(42)).toEqual({ type: 'int', value: 42n });
    expect(literalOf(-2.5)).toEqual({ type: 'float', value: -2.5 });
    expect(literalOf(1e300)).toEqual({ type: 'float', value: 1e300 });
    expect(literalOf(2n ** 70n)).toEqual({ type: 'int', value: 2n ** 70n });
    expect(literalOf('abc')).toEqual({ type: 'string', value: 'abc' });
    expect(literalOf(false)).toEqual({ type: 'bool', value: false });
    expect(literalOf(null)).toEqual({ type: 'null', value: null });
    expect(literalOf(new Date('2020-01-01T00:00:00.001Z'))).toEqual({ type: 'datetime', value: 1_577_836_800_001_000_000n });
  });

  it('maps typed {type, value} objects, including the integer-true quirk', () => {
    expect(literalOf({ type: 'string', value: '5' })).toEqual({ type: 'string', value: '5' });
    expect(literalOf({ type: 'integer', value: 7 })).toEqual({ type: 'int', value: 7n });
    expect(literalOf({ type: 'integer', value: '9007199254740993' })).toEqual({ type: 'int', value: 9007199254740993n });
    expect(literalOf({ type: 'integer', value: true })).toEqual({ type: 'bool', value: true });
    expect(literalOf({ type: 'integer', value: false }, true)).toEqual({ type: 'bool', value: false });
    expect(literalOf({ type: 'float', value: 3 })).toEqual({ type: 'float', value: 3 });
    expect(literalOf({ type: 'float', value: '2.5' })).toEqual({ type: 'float', value: 2.5 });
    expect(literalOf({ type: 'boolean', value: true })).toEqual({ type: 'bool', value: true });
    expect(literalOf({ type: 'datetime', value: '2020-01-01T01:00:00.000000001+01:00' })).toEqual({ type: 'datetime', value: 1_577_836_800_000_000_001n });
    expect(literalOf({ type: 'date', value: '1970-01-02' })).toEqual({ type: 'datetime', value: 86_400_000_000_000n });
    expect(literalOf({ type: 'time', value: '01:00:00.5' })).toEqual({ type: 'time', value: 3_600_500_000_000n });
    expect(literalOf({ type: 'float', value: null })).toEqual({ type: 'null', value: null });
  });

  it('reports a missing variable by name or ordinal at its position', () => {
    expect(errorOf('a > 1 and b == $name', { other: 1 })).toEqual({ code: 'QuerySyntax', message: 'missing bind variable $name at 15', position: 15, token: '$name' });
    expect(errorOf('a > ? and b < ?', [1])).toEqual({ code: 'QuerySyntax', message: 'missing bind variable ? #2 at 14', position: 14, token: '?' });
    expect(errorOf('a > $x', undefined)).toMatchObject({ code: 'QuerySyntax', position: 4 });
    expect(errorOf('a > $x', { x: undefined })).toMatchObject({ code: 'QuerySyntax', position: 4 });
  });

  it('rejects surplus positional values, named values the query does not use, and the wrong kind of vars', () => {
    expect(errorOf('a > ?', [1, 2])).toMatchObject({ code: 'QuerySyntax', message: "got 2 bind variables for 1 '?' placeholder" });
    expect(errorOf('a > 1', [1])).toMatchObject({ code: 'QuerySyntax', message: "got 1 bind variables for 0 '?' placeholders" });
    expect(errorOf('a > ?', { x: 1 })).toMatchObject({ code: 'QuerySyntax', message: 'bind variable ? #1 at 4 needs vars as a list' });
    expect(errorOf('a > $lo', { lo: 1, hi: 2 })).toEqual({ code: 'QuerySyntax', message: 'bind variable $hi in vars is not used by the query (it uses $lo)', position: 7, token: '' });
    expect(errorOf('a > $lo or a < $lo', { lo: 1, Lo: 2, x: null })).toMatchObject({ message: 'bind variables $Lo, $x in vars are not used by the query (it uses $lo)' });
    expect(errorOf('a > 1', { lo: 1 })).toMatchObject({ code: 'QuerySyntax', message: 'bind variable $lo in vars is not used by the query (it uses none)' });
    // an undefined value is no value (as for a missing variable); empty vars pass
    expect(bind(parse('a > $lo'), { lo: 1, hi: undefined }, 'a > $lo')).toMatchObject({ right: { value: 1n } });
    expect(bind(parse('a > 1'), {}, 'a > 1')).toMatchObject({ kind: 'binary' });
    expect(bind(parse('a > 1'), [], 'a > 1')).toMatchObject({ kind: 'binary' });
    expect(errorOf('a > $x', [1])).toMatchObject({ code: 'QuerySyntax', message: 'bind variable $x at 4 needs vars as an object' });
  });

  it('rejects values that have no query type, as QueryType at the variable', () => {
    expect(errorOf('a > $x', { x: { type: 'integer', value: 1.5 } })).toMatchObject({ code: 'QueryType', position: 4, token: '$x', message: 'bind variable $x at 4: expected an integer value, got 1.5' });
    expect(errorOf('a > $x', { x: { type: 'datetime', value: '2020-13-01' } })).toMatchObject({ code: 'QueryType', message: expect.stringContaining('ISO 8601') });
    expect(errorOf('a > $x', { x: { type: 'date', value: '2020-01-01T00:00' } })).toMatchObject({ code: 'QueryType' });
    expect(errorOf('a > $x', { x: { type: 'decimal', value: '1' } })).toMatchObject({ code: 'QueryType', message: expect.stringContaining("unknown type 'decimal'") });
    expect(errorOf('a > ?', [[1, 2]])).toMatchObject({ code: 'QueryType', message: expect.stringContaining('unsupported value an array') });
    expect(errorOf('a > ?', [new Date(NaN)])).toMatchObject({ code: 'QueryType', message: expect.stringContaining('invalid Date') });
  });

  it('leaves a tree without variables unchanged and never mutates its input', () => {
    const tree = parse('a > $x');
    const copy = structuredClone(tree);
    bind(tree, { x: 1 }, 'a > $x');
    expect(tree).toEqual(copy);
    const plain = parse('a > 1');
    expect(bind(plain, undefined, 'a > 1')).toEqual(plain);
  });
});
