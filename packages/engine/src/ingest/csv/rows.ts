// CSV text to chunks of rows through fast-csv (RFC 4180 quoting, embedded newlines, CRLF, BOM),
// streamed: the parser is paused while a chunk is being consumed, so memory holds one chunk.
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { parse } from 'fast-csv';

/** Rows of one chunk (each an array of field strings) and the file bytes read so far. */
export interface RowChunk {
  readonly rows: string[][];
  readonly bytes: number;
}

/**
 * The records of `input` in chunks of up to `size` rows (the header row is the first record).
 * @example
 * for await (const { rows } of csvChunks(stream, 65536)) ...
 */
export async function* csvChunks(input: Readable, size: number): AsyncGenerator<RowChunk> {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const parser = parse<string[], string[]>({ headers: false, ignoreEmpty: true });
  input.on('error', (e) => parser.destroy(e));
  input.pipe(counter).pipe(parser);
  let rows: string[][] = [];
  let wake: (() => void) | null = null;
  let ended = false;
  let failure: Error | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  parser.on('data', (row: string[]) => {
    rows.push(row);
    if (rows.length >= size) {
      parser.pause();
      signal();
    }
  });
  parser.on('end', () => ((ended = true), signal()));
  parser.on('error', (e: Error) => ((failure = e), signal()));
  try {
    for (;;) {
      if (failure) throw failure;
      if (rows.length >= size || (ended && rows.length > 0)) {
        const out = rows;
        rows = [];
        yield { rows: out, bytes };
        if (!ended) parser.resume();
        continue;
      }
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    input.unpipe();
    input.destroy();
    parser.destroy();
  }
}
