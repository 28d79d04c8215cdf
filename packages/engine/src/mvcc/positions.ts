// Compact binary encoding of sorted row positions (deletion vectors, compaction's dropped rows).

/**
 * Encodes sorted, distinct row positions in the smallest of four containers (byte 0 says which):
 * LIST (u32 LE per row), RUNS (u32 start, u32 length per run of consecutive rows), BITMAP (u32
 * first row, then LSB-first bits from it), or GAPS (LEB128 varints: the first row, then each row's
 * distance to the previous minus one). A delete of a range of an ordered column is a few runs; a
 * scattered 1% is about 1.3 bytes of gaps per row; a dense scatter is a bitmap. Payloads start at
 * byte 4. GAPS came with store format v3.
 * @example
 * decodePositions(encodePositions(Uint32Array.of(3, 4, 5, 9))) // Uint32Array [3, 4, 5, 9]
 */
export function encodePositions(rows: Uint32Array): Uint8Array {
  const n = rows.length;
  const runs = countRuns(rows);
  const gaps = gapBytes(rows);
  const span = n === 0 ? 0 : rows[n - 1]! - rows[0]! + 1;
  const sizes = [4 * n, 8 * runs, 4 + Math.ceil(span / 8), gaps]; // spans may pass 2^31: no shifts
  const kind = sizes.indexOf(Math.min(...sizes));
  const out = new Uint8Array(4 + sizes[kind]!);
  out[0] = kind;
  // every loop is in a function of its own: a loop here would be compiled alone (OSR) before the
  // code after it had run, and deoptimise there on every call (a replace's ten deletion vectors)
  if (kind === LIST) encodeList(rows, out);
  else if (kind === RUNS) encodeRuns(rows, new DataView(out.buffer, 4));
  else if (kind === GAPS) encodeGaps(rows, out);
  else encodeBitmap(rows, out);
  return out;
}

// how many runs of consecutive rows
function countRuns(rows: Uint32Array): number {
  let runs = 0;
  for (let k = 0, prev = -2; k < rows.length; k++) {
    const row = rows[k]!;
    runs += +(row !== prev + 1);
    prev = row;
  }
  return runs;
}

// the bytes of the GAPS container's varints; branch-free: gap sizes of a scatter are unpredictable
function gapBytes(rows: Uint32Array): number {
  let gaps = 0;
  for (let k = 0, prev = -1; k < rows.length; k++) {
    const row = rows[k]!;
    const gap = row - prev - 1;
    gaps += 1 + +(gap >= 0x80) + +(gap >= 0x4000) + +(gap >= 0x20_0000) + +(gap >= 0x1000_0000);
    prev = row;
  }
  return gaps;
}

// u32 LE per row: the rows' own bytes (little-endian, as everywhere here)
function encodeList(rows: Uint32Array, out: Uint8Array): void {
  out.set(new Uint8Array(rows.buffer, rows.byteOffset, 4 * rows.length), 4);
}

// one store per run, not per row (a band of a sorted partition is one run of many rows)
function encodeRuns(rows: Uint32Array, body: DataView): void {
  const n = rows.length;
  for (let k = 0, r = 0; k < n; r++) {
    const start = rows[k]!;
    let end = k + 1;
    while (end < n && rows[end]! === rows[end - 1]! + 1) end++;
    body.setUint32(8 * r, start, true);
    body.setUint32(8 * r + 4, end - k, true);
    k = end;
  }
}

function encodeGaps(rows: Uint32Array, out: Uint8Array): void {
  const n = rows.length;
  let at = 4;
  for (let k = 0, prev = -1; k < n; k++) {
    const row = rows[k]!;
    const gap = row - prev - 1;
    prev = row;
    if (gap < 0x4000) {
      // one or two bytes, without a branch on which
      const more = +(gap >= 0x80);
      out[at] = (gap & 0x7f) | (more << 7);
      out[at + 1] = gap >>> 7; // when unused: overwritten by the next gap, or past the end (a no-op store)
      at += 1 + more;
    } else {
      for (let g = gap; ; g >>>= 7) {
        // unsigned shifts: a gap may need all 32 bits
        if (g < 0x80) {
          out[at++] = g;
          break;
        }
        out[at++] = (g & 0x7f) | 0x80;
      }
    }
  }
}

function encodeBitmap(rows: Uint32Array, out: Uint8Array): void {
  const first = rows[0]!;
  new DataView(out.buffer, 4).setUint32(0, first, true);
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]! - first;
    out[8 + (i >> 3)]! |= 1 << (i & 7);
  }
}

/** The sorted positions of an encoding (a string: the first format's base64 of a u32 LE list). */
export function decodePositions(encoded: Uint8Array | string): Uint32Array {
  if (typeof encoded === 'string') return fromBytes(Buffer.from(encoded, 'base64'));
  if (encoded[0] === LIST) return fromBytes(encoded.subarray(4));
  if (encoded[0] === GAPS) return decodeGaps(encoded);
  const out: number[] = [];
  forEachPosition(encoded, (row) => void out.push(row));
  return Uint32Array.from(out);
}

/** Sets the bit of each encoded position in `bits` (LSB-first); returns how many were not set already. */
export function markPositions(bits: Uint8Array, encoded: Uint8Array | string): number {
  let added = 0;
  const mark = (row: number) => {
    const mask = 1 << (row & 7);
    if ((bits[row >> 3]! & mask) === 0) added++;
    bits[row >> 3]! |= mask;
  };
  if (typeof encoded === 'string' || encoded[0] === LIST || encoded[0] === GAPS) {
    const rows = decodePositions(encoded);
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k]!;
      const mask = 1 << (row & 7);
      if ((bits[row >> 3]! & mask) === 0) added++;
      bits[row >> 3]! |= mask;
    }
  } else forEachPosition(encoded, mark);
  return added;
}

/** How many positions an encoding holds. */
export function countPositions(encoded: Uint8Array | string): number {
  if (typeof encoded === 'string') return decodePositions(encoded).length;
  if (encoded[0] === LIST) return (encoded.length - 4) >> 2;
  if (encoded[0] === GAPS) return countGaps(encoded);
  let n = 0;
  forEachPosition(encoded, () => void n++);
  return n;
}

const LIST = 0;
const RUNS = 1;
const BITMAP = 2;
const GAPS = 3;

// one position per varint: the bytes without the continuation bit
function countGaps(encoded: Uint8Array): number {
  let n = 0;
  for (let at = 4; at < encoded.length; at++) n += (encoded[at]! >>> 7) ^ 1;
  return n;
}

function decodeGaps(encoded: Uint8Array): Uint32Array {
  const out = new Uint32Array(countGaps(encoded));
  let row = -1;
  for (let at = 4, k = 0; k < out.length; k++) {
    let byte = encoded[at++]!;
    let gap = byte & 0x7f;
    for (let scale = 128; byte >= 0x80; scale *= 128) {
      byte = encoded[at++]!;
      gap += (byte & 0x7f) * scale;
    }
    row += gap + 1;
    out[k] = row;
  }
  return out;
}

function forEachPosition(encoded: Uint8Array, fn: (row: number) => void): void {
  const body = new DataView(encoded.buffer, encoded.byteOffset + 4, encoded.byteLength - 4);
  const kind = encoded[0];
  if (kind === LIST) {
    for (let at = 0; at < body.byteLength; at += 4) fn(body.getUint32(at, true));
  } else if (kind === RUNS) {
    for (let at = 0; at < body.byteLength; at += 8) {
      const start = body.getUint32(at, true);
      const end = start + body.getUint32(at + 4, true);
      for (let row = start; row < end; row++) fn(row);
    }
  } else if (kind === GAPS) {
    const rows = decodeGaps(encoded);
    for (let k = 0; k < rows.length; k++) fn(rows[k]!);
  } else if (kind === BITMAP) {
    const first = body.getUint32(0, true);
    for (let i = 0; i < (body.byteLength - 4) * 8; i++) if ((encoded[8 + (i >> 3)]! >> (i & 7)) & 1) fn(first + i);
  } else {
    throw new Error(`unknown row position encoding ${String(kind)}`);
  }
}

// a u32 LE list (this engine runs on little-endian machines only: typed arrays are the file format too)
function fromBytes(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(bytes.length >> 2);
  new Uint8Array(out.buffer).set(bytes.subarray(0, out.length * 4));
  return out;
}
