// The file cut into blocks of whole records for parallel parsing. A record ends at a newline outside
// quotes: with RFC 4180 quoting ("" inside a quoted field is two quotes) that is a newline with an
// even count of quote characters before it, found by a byte scan from quote to quote. A quote in an
// unquoted field (malformed) can mislead the count; a block then ends inside a quoted field, its
// parser reports an unterminated quote, and the ingest parses the rest sequentially (source.ts).
import { sharedBuffer } from '../../exec/shared-memory.js';

/** Bytes per block handed to a worker. */
export const BLOCK_BYTES = 1 << 20;
const MAX_CARRY = 16 * BLOCK_BYTES;
const QUOTE = 0x22;
const NEWLINE = 0x0a;

/** A block of whole records: file offsets [start, end). */
export interface Block {
  readonly bytes: Uint8Array;
  readonly start: number;
  readonly end: number;
}

/** Reads file bytes [offset, offset + into.length) into `into`. */
export type ReadAt = (offset: number, into: Uint8Array) => Promise<void>;

/**
 * Blocks of the file bytes [start, end) (start a record boundary), of about `size` bytes each, read
 * into shared memory (posting a block to a worker copies nothing); returns the offset from which the
 * file must be parsed sequentially (no record end in MAX_CARRY bytes, e.g. CR-only line ends), or
 * null when every byte went into a block.
 */
export async function* recordBlocks(read: ReadAt, start: number, end: number, size = BLOCK_BYTES): AsyncGenerator<Block, number | null> {
  let offset = start; // file offset of carry[0]
  let carry: Uint8Array = new Uint8Array(0); // bytes read but not yet in a block
  while (offset + carry.length < end) {
    const fresh = Math.min(Math.max(size, carry.length), end - offset - carry.length);
    const buf = Buffer.from(sharedBuffer(carry.length + fresh));
    buf.set(carry, 0);
    await read(offset + carry.length, buf.subarray(carry.length));
    const last = offset + buf.length === end;
    const cut = last ? buf.length : lastRecordEnd(buf);
    if (cut === 0 && buf.length > MAX_CARRY) return offset;
    if (cut > 0) yield { bytes: buf.subarray(0, cut), start: offset, end: offset + cut };
    carry = buf.subarray(cut);
    offset += cut;
  }
  return null;
}

/**
 * Where the data rows begin: after the BOM and the header record (its newline may not be inside
 * quotes), or null when `head` holds no whole header record.
 */
export function dataStart(head: Buffer): number | null {
  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  const end = firstRecordEnd(head, bom);
  return end < 0 ? null : end;
}

/** The offset after the last newline of `buf` outside quotes (buf starts outside quotes), or 0. */
export function lastRecordEnd(buf: Buffer): number {
  // quotes split buf into runs alternately outside and inside a quoted field; outside runs start at
  // 0 and after every second quote
  const quotes: number[] = [];
  for (let q = buf.indexOf(QUOTE); q >= 0; q = buf.indexOf(QUOTE, q + 1)) quotes.push(q);
  let k = quotes.length % 2 === 0 ? quotes.length : quotes.length - 1; // index of the quote opening the run after the last outside run
  for (;;) {
    const runEnd = k < quotes.length ? quotes[k]! : buf.length;
    const runStart = k === 0 ? 0 : quotes[k - 1]! + 1;
    const nl = runEnd > runStart ? buf.lastIndexOf(NEWLINE, runEnd - 1) : -1;
    if (nl >= runStart) return nl + 1;
    if (k === 0) return 0;
    k -= 2;
  }
}

// the offset after the first newline at or after `from` outside quotes, or -1
function firstRecordEnd(buf: Buffer, from: number): number {
  let inside = false;
  for (let p = from; p < buf.length; p++) {
    const c = buf[p]!;
    if (c === QUOTE) inside = !inside;
    else if (c === NEWLINE && !inside) return p + 1;
  }
  return -1;
}
