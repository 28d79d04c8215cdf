import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { type Block, dataStart, lastRecordEnd, recordBlocks } from './blocks.js';

const OPTIONS = { delimiter: ',', quoteChar: '"', escapeChar: '"', skipEmptyLines: true } as const;
const records = (bytes: Uint8Array) => Papa.parse<string[]>(Buffer.from(bytes).toString('utf8'), OPTIONS).data;

// fields with quoting: plain, or quoted holding commas, "" escapes, LF, CRLF
const field = fc.oneof(
  fc.stringMatching(/^[a-z0-9.]{0,6}$/),
  fc.array(fc.constantFrom('a', ',', '""', '\n', '\r\n', ' '), { maxLength: 8 }).map((parts) => `"${parts.join('')}"`),
);
const csv = fc
  .tuple(fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 60 }), fc.constantFrom('\n', '\r\n'))
  .map(([rows, eol]) => rows.map((r) => r.join(',')).join(eol) + eol);

async function blocksOf(text: string, size: number): Promise<{ blocks: Block[]; rest: number | null }> {
  const file = Buffer.from(text, 'utf8');
  const read = async (offset: number, into: Uint8Array) => void into.set(file.subarray(offset, offset + into.length));
  const blocks: Block[] = [];
  const gen = recordBlocks(read, 0, file.length, size);
  for (;;) {
    const next = await gen.next();
    if (next.done) return { blocks, rest: next.value };
    blocks.push(next.value);
  }
}

describe('CSV record blocks', () => {
  it('cut only where a record ends: each block parsed alone gives the records of the whole file, in order', async () => {
    await fc.assert(
      fc.asyncProperty(csv, fc.integer({ min: 1, max: 64 }), async (text, size) => {
        const { blocks, rest } = await blocksOf(text, size);
        expect(rest).toBeNull();
        expect(Buffer.concat(blocks.map((b) => b.bytes)).toString('utf8')).toBe(text);
        blocks.forEach((b, i) => expect(b.start).toBe(i === 0 ? 0 : blocks[i - 1]!.end));
        expect(blocks.flatMap((b) => records(b.bytes))).toEqual(records(Buffer.from(text)));
      }),
      { numRuns: 150 },
    );
  });

  it('keeps CRLF whole at a block boundary and a quoted newline inside its block', async () => {
    const text = 'a,b\r\n"x\r\ny",z\r\nc,d\r\n';
    // every block size: no block ends between \r and \n, none inside the quoted field
    for (let size = 1; size <= text.length; size++) {
      const { blocks } = await blocksOf(text, size);
      for (const b of blocks) expect(Buffer.from(b.bytes).toString('utf8')).toMatch(/\r\n$/);
      expect(blocks.flatMap((b) => records(b.bytes))).toEqual([['a', 'b'], ['x\r\ny', 'z'], ['c', 'd']]);
    }
  });

  it('finds the last newline outside quotes, and none when every newline is quoted', () => {
    expect(lastRecordEnd(Buffer.from('a,"b\nc"\nd,"e\nf'))).toBe(8);
    expect(lastRecordEnd(Buffer.from('"a\nb""\nc'))).toBe(0);
    expect(lastRecordEnd(Buffer.from('no newline'))).toBe(0);
  });

  it('starts the data after a BOM and a header whose quoted name holds a newline', () => {
    expect(dataStart(Buffer.from('\ufeffid,"na\nme"\n1,2\n'))).toBe(3 + 11);
    expect(dataStart(Buffer.from('id,name'))).toBeNull();
  });
});
