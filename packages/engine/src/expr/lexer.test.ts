// Lexer: tokens, keyword case, literals, positions and error positions.
import { describe, expect, it } from 'vitest';
import { isHaloclineError } from '../errors.js';
import { tokenize } from './lexer.js';

const kinds = (q: string): string[] => tokenize(q).map((t) => `${t.kind}:${t.value}`);

function syntaxErrorOf(q: string): { message: string; position?: number; token?: string } {
  try {
    tokenize(q);
  } catch (e) {
    if (!isHaloclineError(e, 'QuerySyntax')) throw e;
    return { message: e.message, position: e.position, token: e.token };
  }
  throw new Error(`no error for ${q}`);
}

describe('tokenize', () => {
  it('reads every operator, longest match first', () => {
    expect(kinds('== != <> <= >= = < > + - * / % ( ) , ~')).toEqual([
      'op:==', 'op:!=', 'op:<>', 'op:<=', 'op:>=', 'op:=', 'op:<', 'op:>', 'op:+', 'op:-', 'op:*', 'op:/', 'op:%', 'op:(', 'op:)', 'op:,', 'op:~', 'eof:',
    ]);
    expect(kinds('a<=b')).toEqual(['ident:a', 'op:<=', 'ident:b', 'eof:']);
  });

  it('reads bare column and variable names in any script (letters, marks, digits after the first)', () => {
    expect(kinds('température > 1 and 深度 < $größe or e\u0301t\u00e92 == _x1')).toEqual([
      'ident:température', 'op:>', 'number:1', 'keyword:and', 'ident:深度', 'op:<', 'var:größe', 'keyword:or', 'ident:e\u0301t\u00e92', 'op:==', 'ident:_x1', 'eof:',
    ]);
    expect(kinds('𝑥1 > 0')[0]).toBe('ident:𝑥1');
    expect(syntaxErrorOf('a ¬ b')).toEqual({ message: "unexpected character '¬' at 2", position: 2, token: '¬' });
  });

  it('lower-cases keywords but keeps identifiers as written', () => {
    expect(kinds('AND Or nOt IS NULL In TRUE false WITHIN Intersect contains Depth')).toEqual([
      'keyword:and', 'keyword:or', 'keyword:not', 'keyword:is', 'keyword:null', 'keyword:in', 'keyword:true', 'keyword:false',
      'keyword:within', 'keyword:intersect', 'keyword:contains', 'ident:Depth', 'eof:',
    ]);
  });

  it('reads integers, decimals and exponents', () => {
    expect(kinds('1 12.5 .5 1. 1e3 2.5E-3 7e+2')).toEqual(['number:1', 'number:12.5', 'number:.5', 'number:1.', 'number:1e3', 'number:2.5E-3', 'number:7e+2', 'eof:']);
  });

  it('reads single- and double-quoted strings with escapes', () => {
    const [a, b, c] = tokenize(`'it\\'s' "say \\"hi\\"\\n" "\\u00e9\\\\x"`);
    expect([a!.value, b!.value, c!.value]).toEqual(["it's", 'say "hi"\n', 'é\\x']);
    expect(a!.text).toBe(`'it\\'s'`);
  });

  it('reads backtick-quoted identifiers, bind variables and positional parameters', () => {
    expect(kinds('`odd name` $name $1 ? ?')).toEqual(['ident:odd name', 'var:name', 'var:1', 'param:?', 'param:?', 'eof:']);
  });

  it('records 0-based positions and the end of input', () => {
    const tokens = tokenize('  depth >= 10');
    expect(tokens.map((t) => [t.pos, t.end])).toEqual([[2, 7], [8, 10], [11, 13], [13, 13]]);
  });

  it('rejects bad input with the position and token', () => {
    expect(syntaxErrorOf('a ! b')).toEqual({ message: "unexpected character '!' at 2", position: 2, token: '!' });
    expect(syntaxErrorOf("x == 'abc")).toMatchObject({ message: 'unterminated string starting at 5', position: 5, token: "'abc" });
    expect(syntaxErrorOf('`abc')).toMatchObject({ message: 'unterminated quoted identifier starting at 0', position: 0 });
    expect(syntaxErrorOf('x > 12abc')).toMatchObject({ message: "malformed number '12abc' at 4", position: 4, token: '12abc' });
    expect(syntaxErrorOf('x > 1.2.3')).toMatchObject({ position: 4, token: '1.2.3' });
    expect(syntaxErrorOf('x == $')).toMatchObject({ position: 5, token: '$' });
    expect(syntaxErrorOf('"\\u12"')).toMatchObject({ position: 1 });
  });
});
