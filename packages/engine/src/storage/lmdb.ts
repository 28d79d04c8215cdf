// MetaStore on LMDB (lmdb-js): values are JSON with bigints tagged, keys are strings.
import { ABORT, open, type RootDatabase } from 'lmdb';
import type { MetaStore, MetaTx } from './metastore.js';

/** Opens (creating if needed) the LMDB environment at `path`. */
export function openLmdbMetaStore(path: string): MetaStore {
  const db = open<Buffer, string>({ path, encoding: 'binary', compression: false });
  return new LmdbMetaStore(db);
}

class LmdbMetaStore implements MetaStore {
  constructor(private readonly db: RootDatabase<Buffer, string>) {}

  get<T>(key: string): T | undefined {
    const raw = this.db.get(key);
    return raw === undefined ? undefined : (decode(raw) as T);
  }

  range<T>(prefix: string): Array<[string, T]> {
    const out: Array<[string, T]> = [];
    for (const { key, value } of this.db.getRange({ start: prefix, end: `${prefix}\uffff` })) {
      out.push([key, decode(value) as T]);
    }
    return out;
  }

  keys(prefix: string): string[] {
    return [...this.db.getKeys({ start: prefix, end: `${prefix}\uffff` })];
  }

  async write<R>(fn: (tx: MetaTx) => R): Promise<R> {
    const db = this.db;
    const tx: MetaTx = {
      get: (key) => this.get(key),
      range: (prefix) => this.range(prefix),
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
    await this.db.close();
  }
}

// JSON with the values it cannot hold tagged: bigints and non-finite numbers (Infinity is a valid zone bound)
function encode(value: unknown): Buffer {
  return Buffer.from(
    JSON.stringify(value, (_k, v: unknown) => {
      if (typeof v === 'bigint') return { $bigint: v.toString() };
      if (typeof v === 'number' && !Number.isFinite(v)) return { $number: String(v) };
      return v;
    }),
  );
}

function decode(raw: Buffer): unknown {
  return JSON.parse(raw.toString(), (_k, v: unknown) => {
    if (v === null || typeof v !== 'object') return v;
    const tagged = v as { $bigint?: unknown; $number?: unknown };
    if (typeof tagged.$bigint === 'string') return BigInt(tagged.$bigint);
    if (typeof tagged.$number === 'string') return Number(tagged.$number);
    return v;
  });
}
