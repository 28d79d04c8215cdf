// A byte-level CSV tokenizer (RFC 4180, comma-separated): a piece of whole records becomes the byte
// ranges of its fields, column-addressable (field c of row r at r * width + c), with no string or
// array per field or row. Fields are read the way Papa Parse (the sequential path's parser) reads
// them; anything it reads differently or reports as malformed is left to it (`split`).
/** The byte ranges of a piece's fields; reused from piece to piece (grown as needed). */
export class Fields {
  /** Data records of the piece (blank lines are skipped, as Papa Parse's skipEmptyLines does). */
  rows = 0;
  /** The first record whose field count is not the width: its row and field count, or null. */
  ragged: { readonly row: number; readonly count: number } | null = null;
  /** Field content starts (inside the quotes of a quoted field), at row * width + column. */
  starts = new Int32Array(0);
  /** Field content ends (exclusive). */
  ends = new Int32Array(0);
  /** 1 where a quoted field's content holds "" escapes (its text needs unescaping). */
  escaped = new Uint8Array(0);

  constructor(readonly width: number) {}

  /** Makes room for `rows` rows, keeping the first `keep`. */
  reserve(rows: number, keep: number): void {
    const need = rows * this.width;
    if (need <= this.starts.length) return;
    const size = Math.max(need, this.starts.length * 2);
    const grow = <T extends Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(a.subarray(0, keep * this.width));
      return next;
    };
    this.starts = grow(this.starts, (n) => new Int32Array(n));
    this.ends = grow(this.ends, (n) => new Int32Array(n));
    this.escaped = grow(this.escaped, (n) => new Uint8Array(n));
  }
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
// 1 for the bytes that end an unquoted field
const SPECIAL = new Uint8Array(256);
SPECIAL[COMMA] = SPECIAL[LF] = SPECIAL[CR] = 1;

/**
 * Tokenizes the records of `b[from, to)` (starting at a record boundary) into `out`. A record ends
 * at LF or CRLF outside quotes; a quoted field starts with a quote and ends at a quote not doubled
 * (`""` is an escaped quote; commas, LF and CR inside are data); a quote inside an unquoted field is
 * data. Returns false (and `out` is then unusable) where Papa Parse would read the bytes otherwise or
 * find them malformed: a quoted field unterminated or followed by anything but a comma, a line end
 * or the end, and a CR outside quotes not followed by LF (CR-only line ends).
 */
export function tokenize(b: Uint8Array, from: number, to: number, out: Fields): boolean {
  const width = out.width;
  out.ragged = null;
  out.reserve(Math.max(16, ((to - from) >> 5) + 1), 0);
  let { starts, ends, escaped } = out;
  let row = 0;
  let p = from;
  while (p < to) {
    if (row * width + width > starts.length) {
      out.reserve(row + 1, row);
      ({ starts, ends, escaped } = out);
    }
    const base = row * width;
    let f = 0; // fields of this record so far
    let firstEmpty = false; // the first field is empty (a blank line when it is the only one)
    for (;;) {
      let s: number;
      let e: number;
      let esc = 0;
      let c: number; // the byte after the field (-1 at the end)
      if (p < to && b[p] === QUOTE) {
        s = p + 1;
        let q = s;
        for (;;) {
          q = b.indexOf(QUOTE, q);
          if (q < 0 || q >= to) return false; // unterminated
          if (q + 1 < to && b[q + 1] === QUOTE) {
            esc = 1;
            q += 2;
            continue;
          }
          break;
        }
        e = q;
        p = q + 1;
        c = p < to ? b[p]! : -1;
        if (c !== COMMA && c !== LF && c !== -1 && !(c === CR && p + 1 < to && b[p + 1] === LF)) return false;
      } else {
        s = p;
        while (p < to && SPECIAL[b[p]!] === 0) p++;
        e = p;
        c = p < to ? b[p]! : -1;
        if (c === CR && !(p + 1 < to && b[p + 1] === LF)) return false; // a lone CR: not a line end here
      }
      if (f < width) {
        starts[base + f] = s;
        ends[base + f] = e;
        escaped[base + f] = esc;
      }
      if (f === 0) firstEmpty = e === s;
      f++;
      if (c === COMMA) {
        p++;
        continue;
      }
      p += c === CR ? 2 : c === LF ? 1 : 0;
      break;
    }
    if (f === 1 && firstEmpty) continue; // a blank line (or a lone "")
    if (f !== width && out.ragged === null) out.ragged = { row, count: f };
    row++;
  }
  out.rows = row;
  return true;
}
