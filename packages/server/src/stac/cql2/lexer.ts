// CQL2 text tokens: identifiers (plain or "quoted"), 'strings', numbers, operators, and whole WKT literals.

/** One token with its character offset in the filter text. */
export interface Token {
  readonly type: 'ident' | 'quoted' | 'string' | 'number' | 'op' | 'wkt' | 'end';
  readonly text: string;
  readonly position: number;
}

const WKT = new Set(['POINT', 'LINESTRING', 'POLYGON', 'MULTIPOINT', 'MULTILINESTRING', 'MULTIPOLYGON', 'GEOMETRYCOLLECTION']);

/**
 * Splits CQL2 text into tokens; a WKT keyword takes its whole parenthesised body into one token.
 * Returns why it cannot as `{ error, position }`.
 * @example
 * tokenize("title = 'a''b'") // ident title, op =, string a'b, end
 */
export function tokenize(text: string): Token[] | { error: string; position: number } {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) { i++; continue; }
    const start = i;
    if (c === "'" || c === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) return { error: `unterminated ${c === "'" ? 'string' : 'quoted identifier'}`, position: start };
        if (text[i] === c && text[i + 1] === c) { value += c; i += 2; continue; }
        if (text[i] === c) { i++; break; }
        value += text[i++];
      }
      out.push({ type: c === "'" ? 'string' : 'quoted', text: value, position: start });
      continue;
    }
    const num = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    // no arithmetic in this grammar: a '-' can only start a number
    if (num) {
      out.push({ type: 'number', text: num[0], position: start });
      i += num[0].length;
      continue;
    }
    const op = /^(<>|<=|>=|[=<>(),])/.exec(text.slice(i));
    if (op) {
      out.push({ type: 'op', text: op[0], position: start });
      i += op[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_.:]*/.exec(text.slice(i));
    if (!ident) return { error: `unexpected character '${c}'`, position: start };
    i += ident[0].length;
    if (WKT.has(ident[0].toUpperCase())) {
      const end = wktEnd(text, i);
      if (typeof end === 'string') return { error: end, position: start };
      out.push({ type: 'wkt', text: text.slice(start, end), position: start });
      i = end;
      continue;
    }
    out.push({ type: 'ident', text: ident[0], position: start });
  }
  out.push({ type: 'end', text: '', position: text.length });
  return out;
}

// the end of a WKT body: optional Z/M/ZM, then EMPTY or a balanced parenthesis group
function wktEnd(text: string, from: number): number | string {
  let i = from;
  const skip = () => { while (i < text.length && /\s/.test(text[i]!)) i++; };
  skip();
  const dims = /^(ZM|Z|M)\b/i.exec(text.slice(i));
  if (dims) { i += dims[0].length; skip(); }
  if (/^EMPTY\b/i.test(text.slice(i))) return i + 5;
  if (text[i] !== '(') return 'a WKT geometry needs coordinates in parentheses';
  let depth = 0;
  for (; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i + 1;
  }
  return 'unbalanced parentheses in a WKT geometry';
}
