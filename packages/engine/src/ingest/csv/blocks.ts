// The file cut into blocks of whole records for parallel parsing, while that is safe: a block holding
// no quote character is whole lines, so it may end at its last newline. At the first block with a
// quote (a quoted field may hold a newline) it stops and says where the unsplit rest begins.
import type { Readable } from 'node:stream';

/** Bytes per block handed to a worker. */
const BLOCK_BYTES = 1 << 20;
const MAX_CARRY = 16 * BLOCK_BYTES;
const QUOTE = 0x22;
const NEWLINE = 0x0a;

/** A block of whole records and the file offset after it. */
export interface Block {
  readonly bytes: Buffer;
  readonly end: number;
}

/**
 * Blocks of the file from `start` (a record boundary) on; returns the offset from which the file
 * must be parsed sequentially, or null when every byte went into a block.
 */
export async function* recordBlocks(input: Readable, start: number): AsyncGenerator<Block, number | null> {
  let carry = Buffer.alloc(0);
  let offset = start; // file offset of carry[0]
  let pending: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      pending.push(chunk);
      size += chunk.length;
      if (size < BLOCK_BYTES) continue;
      const buf = Buffer.concat([carry, ...pending]);
      pending = [];
      size = 0;
      if (buf.indexOf(QUOTE) >= 0) return offset;
      const cut = buf.lastIndexOf(NEWLINE) + 1;
      // no newline in many blocks (a huge record, or CR line ends): stop holding it, parse sequentially
      if (cut === 0 && buf.length > MAX_CARRY) return offset;
      if (cut > 0) yield { bytes: buf.subarray(0, cut), end: offset + cut };
      carry = buf.subarray(cut);
      offset += cut;
    }
    const rest = Buffer.concat([carry, ...pending]);
    if (rest.indexOf(QUOTE) >= 0) return offset;
    if (rest.length > 0) yield { bytes: rest, end: offset + rest.length };
    return null;
  } finally {
    input.destroy();
  }
}

/**
 * Where the data rows begin: after the BOM and the header line, when the header holds no quote
 * (else null: the whole file is parsed sequentially).
 */
export function dataStart(head: Buffer): number | null {
  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  const eol = head.indexOf(NEWLINE, bom);
  if (eol < 0 || head.subarray(bom, eol).indexOf(QUOTE) >= 0) return null;
  return eol + 1;
}
