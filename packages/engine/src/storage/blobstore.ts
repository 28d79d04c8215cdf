// Where immutable data files live. The local directory is the implementation today; object storage later.

/** Immutable files addressed by a relative path ("parts/<table>/<part>.hlp"). */
export interface BlobStore {
  /** Writes a whole file atomically and durably: readers see all of it or none. */
  write(path: string, pieces: readonly Uint8Array[]): Promise<void>;
  /** Reads `into.length` bytes from `offset` into `into` (which may be SharedArrayBuffer-backed). */
  read(path: string, offset: number, into: Uint8Array): Promise<void>;
  /** Removes a file; a missing file is not an error. */
  remove(path: string): Promise<void>;
  /** Removes a folder and everything in it; a missing folder is not an error. */
  removeAll(prefix: string): Promise<void>;
  /** Every file path under a folder, recursively. */
  list(prefix: string): Promise<string[]>;
}
