// Where immutable data files live. The local directory is the implementation today; object storage later.
import type { Readable } from 'node:stream';

/** A file being written: appends in order, then commit makes it visible atomically and durably. */
export interface BlobWriter {
  /** Queues `bytes` after everything appended so far; appends may be in flight together. */
  append(bytes: Uint8Array): Promise<void>;
  /** Bytes appended so far (including ones still in flight). */
  readonly size: number;
  /** Leaves the next `bytes` bytes to `writeAt` (appends continue after them); returns where they start. */
  skip(bytes: number): number;
  /** Writes `bytes` at `position`, inside a stretch left by `skip`; may be in flight with appends. */
  writeAt(position: number, bytes: Uint8Array): Promise<void>;
  /**
   * Makes the bytes written so far durable (the writes finished when it is called; data only, not
   * the size), so the final commit has little left to flush. The file is still not visible.
   */
  flush(): Promise<void>;
  /** Waits for the appends, makes the file durable and visible under its path. */
  commit(): Promise<void>;
  /** Discards the file; nothing becomes visible. */
  abort(): Promise<void>;
}

/** An open file for many positioned reads (one open instead of one per read). Close it once. */
export interface BlobReader {
  /** Reads `into.length` bytes from `offset` into `into` (which may be SharedArrayBuffer-backed). */
  read(offset: number, into: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Immutable files addressed by a relative path ("parts/<table>/<part>.hlp"). */
export interface BlobStore {
  /** Starts writing a new file at `path`; readers see all of it after commit, or none of it. */
  create(path: string): Promise<BlobWriter>;
  /** Reads `into.length` bytes from `offset` into `into` (which may be SharedArrayBuffer-backed). */
  read(path: string, offset: number, into: Uint8Array): Promise<void>;
  /** Opens a file for many reads (a file read piece by piece, e.g. a Parquet file's column chunks). */
  openReader(path: string): Promise<BlobReader>;
  /** Streams a whole file (or the byte range [start, end]) without holding it in memory. */
  stream(path: string, range?: { start: number; end: number }): Readable;
  /** Removes a file; a missing file is not an error. */
  remove(path: string): Promise<void>;
  /** Removes a folder and everything in it; a missing folder is not an error. */
  removeAll(prefix: string): Promise<void>;
  /** Every file path under a folder, recursively. */
  list(prefix: string): Promise<string[]>;
}
