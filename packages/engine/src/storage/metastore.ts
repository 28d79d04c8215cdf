// Transactional metadata: tables, partition manifests, versions (values: JSON-able, bigints and Uint8Arrays allowed). LMDB today; a shared database later.

/** A read view or write transaction over the metadata keys. */
export interface MetaReader {
  get<T>(key: string): T | undefined;
  /** Whether `key` exists, without reading its value. */
  has(key: string): boolean;
  /** Entries whose key starts with `prefix`, in key order. */
  range<T>(prefix: string): Array<[string, T]>;
  /**
   * The keys starting with `prefix`, in key order, without reading their values; with `from`, only
   * those at or after it.
   */
  keys(prefix: string, from?: string): string[];
}

/** Writes inside one atomic transaction. */
export interface MetaTx extends MetaReader {
  put(key: string, value: unknown): void;
  remove(key: string): void;
}

/** The metadata store. Reads see committed state; `write` is atomic, serialised and durable. */
export interface MetaStore extends MetaReader {
  /**
   * Runs `fn` in one write transaction (reads inside see the latest committed state, writers are
   * serialised across threads and processes) and resolves with its result once the commit is durable.
   * When `fn` throws nothing is written and the error is rethrown.
   */
  write<R>(fn: (tx: MetaTx) => R): Promise<R>;
  /** Starts a new read snapshot, so the next reads see every commit made so far (by any process). */
  refreshRead(): void;
  close(): Promise<void>;
}
