// Splits a query string into tokens; keywords are case-insensitive, identifiers are not.
import { syntaxError } from './fail.js';

export type TokenKind = 'number' | 'string' | 'ident' | 'keyword' | 'var' | 'param' | 'op' | 'eof';

/**
 * A token. `text` is the source text (`query.slice(pos, end)`); `value` is the meaning: the
 * lower-cased keyword, the operator, the unescaped string, the identifier or variable name.
 */
export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly value: string;
  readonly pos: number;
  readonly end: number;
}

export const KEYWORDS: ReadonlySet<string> = new Set(['and', 'or', 'not', 'is', 'null', 'in', 'true', 'false', 'intersect', 'contains', 'within']);

/** Operators, longest first so that `<=` wins over `<`. */
const OPERATORS = ['==', '!=', '<>', '<=', '>=', '=', '<', '>', '+', '-', '*', '/', '%', '(', ')', ',', '~'];

// bare names: a letter of any script or _, then letters, combining marks, digits or _ (`température`, `深度`)
const NAME = /^[\p{L}_][\p{L}\p{M}\p{N}_]*/u;
const NAME_REST = /^[\p{L}\p{M}\p{N}_]*/u;

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

/**
 * Tokenizes `query`; the last token is always `eof`.
 * @example
 * tokenize('depth > 5').map((t) => t.value) // ['depth', '>', '5', '']
 */
export function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const c = query[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const token = next(query, i, c);
    tokens.push(token);
    i = token.end;
  }
  tokens.push({ kind: 'eof', text: '', value: '', pos: query.length, end: query.length });
  return tokens;
}

function next(query: string, i: number, c: string): Token {
  if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(query[i + 1] ?? ''))) return number(query, i);
  if (NAME.test(query.slice(i, i + 2))) return word(query, i); // two units: a letter beyond the BMP
  if (c === '"' || c === "'") return quoted(query, i, 'string');
  if (c === '`') return quoted(query, i, 'ident');
  if (c === '$') return variable(query, i);
  if (c === '?') return { kind: 'param', text: '?', value: '?', pos: i, end: i + 1 };
  const op = OPERATORS.find((o) => query.startsWith(o, i));
  if (op === undefined) throw syntaxError(query, { pos: i, token: c }, `unexpected character '${c}' at ${i}`);
  return { kind: 'op', text: op, value: op, pos: i, end: i + op.length };
}

function number(query: string, i: number): Token {
  const m = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(query.slice(i))!;
  const end = i + m[0].length;
  if (/[A-Za-z0-9_.]/.test(query[end] ?? '')) {
    const bad = /^[A-Za-z0-9_.+-]*/.exec(query.slice(i))![0];
    throw syntaxError(query, { pos: i, token: bad }, `malformed number '${bad}' at ${i}`);
  }
  return { kind: 'number', text: m[0], value: m[0], pos: i, end };
}

function word(query: string, i: number): Token {
  const text = NAME.exec(query.slice(i))![0];
  const lower = text.toLowerCase();
  const end = i + text.length;
  if (KEYWORDS.has(lower)) return { kind: 'keyword', text, value: lower, pos: i, end };
  return { kind: 'ident', text, value: text, pos: i, end };
}

function variable(query: string, i: number): Token {
  const name = NAME_REST.exec(query.slice(i + 1))![0];
  if (name === '') throw syntaxError(query, { pos: i, token: '$' }, `expected a variable name after '$' at ${i}`);
  return { kind: 'var', text: `$${name}`, value: name, pos: i, end: i + 1 + name.length };
}

// a string ('...' or "...") or a quoted identifier (`...`), with backslash escapes
function quoted(query: string, start: number, kind: 'string' | 'ident'): Token {
  const quote = query[start]!;
  let value = '';
  let i = start + 1;
  while (i < query.length) {
    const c = query[i]!;
    if (c === quote) return { kind, text: query.slice(start, i + 1), value, pos: start, end: i + 1 };
    if (c !== '\\') {
      value += c;
      i++;
      continue;
    }
    const e = query[i + 1];
    if (e === undefined) break;
    const hex = e === 'u' ? /^[0-9a-fA-F]{4}/.exec(query.slice(i + 2)) : null;
    if (e === 'u' && hex === null) {
      throw syntaxError(query, { pos: i, token: query.slice(i, i + 6) }, `malformed escape '${query.slice(i, i + 6)}' at ${i}: expected \\u and 4 hex digits`);
    }
    value += hex ? String.fromCharCode(parseInt(hex[0], 16)) : (ESCAPES[e] ?? e);
    i += hex ? 6 : 2;
  }
  const what = kind === 'string' ? 'string' : 'quoted identifier';
  throw syntaxError(query, { pos: start, token: query.slice(start) }, `unterminated ${what} starting at ${start}`);
}
