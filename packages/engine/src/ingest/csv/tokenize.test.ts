import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { Piece } from './fields.js';
import { Fields, tokenize } from './tokenize.js';

const OPTIONS = { delimiter: ',', quoteChar: '"', escapeChar: '"', skipEmptyLines: true } as const;

interface Parsed {
  readonly ok: boolean;
  readonly ragged: { readonly row: number; readonly count: number } | null;
  readonly records: string[][];
}

// the file's bytes tokenized (between other bytes, to catch reads past the range), as texts
function tokenized(text: string, width: number): Parsed {
  const body = Buffer.from(text, 'utf8');
  const bytes = Buffer.concat([Buffer.from('"x'), body, Buffer.from('"\n')]);
  const fields = new Fields(width);
  const from = 2;
  const to = 2 + body.length;
  if (!tokenize(bytes, from, to, fields)) return { ok: false, ragged: null, records: [] };
  const piece = new Piece(bytes, from, to, fields);
  const records = Array.from({ length: fields.ragged ? fields.ragged.row : fields.rows }, (_, r) => Array.from({ length: width }, (_, c) => piece.text(r * width + c)));
  return { ok: true, ragged: fields.ragged, records };
}

function expectLikePapa(text: string, papaOptions: Papa.ParseConfig): void {
  const papa = Papa.parse<string[]>(text, { ...OPTIONS, ...papaOptions });
  const width = papa.data[0]?.length ?? 1;
  const mine = tokenized(text, width);
  expect(mine.ok).toBe(true);
  expect(papa.errors.filter((e) => e.type === 'Quotes')).toEqual([]);
  const bad = papa.data.findIndex((r) => r.length !== width);
  expect(mine.ragged).toEqual(bad < 0 ? null : { row: bad, count: papa.data[bad]!.length });
  expect(mine.records).toEqual(bad < 0 ? papa.data : papa.data.slice(0, bad));
}

// field text: unicode, spaces, quotes inside (not at the start of) unquoted fields; quoted fields
// holding commas, "" escapes, LF, CR, CRLF
const plain = fc
  .array(fc.constantFrom('a', 'Z', '0', '-', '.', ' ', 'é', '海', '😀', '\t', 'x"y'), { maxLength: 6 })
  .map((a) => a.join(''))
  .filter((s) => !s.startsWith('"'));
const quoted = fc.array(fc.constantFrom('a', ',', '""', '\n', '\r', '\r\n', ' ', 'é', '😀'), { maxLength: 8 }).map((parts) => `"${parts.join('')}"`);
const field = fc.oneof(plain, quoted, fc.constant(''));
const record = (width: number) => fc.array(field, { minLength: width, maxLength: width }).map((r) => r.join(','));

describe('CSV byte tokenizer (Papa Parse as the oracle)', () => {
  it('well-formed files (LF or CRLF line ends, blank lines, with or without a last line end) read as Papa Parse reads them', () => {
    const file = fc
      .integer({ min: 1, max: 5 })
      .chain((width) => fc.tuple(fc.array(fc.oneof({ weight: 9, arbitrary: record(width) }, { weight: 1, arbitrary: fc.constant('') }), { minLength: 1, maxLength: 30 }), fc.constantFrom('\n', '\r\n'), fc.boolean()))
      .map(([rows, eol, last]) => ({ text: rows.join(eol) + (last ? eol : ''), eol }));
    fc.assert(
      fc.property(file, ({ text, eol }) => expectLikePapa(text, { newline: eol })),
      { numRuns: 600 },
    );
  });

  it('ragged records: the first one reported with its field count', () => {
    const file = fc
      .array(fc.integer({ min: 1, max: 4 }).chain(record), { minLength: 1, maxLength: 20 })
      .map((rows) => `${rows.join('\n')}\n`);
    fc.assert(
      fc.property(file, (text) => expectLikePapa(text, { newline: '\n' })),
      { numRuns: 300 },
    );
  });

  it('any bytes without CR: what it accepts, it reads as Papa Parse (LF line ends) does', () => {
    const text = fc.array(fc.constantFrom('a', 'é', ',', '"', '""', '\n', ' '), { maxLength: 40 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text, (t) => {
        const papa = Papa.parse<string[]>(t, { ...OPTIONS, newline: '\n' });
        const width = papa.data[0]?.length ?? 1;
        const mine = tokenized(t, width);
        if (!mine.ok) return;
        expect(papa.errors.filter((e) => e.type === 'Quotes')).toEqual([]);
        const bad = papa.data.findIndex((r) => r.length !== width);
        expect(mine.records).toEqual(bad < 0 ? papa.data : papa.data.slice(0, bad));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves to Papa Parse what it reads otherwise or finds malformed', () => {
    for (const t of ['"a', 'a,"b\n', '"a"b,c\n', '"a" ,b\n', 'a\rb\r', 'a,b\rc,d\n', '"a""', 'x\n"'])
      expect(tokenized(t, 2).ok, JSON.stringify(t)).toBe(false);
  });

  it('fixed cases: quotes, escapes, empty fields, CRLF, a lone "" line', () => {
    expect(tokenized('a,"b,c"\r\n"""q""",\r\n""\r\n,\r\n"x\r\ny",z', 2)).toEqual({
      ok: true,
      ragged: null,
      records: [
        ['a', 'b,c'],
        ['"q"', ''],
        ['', ''],
        ['x\r\ny', 'z'],
      ],
    });
    expect(tokenized('1,2\n3\n4,5\n', 2).ragged).toEqual({ row: 1, count: 1 });
    expect(tokenized('1,2\n3,4,5\n', 2).ragged).toEqual({ row: 1, count: 3 });
  });
});
