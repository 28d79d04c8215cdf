// Group ids of rows: open-addressing hash tables over typed arrays (numbers, UTF-8 bytes), no per-row allocation.

/** Distinct number keys → dense ids 0, 1, ...; NaN is one key; -0 and 0 are one key. */
export class NumberGroups {
  readonly keys: number[] = [];
  private slots = new Int32Array(64);
  private readonly scratch = new Float64Array(1);
  private readonly bits = new Int32Array(this.scratch.buffer);

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
    const old = this.keys.slice();
    this.slots = new Int32Array(this.slots.length * 2);
    this.keys.length = 0;
    for (const k of old) this.id(k);
  }
}

/** Distinct byte strings `data[start, end)` → dense ids; keeps the first occurrence's range per id. */
export class BytesGroups {
  /** Start and end of each id's first occurrence in `data`. */
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  private slots = new Int32Array(64);
  private hashes: number[] = [];

  constructor(private readonly data: Uint8Array) {}

  get size(): number {
    return this.starts.length;
  }

  id(start: number, end: number): number {
    const d = this.data;
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ d[i]!, 0x01000193);
    h >>>= 0;
    const mask = this.slots.length - 1;
    for (let p = h; ; p++) {
      const s = this.slots[p & mask]!;
      if (s === 0) return this.add(p & mask, h, start, end);
      const g = s - 1;
      if (this.hashes[g] === h && this.equal(this.starts[g]!, this.ends[g]!, start, end)) return g;
    }
  }

  private equal(a: number, aEnd: number, b: number, bEnd: number): boolean {
    if (aEnd - a !== bEnd - b) return false;
    const d = this.data;
    for (; a < aEnd; a++, b++) if (d[a] !== d[b]) return false;
    return true;
  }

  private add(slot: number, h: number, start: number, end: number): number {
    this.starts.push(start);
    this.ends.push(end);
    this.hashes.push(h);
    this.slots[slot] = this.starts.length;
    if (this.starts.length * 2 > this.slots.length) this.grow();
    return this.starts.length - 1;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let g = 0; g < this.hashes.length; g++) {
      let p = this.hashes[g]! & mask;
      while (this.slots[p] !== 0) p = (p + 1) & mask;
      this.slots[p] = g + 1;
    }
  }
}
