// Group ids of rows: open-addressing hash tables over typed arrays (numbers, UTF-8 bytes), no per-row allocation.

/** Distinct number keys → dense ids 0, 1, ...; NaN is one key; -0 and 0 are one key. */
export class NumberGroups {
  readonly keys: number[] = [];
  private slots = new Int32Array(64);
  private readonly scratch = new Float64Array(1);
  private readonly bits = new Int32Array(this.scratch.buffer);

  /** Makes room for `n` keys without rehashing. */
  reserve(n: number): void {
    if (n * 2 <= this.slots.length) return;
    let size = this.slots.length;
    while (size < n * 2) size *= 2;
    this.rehash(size);
  }

  /** The id of `v`, added when new. */
  id(v: number): number {
    if (v === 0) v = 0; // -0
    this.scratch[0] = v;
    const mask = this.slots.length - 1;
    let h = Math.imul(this.bits[0]! ^ Math.imul(this.bits[1]!, 0x27d4eb2d), 0x9e3779b1) >>> 0;
    for (;;) {
      h &= mask;
      const s = this.slots[h]!;
      if (s === 0) return this.add(h, v);
      const k = this.keys[s - 1]!;
      if (k === v || (k !== k && v !== v)) return s - 1;
      h++;
    }
  }

  private add(slot: number, v: number): number {
    this.keys.push(v);
    this.slots[slot] = this.keys.length;
    if (this.keys.length * 2 > this.slots.length) this.grow();
    return this.keys.length - 1;
  }

  private grow(): void {
    this.rehash(this.slots.length * 2);
  }

  // re-places the keys (ids unchanged) in a table of `size` slots
  private rehash(size: number): void {
    const old = this.keys.slice();
    this.slots = new Int32Array(size);
    this.keys.length = 0;
    for (const k of old) this.id(k);
  }
}

/** Distinct byte strings `data[start, end)` → dense ids; keeps the first occurrence's range per id. */
export class BytesGroups {
  size = 0;
  /** Start and end of each id's first occurrence in `data` (the first `size` entries). */
  starts = new Int32Array(32);
  ends = new Int32Array(32);
  private hashes = new Int32Array(32);
  private slots = new Int32Array(64);

  constructor(private readonly data: Uint8Array) {}

  id(start: number, end: number): number {
    const d = this.data;
    let h = 0x811c9dc5 | 0;
    for (let i = start; i < end; i++) h = Math.imul(h ^ d[i]!, 0x01000193);
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let p = h & mask; ; p = (p + 1) & mask) {
      const s = slots[p]!;
      if (s === 0) return this.add(p, h, start, end);
      const g = s - 1;
      if (this.hashes[g] === h) {
        let a = this.starts[g]!;
        const aEnd = this.ends[g]!;
        if (aEnd - a === end - start) {
          let b = start;
          while (a < aEnd && d[a] === d[b]) a++, b++;
          if (a === aEnd) return g;
        }
      }
    }
  }

  private add(slot: number, h: number, start: number, end: number): number {
    const g = this.size++;
    if (g === this.starts.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      [this.starts, this.ends, this.hashes] = [grow(this.starts), grow(this.ends), grow(this.hashes)];
    }
    this.starts[g] = start;
    this.ends[g] = end;
    this.hashes[g] = h;
    this.slots[slot] = g + 1;
    if (this.size * 2 > this.slots.length) this.rehash();
    return g;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let g = 0; g < this.size; g++) {
      let p = this.hashes[g]! & mask;
      while (this.slots[p] !== 0) p = (p + 1) & mask;
      this.slots[p] = g + 1;
    }
  }
}
