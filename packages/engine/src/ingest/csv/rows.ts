// CSV text to chunks of rows through Papa Parse (RFC 4180 quoting, embedded newlines, CRLF, BOM),
// streamed: the file stream is paused while a chunk is being consumed (Papa parses each piece of
// text synchronously as it arrives), so memory holds about one chunk of rows and one read.
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import Papa from 'papaparse';
import { HaloclineError } from '../../errors.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const OPTIONS = { delimiter: ',', quoteChar: '"', escapeChar: '"', skipEmptyLines: true } as const;

/** Rows of one chunk (each an array of field strings) and the file bytes read so far. */
export interface RowChunk {
  readonly rows: string[][];
  readonly bytes: number;
}

/**
 * The records of `input` (UTF-8) in chunks of about `size` rows (the header row is the first record,
 * unless `input` starts after `recordsBefore` records); blank lines are skipped. Malformed quoting is
 * InvalidData naming the record.
 * @example
 * for await (const { rows } of csvChunks(stream, 65536)) ...
 */
export async function* csvChunks(input: Readable, size: number, recordsBefore = 0): AsyncGenerator<RowChunk> {
  let bytes = 0;
  let head: Buffer | null = Buffer.alloc(0); // the file's first bytes until a BOM is ruled out or cut
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (head === null) return done(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length < BOM.length && BOM.subarray(0, head.length).equals(head)) return done();
      const out = head.subarray(0, BOM.length).equals(BOM) ? head.subarray(BOM.length) : head;
      head = null;
      done(null, out);
    },
    flush(done) {
      done(null, head ?? undefined);
    },
  });
  // decoded here (a StringDecoder keeps a character split between two reads whole)
  counter.setEncoding('utf8');
  input.on('error', (e) => counter.destroy(e));
  input.pipe(counter);
  let rows: string[][] = [];
  let seen = recordsBefore; // records (of the file, the header included) before `rows`
  let wake: (() => void) | null = null;
  let ended = false;
  let failure: Error | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  Papa.parse<string[]>(counter, {
    ...OPTIONS,
    chunk(results, parser) {
      const bad = results.errors.find((e) => e.type === 'Quotes');
      if (bad && !failure) {
        const record = seen + rows.length + (bad.row ?? 0);
        failure = new HaloclineError('InvalidData', `record ${record} (0 is the header): ${bad.message.toLowerCase()}`, { row: record - 1 });
        parser.abort();
      }
      for (const r of results.data) rows.push(r);
      if (rows.length >= size) counter.pause();
      signal();
    },
    complete: () => ((ended = true), signal()),
    error: (e: Error) => ((failure ??= e), (ended = true), signal()),
  });
  try {
    for (;;) {
      if (failure) throw failure;
      if (rows.length >= size || (ended && rows.length > 0)) {
        const out = rows;
        rows = [];
        seen += out.length;
        yield { rows: out, bytes };
        if (!ended) counter.resume();
        continue;
      }
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    input.unpipe();
    input.destroy();
    counter.destroy();
  }
}
