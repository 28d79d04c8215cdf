// Pratt parser: tokens to an Expr tree, with binding powers for SQL-like precedence.
import type { BinaryOp, Expr, SpatialOp } from './ast.js';
import { describeToken, syntaxError } from './fail.js';
import { type Token, tokenize } from './lexer.js';

/** Binding powers, loosest first; comparisons (with is/in/spatial) do not chain. */
const BP = { or: 10, and: 20, not: 30, compare: 40, add: 50, mul: 60, unary: 70 } as const;

const BINARY: Readonly<Record<string, { readonly op: BinaryOp; readonly bp: number }>> = {
  or: { op: 'or', bp: BP.or },
  and: { op: 'and', bp: BP.and },
  '==': { op: '==', bp: BP.compare },
  '=': { op: '==', bp: BP.compare },
  '!=': { op: '!=', bp: BP.compare },
  '<>': { op: '!=', bp: BP.compare },
  '<': { op: '<', bp: BP.compare },
  '<=': { op: '<=', bp: BP.compare },
  '>': { op: '>', bp: BP.compare },
  '>=': { op: '>=', bp: BP.compare },
  '+': { op: '+', bp: BP.add },
  '-': { op: '-', bp: BP.add },
  '*': { op: '*', bp: BP.mul },
  '/': { op: '/', bp: BP.mul },
  '%': { op: '%', bp: BP.mul },
};

const SPATIAL: ReadonlySet<string> = new Set(['intersect', 'contains', 'within', '~']);

/**
 * The deepest expression tree (and parenthesis nesting) a query may have: every later stage
 * (bind, typecheck, compile, prune) walks the tree recursively, so a deeper one would overflow the
 * stack; 1000 leaves them a wide margin. A long list of alternatives belongs in `x in (...)`.
 */
export const MAX_DEPTH = 1000;

/**
 * Parses a filter or expression. Throws QuerySyntax with the offending position and token.
 * @example
 * parse('depth > 100 and temp < 5') // { kind: 'binary', op: 'and', ... }
 */
export function parse(query: string): Expr {
  return new Parser(query).parseAll();
}

class Parser {
  private readonly tokens: Token[];
  private at = 0;
  private params = 0;
  private nesting = 0;
  // depth of each inner node built so far (leaves are 1 deep)
  private readonly depths = new Map<Expr, number>();

  constructor(private readonly query: string) {
    this.tokens = tokenize(query);
  }

  parseAll(): Expr {
    const expr = this.expression(0);
    if (this.peek().kind !== 'eof') throw this.unexpected('end of query');
    return expr;
  }

  // parse while the next infix operator binds tighter than minBp
  private expression(minBp: number): Expr {
    if (this.nesting >= MAX_DEPTH) throw this.tooDeep(this.tokens[this.at - 1]!);
    this.nesting++;
    let left = this.nested(this.prefix());
    let compared = false;
    for (;;) {
      const bp = this.infixPower();
      if (bp <= minBp) {
        this.nesting--;
        return left;
      }
      if (bp === BP.compare && compared) throw this.unexpected("'and' or 'or' (comparisons do not chain; use parentheses)");
      compared = bp === BP.compare;
      left = this.nested(this.infix(left, bp));
    }
  }

  // `e` after checking that the tree it tops is at most MAX_DEPTH deep
  private nested(e: Expr): Expr {
    const children = e.kind === 'unary' || e.kind === 'isnull' ? [e.arg]
      : e.kind === 'binary' ? [e.left, e.right]
      : e.kind === 'in' ? [e.arg, ...e.list]
      : e.kind === 'spatial' ? [e.arg, e.operand]
      : e.kind === 'call' ? e.args
      : [];
    if (children.length === 0) return e;
    const depth = 1 + children.reduce((d, c) => Math.max(d, this.depths.get(c) ?? 1), 1);
    if (depth > MAX_DEPTH) throw this.tooDeep(e);
    this.depths.set(e, depth);
    return e;
  }

  private tooDeep(at: { readonly pos: number; readonly text?: string; readonly token?: string }): Error {
    const token = at.token ?? at.text ?? '';
    const message = `the query nests deeper than ${MAX_DEPTH} levels at ${describeToken(token)} at ${at.pos}; use x in (...) for a long list of alternatives`;
    return syntaxError(this.query, { pos: at.pos, token }, message);
  }

  private infixPower(): number {
    const t = this.peek();
    if (t.kind === 'op' || t.kind === 'keyword') {
      if (SPATIAL.has(t.value) || t.value === 'is' || t.value === 'in') return BP.compare;
      if (t.value === 'not' && this.peek(1).value === 'in' && this.peek(1).kind === 'keyword') return BP.compare;
      const binary = BINARY[t.value];
      if (binary && (t.kind === 'op' || t.value === 'and' || t.value === 'or')) return binary.bp;
    }
    return 0;
  }

  private infix(left: Expr, bp: number): Expr {
    const t = this.advance();
    const at = { pos: t.pos, token: t.text };
    if (t.value === 'is') {
      const negated = this.accept('keyword', 'not');
      this.expect('keyword', 'null', "'null'");
      return { kind: 'isnull', arg: left, negated: negated !== null, ...at };
    }
    if (t.value === 'in' || t.value === 'not') {
      if (t.value === 'not') this.advance();
      return { kind: 'in', arg: left, list: this.list(), negated: t.value === 'not', ...at };
    }
    if (SPATIAL.has(t.value)) return { kind: 'spatial', op: t.value as SpatialOp, arg: left, operand: this.spatialOperand(), ...at };
    const { op } = BINARY[t.value]!;
    return { kind: 'binary', op, left, right: this.expression(bp), ...at };
  }

  private prefix(): Expr {
    const t = this.advance();
    const at = { pos: t.pos, token: t.text };
    switch (t.kind) {
      case 'number':
        return /^[0-9]+$/.test(t.text) ? { kind: 'literal', type: 'int', value: BigInt(t.text), ...at } : { kind: 'literal', type: 'float', value: Number(t.text), ...at };
      case 'string':
        return { kind: 'literal', type: 'string', value: t.value, ...at };
      case 'var':
        return { kind: 'var', name: t.value, index: -1, ...at };
      case 'param':
        return { kind: 'var', name: null, index: this.params++, ...at };
      case 'ident':
        if (t.text.startsWith('`') || this.peek().value !== '(' || this.peek().kind !== 'op') return { kind: 'column', name: t.value, ...at };
        this.advance();
        return { kind: 'call', name: t.value, args: this.accept('op', ')') ? [] : this.items(), ...at };
      case 'keyword':
        if (t.value === 'true' || t.value === 'false') return { kind: 'literal', type: 'bool', value: t.value === 'true', ...at };
        if (t.value === 'null') return { kind: 'literal', type: 'null', value: null, ...at };
        if (t.value === 'not') return { kind: 'unary', op: 'not', arg: this.expression(BP.not), ...at };
        break;
      case 'op':
        if (t.value === '~') return { kind: 'unary', op: 'not', arg: this.expression(BP.not), ...at };
        if (t.value === '-') return { kind: 'unary', op: 'neg', arg: this.expression(BP.unary), ...at };
        if (t.value === '(') {
          const inner = this.expression(0);
          this.expect('op', ')', "')'");
          return inner;
        }
        break;
      case 'eof':
        break;
    }
    if (t.kind !== 'eof') this.at--;
    throw this.unexpected('an expression');
  }

  // '(' expr, expr, ... ')'
  private list(): Expr[] {
    this.expect('op', '(', "'(' to start the list");
    return this.items();
  }

  // expr, expr, ... ')' (after the opening parenthesis)
  private items(): Expr[] {
    const items = [this.expression(0)];
    while (this.accept('op', ',')) items.push(this.expression(0));
    this.expect('op', ')', "',' or ')'");
    return items;
  }

  private spatialOperand(): Expr {
    const t = this.peek();
    if (t.kind !== 'string' && t.kind !== 'var' && t.kind !== 'param') throw this.unexpected('a WKT string or a bind variable');
    return this.prefix();
  }

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.at + ahead, this.tokens.length - 1)]!;
  }

  private advance(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.at++;
    return t;
  }

  private accept(kind: Token['kind'], value: string): Token | null {
    const t = this.peek();
    return t.kind === kind && t.value === value ? this.advance() : null;
  }

  private expect(kind: Token['kind'], value: string, what: string): Token {
    const t = this.accept(kind, value);
    if (t === null) throw this.unexpected(what);
    return t;
  }

  private unexpected(expected: string): Error {
    const t = this.peek();
    return syntaxError(this.query, { pos: t.pos, token: t.text }, `unexpected ${describeToken(t.text)} at ${t.pos}: expected ${expected}`);
  }
}
