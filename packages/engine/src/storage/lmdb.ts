// MetaStore on LMDB (lmdb-js): values are JSON with bigints tagged (binary fields in an envelope), keys are strings.
import { ABORT, type RootDatabase } from 'lmdb';
import type { MetaStore, MetaTx } from './metastore.js';
import { openShared, type SharedLmdb } from './lmdb-shared.js';

/**
 * Opens (creating if needed) the LMDB environment in the existing directory `path`; stores of one
 * process share it. `Corrupt` when its data file is not an LMDB environment (see `openShared`).
 */
export async function openLmdbMetaStore(path: string): Promise<MetaStore> {
  return new LmdbMetaStore(await openShared<Buffer>(path, { encoding: 'binary', compression: false }));
}

class LmdbMetaStore implements MetaStore {
  private readonly db: RootDatabase<Buffer, string>;

  constructor(private readonly handle: SharedLmdb<Buffer>) {
    this.db = handle.db;
  }

  get<T>(key: string): T | undefined {
    const raw = this.db.get(key);
    return raw === undefined ? undefined : (decode(raw) as T);
  }

  has(key: string): boolean {
    return this.db.doesExist(key);
  }

  keys(prefix: string, from?: string): string[] {
    return [...this.db.getKeys({ start: from !== undefined && from > prefix ? from : prefix, end: `${prefix}\uffff` })];
  }

  range<T>(prefix: string): Array<[string, T]> {
    const out: Array<[string, T]> = [];
    for (const { key, value } of this.db.getRange({ start: prefix, end: `${prefix}\uffff` })) {
      out.push([key, decode(value) as T]);
    }
    return out;
  }

  async write<R>(fn: (tx: MetaTx) => R): Promise<R> {
    const db = this.db;
    const tx: MetaTx = {
      get: (key) => this.get(key),
      has: (key) => this.has(key),
      range: (prefix) => this.range(prefix),
      keys: (prefix, from) => this.keys(prefix, from),
      put: (key, value) => void db.put(key, encode(value)),
      remove: (key) => void db.remove(key),
    };
    let failure: { error: unknown } | undefined;
    // lmdb-js batches async transactions together, so only a child transaction can be rolled back alone
    const result = await db.transaction(() =>
      db.childTransaction(() => {
        try {
          return fn(tx);
        } catch (error) {
          failure = { error };
          return ABORT;
        }
      }),
    );
    if (failure) throw failure.error;
    await db.flushed;
    return result as R;
  }

  refreshRead(): void {
    this.db.resetReadTxn();
  }

  async close(): Promise<void> {
    await this.handle.release();
  }
}

/**
 * JSON with the values it cannot hold tagged: bigints and non-finite numbers (Infinity is a valid zone
 * bound). A value holding Uint8Arrays is an envelope instead: byte 0 = BINARY (never the first byte of
 * JSON), u32 LE length of the JSON, the JSON with each array as `{$bin: i}`, then each array as u32 LE
 * length + bytes. Arrays come back as copies, so they may be kept.
 */
export function encode(value: unknown): Buffer {
  const blobs: Uint8Array[] = [];
  const json = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'bigint') return { $bigint: v.toString() };
    if (typeof v === 'number' && !Number.isFinite(v)) return { $number: String(v) };
    if (v instanceof Uint8Array) return { $bin: blobs.push(v) - 1 };
    return v;
  });
  if (blobs.length === 0) return Buffer.from(json);
  const text = Buffer.from(json);
  const out = Buffer.allocUnsafe(5 + text.length + blobs.reduce((n, b) => n + 4 + b.length, 0));
  out[0] = BINARY;
  out.writeUInt32LE(text.length, 1);
  text.copy(out, 5);
  let at = 5 + text.length;
  for (const b of blobs) {
    out.writeUInt32LE(b.length, at);
    out.set(b, at + 4);
    at += 4 + b.length;
  }
  return out;
}

export function decode(raw: Buffer): unknown {
  let text = raw;
  const blobs: Uint8Array[] = [];
  if (raw[0] === BINARY) {
    const length = raw.readUInt32LE(1);
    text = raw.subarray(5, 5 + length);
    for (let at = 5 + length; at < raw.length; ) {
      const n = raw.readUInt32LE(at);
      blobs.push(new Uint8Array(raw.subarray(at + 4, at + 4 + n)));
      at += 4 + n;
    }
  }
  return JSON.parse(text.toString(), (_k, v: unknown) => {
    if (v === null || typeof v !== 'object') return v;
    const tagged = v as { $bigint?: unknown; $number?: unknown; $bin?: unknown };
    if (typeof tagged.$bigint === 'string') return BigInt(tagged.$bigint);
    if (typeof tagged.$number === 'string') return Number(tagged.$number);
    if (typeof tagged.$bin === 'number') return blobs[tagged.$bin];
    return v;
  });
}

const BINARY = 0;
