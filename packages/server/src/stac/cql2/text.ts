// CQL2 text → AST: a recursive-descent parser over the lexer's tokens; the whole input must be consumed.
import { StacError } from '../errors.js';
import { SPATIAL_OPS, TEMPORAL_OPS, type CompareOp, type Expr, type Operand, type SpatialOp, type TemporalOp } from './ast.js';
import { tokenize, type Token } from './lexer.js';
import { bboxProblem, boundProblem, dateProblem, geometryFromWkt, timestampProblem } from './literals.js';

/**
 * Parses a CQL2 text filter; a syntax error (trailing text included) is a 400 naming the position and token.
 * @example
 * parseCql2Text("collection = 'c1' AND S_INTERSECTS(geometry, BBOX(0, 0, 10, 10))")
 */
export function parseCql2Text(text: string): Expr {
  const tokens = tokenize(text);
  if (!Array.isArray(tokens)) throw syntax(tokens.error, tokens.position, text);
  const p = new Parser(tokens, text);
  const expr = p.or();
  const rest = p.peek();
  if (rest.type !== 'end') throw syntax(`unexpected '${rest.text}' after a complete expression`, rest.position, text);
  return expr;
}

const COMPARE = new Set(['=', '<>', '<', '<=', '>', '>=']);

/** Deepest nesting of parentheses and NOT a filter may have (deeper is a 400, not a stack overflow). */
export const MAX_DEPTH = 64;

class Parser {
  #i = 0;
  #depth = 0;
  constructor(readonly tokens: readonly Token[], readonly text: string) {}

  peek(offset = 0): Token {
    return this.tokens[Math.min(this.#i + offset, this.tokens.length - 1)]!;
  }

  or(): Expr {
    const args = [this.and()];
    while (this.keyword('OR')) args.push(this.and());
    return args.length === 1 ? args[0]! : { kind: 'or', args };
  }

  and(): Expr {
    const args = [this.not()];
    while (this.keyword('AND')) args.push(this.not());
    return args.length === 1 ? args[0]! : { kind: 'and', args };
  }

  not(): Expr {
    if (this.keyword('NOT')) return { kind: 'not', arg: this.nested(() => this.not()) };
    return this.primary();
  }

  nested<T>(fn: () => T): T {
    if (++this.#depth > MAX_DEPTH) throw this.error(`nesting deeper than ${MAX_DEPTH}`);
    try {
      return fn();
    } finally {
      this.#depth--;
    }
  }

  primary(): Expr {
    const t = this.peek();
    if (t.type === 'op' && t.text === '(') {
      this.#i++;
      const e = this.nested(() => this.or());
      this.expect(')');
      return e;
    }
    if (t.type === 'ident') {
      const name = t.text.toLowerCase();
      if ((SPATIAL_OPS as readonly string[]).includes(name) || (TEMPORAL_OPS as readonly string[]).includes(name)) return this.func(name);
      if ((name === 'true' || name === 'false') && !this.isPredicateNext(1)) {
        this.#i++;
        return { kind: 'literal', value: name === 'true' };
      }
    }
    return this.predicate(this.operand());
  }

  func(name: string): Expr {
    this.#i++;
    this.expect('(');
    const left = this.operand();
    this.expect(',');
    const right = this.operand();
    this.expect(')');
    return name.startsWith('s_') ? { kind: 'spatial', op: name as SpatialOp, left, right } : { kind: 'temporal', op: name as TemporalOp, left, right };
  }

  predicate(arg: Operand): Expr {
    const t = this.peek();
    if (t.type === 'op' && COMPARE.has(t.text)) {
      this.#i++;
      return { kind: 'compare', op: t.text as CompareOp, left: arg, right: this.operand() };
    }
    if (this.keyword('IS')) {
      const negated = this.keyword('NOT');
      this.expectKeyword('NULL');
      const e: Expr = { kind: 'isNull', arg };
      return negated ? { kind: 'not', arg: e } : e;
    }
    const negated = this.keyword('NOT');
    let e: Expr;
    if (this.keyword('LIKE')) {
      const pattern = this.peek();
      if (pattern.type !== 'string') throw this.error(`LIKE needs a 'pattern' string`);
      this.#i++;
      e = { kind: 'like', arg, pattern: pattern.text };
    } else if (this.keyword('BETWEEN')) {
      const low = this.operand();
      this.expectKeyword('AND');
      e = { kind: 'between', arg, low, high: this.operand() };
    } else if (this.keyword('IN')) {
      this.expect('(');
      const list = [this.operand()];
      while (this.accept(',')) list.push(this.operand());
      this.expect(')');
      e = { kind: 'in', arg, list };
    } else {
      throw this.error('expected a comparison (=, <>, <, <=, >, >=, LIKE, BETWEEN, IN, IS NULL)');
    }
    return negated ? { kind: 'not', arg: e } : e;
  }

  operand(): Operand {
    const t = this.peek();
    this.#i++;
    switch (t.type) {
      case 'string': return { kind: 'string', value: t.text };
      case 'number': return { kind: 'number', value: Number(t.text) };
      case 'quoted': return { kind: 'property', name: t.text };
      case 'wkt': {
        const g = geometryFromWkt(t.text);
        if (typeof g === 'string') throw syntax(g, t.position, this.text);
        return { kind: 'geometry', value: g };
      }
      case 'ident': return this.identOperand(t);
      default:
        this.#i--;
        throw this.error('expected a property, a literal or a geometry');
    }
  }

  identOperand(t: Token): Operand {
    const upper = t.text.toUpperCase();
    if (upper === 'TRUE' || upper === 'FALSE') return { kind: 'boolean', value: upper === 'TRUE' };
    if (this.peek().text !== '(') {
      if (RESERVED.has(upper)) { this.#i--; throw this.error(`expected a property or a literal, got the keyword ${upper}`); }
      return { kind: 'property', name: t.text };
    }
    if (upper === 'TIMESTAMP' || upper === 'DATE') {
      const value = this.stringArg();
      const problem = upper === 'DATE' ? dateProblem(value) : timestampProblem(value);
      if (problem) throw syntax(problem, t.position, this.text);
      return upper === 'DATE' ? { kind: 'date', value } : { kind: 'timestamp', value };
    }
    if (upper === 'INTERVAL') {
      this.expect('(');
      const start = this.boundArg();
      this.expect(',');
      const end = this.boundArg();
      this.expect(')');
      return { kind: 'interval', start, end };
    }
    if (upper === 'BBOX') {
      this.expect('(');
      const value = [this.numberArg()];
      while (this.accept(',')) value.push(this.numberArg());
      this.expect(')');
      const problem = bboxProblem(value);
      if (problem) throw syntax(problem, t.position, this.text);
      return { kind: 'bbox', value };
    }
    throw syntax(`unknown function ${t.text}`, t.position, this.text);
  }

  stringArg(): string {
    this.expect('(');
    const s = this.peek();
    if (s.type !== 'string') throw this.error(`expected a 'quoted' string`);
    this.#i++;
    this.expect(')');
    return s.text;
  }

  boundArg(): string {
    const t = this.peek();
    let value: string;
    if (t.type === 'string') { this.#i++; value = t.text; }
    else if (t.type === 'ident' && /^(TIMESTAMP|DATE)$/i.test(t.text)) { this.#i++; value = this.stringArg(); }
    else throw this.error(`expected an interval bound ('..', a timestamp or a date)`);
    const problem = boundProblem(value);
    if (problem) throw syntax(problem, t.position, this.text);
    return value;
  }

  numberArg(): number {
    const t = this.peek();
    if (t.type !== 'number') throw this.error('expected a number');
    this.#i++;
    return Number(t.text);
  }

  // TRUE/FALSE start a predicate (TRUE = x) rather than stand alone when a comparison follows
  isPredicateNext(offset: number): boolean {
    const t = this.peek(offset);
    return (t.type === 'op' && COMPARE.has(t.text)) || (t.type === 'ident' && /^(IS|LIKE|BETWEEN|IN|NOT)$/i.test(t.text) && !/^NOT$/i.test(t.text)) ;
  }

  keyword(word: string): boolean {
    const t = this.peek();
    if (t.type === 'ident' && t.text.toUpperCase() === word) { this.#i++; return true; }
    return false;
  }

  expectKeyword(word: string): void {
    if (!this.keyword(word)) throw this.error(`expected ${word}`);
  }

  accept(op: string): boolean {
    const t = this.peek();
    if (t.type === 'op' && t.text === op) { this.#i++; return true; }
    return false;
  }

  expect(op: string): void {
    if (!this.accept(op)) throw this.error(`expected '${op}'`);
  }

  error(message: string): StacError {
    const t = this.peek();
    return syntax(`${message}, got ${t.type === 'end' ? 'the end of the filter' : `'${t.text}'`}`, t.position, this.text);
  }
}

const RESERVED = new Set(['AND', 'OR', 'NOT', 'IS', 'NULL', 'LIKE', 'BETWEEN', 'IN']);

function syntax(message: string, position: number, text: string): StacError {
  return new StacError('InvalidParameter', `filter: ${message} at position ${position} of ${JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)}`, { parameter: 'filter' });
}
