// Parser: every operator, precedence, node positions, and syntax errors with position and token.
import { describe, expect, it } from 'vitest';
import { isHaloclineError } from '../errors.js';
import { type Expr, type Handlers, visit } from './ast.js';
import { MAX_DEPTH, parse } from './parser.js';

// compact S-expression of a parse tree
const show = (e: Expr): string => visit(printer, e);
const printer: Handlers<Expr, string> = {
  literal: (e) => (e.type === 'string' ? JSON.stringify(e.value) : e.type === 'int' ? `${e.value}` : String(e.value)),
  column: (e) => e.name,
  var: (e) => (e.name === null ? `?${e.index}` : `$${e.name}`),
  unary: (e) => `(${e.op} ${show(e.arg)})`,
  binary: (e) => `(${e.op} ${show(e.left)} ${show(e.right)})`,
  isnull: (e) => `(${e.negated ? 'notnull' : 'isnull'} ${show(e.arg)})`,
  in: (e) => `(${e.negated ? 'notin' : 'in'} ${show(e.arg)} ${e.list.map(show).join(' ')})`,
  spatial: (e) => `(${e.op} ${show(e.arg)} ${show(e.operand)})`,
  call: (e) => `(${e.name}() ${e.args.map(show).join(' ')})`.replace(' )', ')'),
};
const p = (q: string): string => show(parse(q));

function syntaxErrorOf(q: string): { message: string; position?: number; token?: string; query?: string } {
  try {
    parse(q);
  } catch (e) {
    if (!isHaloclineError(e, 'QuerySyntax')) throw e;
    return { message: e.message, position: e.position, token: e.token, query: e.query };
  }
  throw new Error(`no error for ${q}`);
}

describe('parse', () => {
  it('parses the queries the clients send', () => {
    expect(p('depth > 100 and temp < 5')).toBe('(and (> depth 100) (< temp 5))');
    expect(p('geometry within "POLYGON ((0 0, 1 0, 1 1, 0 0))"')).toBe('(within geometry "POLYGON ((0 0, 1 0, 1 1, 0 0))")');
    expect(p('name == $name')).toBe('(== name $name)');
    expect(p('a > ? and b < ?')).toBe('(and (> a ?0) (< b ?1))');
    expect(p('x IS NOT NULL')).toBe('(notnull x)');
    expect(p('1==1')).toBe('(== 1 1)');
    expect(p('"fetch" == "schema"')).toBe('(== "fetch" "schema")');
  });

  it('maps every comparison operator, with = as == and <> as !=', () => {
    expect(['==', '=', '!=', '<>', '<', '<=', '>', '>='].map((op) => p(`a ${op} 1`))).toEqual([
      '(== a 1)', '(== a 1)', '(!= a 1)', '(!= a 1)', '(< a 1)', '(<= a 1)', '(> a 1)', '(>= a 1)',
    ]);
  });

  it('orders precedence or < and < not < comparison < +,- < *,/,% < unary minus', () => {
    expect(p('a or b and c')).toBe('(or a (and b c))');
    expect(p('a and b or c')).toBe('(or (and a b) c)');
    expect(p('not a and b')).toBe('(and (not a) b)');
    expect(p('not a = b')).toBe('(not (== a b))');
    expect(p('a + b * c > d - e / f % g')).toBe('(> (+ a (* b c)) (- d (% (/ e f) g)))');
    expect(p('-a * b')).toBe('(* (neg a) b)');
    expect(p('- -a')).toBe('(neg (neg a))');
    expect(p('a - b - c')).toBe('(- (- a b) c)');
    expect(p('a / b * c')).toBe('(* (/ a b) c)');
    expect(p('(a or b) and c')).toBe('(and (or a b) c)');
    expect(p('a + 1 is null or b in (1, 2) and c not in (3)')).toBe('(or (isnull (+ a 1)) (and (in b 1 2) (notin c 3)))');
  });

  it('reads prefix ~ as negation and infix ~ as the greedy geometry match', () => {
    expect(p('~a and b')).toBe('(and (not a) b)');
    expect(p('~(a > 1)')).toBe('(not (> a 1))');
    expect(p('geom ~ $poly and ok')).toBe('(and (~ geom $poly) ok)');
    expect(p("g intersect 'POINT (1 2)' or g contains ?")).toBe('(or (intersect g "POINT (1 2)") (contains g ?0))');
  });

  it('parses literals, identifiers, variables and calls', () => {
    expect(p('`my col` = true or x = FALSE or y = NULL')).toBe('(or (or (== my col true) (== x false)) (== y null))');
    expect(p('x = 1.5e3 or x = 18446744073709551616')).toBe('(or (== x 1500) (== x 18446744073709551616))');
    expect(p("s = 'a\\'b'")).toBe(`(== s "a'b")`);
    expect(p('bucket(depth, 10, 20) > 0')).toBe('(> (bucket() depth 10 20) 0)');
    expect(p('now() > 0')).toBe('(> (now()) 0)');
    expect(p('x in (?, ?) and y = ?')).toBe('(and (in x ?0 ?1) (== y ?2))');
  });

  it('records operator positions and tokens on nodes', () => {
    const e = parse('a AND b <> 3');
    expect(e).toMatchObject({ kind: 'binary', op: 'and', pos: 2, token: 'AND', right: { op: '!=', pos: 8, token: '<>' } });
  });

  it('reports the offending token and its position', () => {
    expect(syntaxErrorOf('(depth > 100 ))')).toMatchObject({ message: "unexpected token ')' at 14: expected end of query", position: 14, token: ')' });
    expect(syntaxErrorOf('depth > (100 + )')).toMatchObject({ message: "unexpected token ')' at 15: expected an expression", position: 15, token: ')' });
    expect(syntaxErrorOf('depth >')).toMatchObject({ message: 'unexpected end of query at 7: expected an expression', position: 7, token: '' });
    expect(syntaxErrorOf('depth > 1 temp')).toMatchObject({ message: "unexpected token 'temp' at 10: expected end of query", position: 10 });
    expect(syntaxErrorOf('(a > 1')).toMatchObject({ message: "unexpected end of query at 6: expected ')'", position: 6 });
    expect(syntaxErrorOf('x in 1, 2')).toMatchObject({ position: 5, token: '1' });
    expect(syntaxErrorOf('x in ()')).toMatchObject({ message: "unexpected token ')' at 6: expected an expression" });
    expect(syntaxErrorOf('x is 5')).toMatchObject({ message: "unexpected token '5' at 5: expected 'null'" });
    expect(syntaxErrorOf('a < b < c')).toMatchObject({ position: 6, token: '<' });
    expect(syntaxErrorOf('g within 5')).toMatchObject({ message: "unexpected token '5' at 9: expected a WKT string or a bind variable" });
    expect(syntaxErrorOf('f(1,)')).toMatchObject({ position: 4, token: ')' });
    expect(syntaxErrorOf('and')).toMatchObject({ position: 0, token: 'and' });
    expect(syntaxErrorOf('')).toMatchObject({ message: 'unexpected end of query at 0: expected an expression', query: '' });
  });

  it('refuses a query nested deeper than MAX_DEPTH with a QuerySyntax error at the first node too deep, not a stack overflow', () => {
    const chain = (n: number) => Array.from({ length: n }, (_, i) => `a == ${i}`).join(' or ');
    const parens = (n: number) => `${'('.repeat(n)}a > 0${')'.repeat(n)}`;
    // the limit itself parses: MAX_DEPTH - 1 comparisons joined by 'or' make a tree MAX_DEPTH deep
    expect(() => parse(chain(MAX_DEPTH - 1))).not.toThrow();
    expect(() => parse(parens(MAX_DEPTH - 2))).not.toThrow(); // and the comparison its right operand
    expect(() => parse(`${'not '.repeat(MAX_DEPTH - 2)}a > 0`)).not.toThrow();
    const long = chain(20_000);
    const e = syntaxErrorOf(long);
    expect(e.message).toMatch(/nests deeper than 1000 levels/);
    // the 'or' that makes the tree MAX_DEPTH + 1 deep: a comparison is 2 deep, each 'or' adds 1
    let at = -1;
    for (let i = 0; i < MAX_DEPTH - 1; i++) at = long.indexOf(' or ', at + 1);
    expect(e.position).toBe(at + 1);
    expect(e.token).toBe('or');
    expect(syntaxErrorOf(parens(100_000))).toMatchObject({ position: MAX_DEPTH - 1, token: '(' });
    expect(syntaxErrorOf(`${'not '.repeat(100_000)}a > 0`)).toMatchObject({ token: 'not' });
    expect(syntaxErrorOf(`a > ${'-'.repeat(100_000)}1`)).toMatchObject({ token: '-' });
    expect(syntaxErrorOf(`a > ${Array(100_000).fill('1').join(' + ')}`)).toMatchObject({ token: '+' });
    expect(syntaxErrorOf(`x in (${parens(100_000)})`)).toMatchObject({ token: '(' });
  });
});
