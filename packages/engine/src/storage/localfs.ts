// BlobStore on a local directory: temp file + fsync + rename + directory fsync for atomic, durable writes.
import { randomBytes } from 'node:crypto';
import { closeSync, createReadStream, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writevSync } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { dirname, join, relative } from 'node:path';
import { HaloclineError } from '../errors.js';
import type { BlobReader, BlobStore, BlobWriter } from './blobstore.js';

/** Suffix of files being written; any left after a crash are removed at open. */
export const TEMP_SUFFIX = '.tmp';

/** A BlobStore rooted at a directory. */
export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  async create(path: string): Promise<BlobWriter> {
    const full = this.resolve(path);
    await mkdir(dirname(full), { recursive: true });
    const tmp = `${full}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`;
    return new LocalBlobWriter(await open(tmp, 'w'), tmp, full);
  }

  async read(path: string, offset: number, into: Uint8Array): Promise<void> {
    const reader = await this.openReader(path);
    try {
      await reader.read(offset, into);
    } finally {
      await reader.close();
    }
  }

  async openReader(path: string): Promise<BlobReader> {
    const fh = await open(this.resolve(path), 'r').catch((e: NodeJS.ErrnoException) => {
      throw new HaloclineError('Corrupt', `cannot open data file ${path}: ${e.message}`, { path });
    });
    return {
      async read(offset, into) {
        let done = 0;
        while (done < into.length) {
          const { bytesRead } = await fh.read(into, done, into.length - done, offset + done);
          if (bytesRead === 0) throw new HaloclineError('Corrupt', `data file ${path} is truncated at ${offset + done}`, { path });
          done += bytesRead;
        }
      },
      close: () => fh.close(),
    };
  }

  stream(path: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.resolve(path), range);
  }

  async remove(path: string): Promise<void> {
    // one unlink: `rm` walks the path in JavaScript first (lstat, then unlink), on the calling thread
    await unlink(this.resolve(path)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }

  async removeAll(prefix: string): Promise<void> {
    await rm(this.resolve(prefix), { recursive: true, force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const base = this.resolve(prefix);
    const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return [];
      throw e;
    });
    return entries.filter((e) => e.isFile()).map((e) => relative(this.root, join(e.parentPath, e.name)));
  }

  private resolve(path: string): string {
    return resolveIn(this.root, path);
  }
}

/** Appends under this many bytes are gathered (see `LocalBlobWriter.append`); larger ones are written alone. */
export const GATHER_BELOW = 1 << 16;

/** Contiguous small appends written by one call, once the event loop turn that made them ends. */
interface Gather {
  readonly at: number;
  readonly pieces: Uint8Array[];
  bytes: number;
  readonly done: Promise<void>;
  settle(error?: unknown): void;
}

// Appends at positions assigned when called, so several writes can be in flight on the one file.
class LocalBlobWriter implements BlobWriter {
  private position = 0;
  private readonly pending = new Set<Promise<unknown>>();
  private failed: unknown;
  // the small appends since the last large one, skip or turn of the event loop
  private gathered: Gather | null = null;

  constructor(
    private readonly fh: FileHandle,
    private readonly tmp: string,
    private readonly target: string,
  ) {}

  get size(): number {
    return this.position;
  }

  /**
   * Small appends (under `GATHER_BELOW`: an encoded file's message headers, padding, bitmaps, small
   * columns) made in one turn of the event loop are written together, one `writev` of at most
   * WRITEV_MAX pieces when the turn ends: each write call costs the calling thread ~20 µs of its
   * own, and a 10k-row partition file is ~40 pieces. A large append is written at once, alone, as
   * before (its write overlaps the encoding of the next column).
   */
  append(bytes: Uint8Array): Promise<void> {
    const at = this.position;
    this.position += bytes.length;
    if (bytes.length >= GATHER_BELOW) {
      this.gathered = null;
      return this.writeAt(at, bytes);
    }
    let g = this.gathered;
    if (g === null || g.pieces.length >= WRITEV_MAX) g = this.gathered = this.gather(at);
    g.pieces.push(bytes);
    g.bytes += bytes.length;
    return g.done;
  }

  skip(bytes: number): number {
    const at = this.position;
    this.position += bytes;
    this.gathered = null; // the next append is not contiguous with the last
    return at;
  }

  // a new gather starting at `at`, written when this turn of the event loop ends
  private gather(at: number): Gather {
    let settle!: (error?: unknown) => void;
    const done = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
    const g: Gather = { at, pieces: [], bytes: 0, done, settle };
    void this.track(done).catch(() => undefined); // observed by commit (and by the appends' callers)
    setImmediate(() => {
      if (this.gathered === g) this.gathered = null;
      writeAllAt(this.fh, g.pieces, g.bytes, g.at).then(
        () => g.settle(),
        (e: unknown) => g.settle(e ?? new Error('write failed')),
      );
    });
    return g;
  }

  writeAt(position: number, bytes: Uint8Array): Promise<void> {
    return this.track(writeFully(this.fh, bytes, position));
  }

  async flush(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    if (this.failed === undefined) await this.track(this.fh.datasync());
  }

  async commit(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    if (this.failed !== undefined) {
      await this.abort();
      throw this.failed;
    }
    try {
      await this.fh.sync();
      await this.fh.close();
    } catch (e) {
      await this.abort();
      throw e;
    }
    await rename(this.tmp, this.target);
    await syncDir(dirname(this.target));
  }

  // a write or sync in flight: the first failure fails the commit
  private track(op: Promise<void>): Promise<void> {
    const p = op.catch((e: unknown) => {
      this.failed ??= e;
      throw e;
    });
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p)).catch(() => undefined);
    return p;
  }

  async abort(): Promise<void> {
    await Promise.allSettled([...this.pending]);
    await this.fh.close().catch(() => undefined);
    await unlink(this.tmp).catch(() => undefined);
  }
}

// `pieces` (`total` bytes) at `at`, in one writev call unless it writes less than asked
async function writeAllAt(fh: FileHandle, pieces: readonly Uint8Array[], total: number, at: number): Promise<void> {
  if (pieces.length === 1) return writeFully(fh, pieces[0]!, at);
  for (let done = 0; done < total; ) {
    const { bytesWritten } = await fh.writev(dropBytes(pieces, done), at + done);
    if (bytesWritten === 0) throw new Error(`writev wrote nothing at ${at + done}`);
    done += bytesWritten;
  }
}

// one call per piece: 32 KiB block writes (as writeFileDurably makes) cost about twice the CPU where
// memory is warm, and a Parquet ingest's progressive writes compete with its decoders for the cores
// (bench W7 then INGEST, session 5: 256-275 ms with eight 32 KiB writes in flight, 226-228 ms without)
async function writeFully(fh: FileHandle, bytes: Uint8Array, at: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await fh.write(bytes, done, bytes.length - done, at + done);
    done += bytesWritten;
  }
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Writes `chunks` as the file `path` under `root` with synchronous calls (for a thread of its own,
 * `write/part-task.ts`): temp file, gathered writes of WRITE_BYTES each, fsync, rename,
 * directory fsync. The temp file is removed when it fails; a crash leaves it for open to remove.
 */
export function writeFileDurably(root: string, path: string, chunks: readonly Uint8Array[]): void {
  const full = resolveIn(root, path);
  mkdirSync(dirname(full), { recursive: true });
  const tmp = `${full}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`;
  const fd = openSync(tmp, 'w');
  let open = true;
  try {
    writeAllSync(fd, chunks);
    fsyncSync(fd);
    closeSync(fd);
    open = false;
    renameSync(tmp, full);
  } catch (e) {
    // the write's own error is the one reported; the temp file goes if it can
    if (open) ignoreFailure(() => closeSync(fd));
    ignoreFailure(() => unlinkSync(tmp));
    throw e;
  }
  const dir = openSync(dirname(full), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/**
 * Bytes per write call at most. The kernel sizes the page-cache folios of a buffered write by the
 * bytes the call has left (ext4 large folios), and folios above 32 KiB (order 3) come from the buddy
 * allocator's high-order blocks, not the per-CPU lists of recently freed pages. On a VM whose free
 * memory goes back to the host (virtio-balloon free page reporting, as on the bench machine) each
 * first touch of such a block faults on the host: one 70 MB writev measured 110-290 ms of system
 * time against 27-45 ms in 32 KiB calls ("Fresh memory is dear" in docs/architecture.md).
 */
export const WRITE_BYTES = 1 << 15;

// chunks per writev call (IOV_MAX is 1024 on Linux)
const WRITEV_MAX = 512;

/**
 * Writes `chunks` in order from position 0, in calls of WRITE_BYTES (the last may be shorter), each
 * starting on a multiple of it; returns the bytes written.
 */
export function writeAllSync(fd: number, chunks: readonly Uint8Array[], write: typeof writevSync = writevSync): number {
  let position = 0;
  let batch: Uint8Array[] = [];
  let bytes = 0;
  const flush = () => {
    writeBatch(fd, batch, bytes, position, write);
    position += bytes;
    batch = [];
    bytes = 0;
  };
  for (const c of chunks) {
    for (let at = 0; at < c.length; ) {
      const n = Math.min(c.length - at, WRITE_BYTES - bytes);
      batch.push(n === c.length ? c : c.subarray(at, at + n));
      bytes += n;
      at += n;
      if (bytes === WRITE_BYTES || batch.length === WRITEV_MAX) flush();
    }
  }
  if (bytes > 0) flush();
  return position;
}

// writev may write less than asked: continue from where it stopped
function writeBatch(fd: number, chunks: Uint8Array[], total: number, position: number, write: typeof writevSync): void {
  for (let done = 0; done < total; ) done += write(fd, dropBytes(chunks, done), position + done);
}

// `chunks` less their first `skip` bytes, as views
function dropBytes(chunks: readonly Uint8Array[], skip: number): Uint8Array[] {
  if (skip === 0) return chunks as Uint8Array[];
  const rest: Uint8Array[] = [];
  for (const c of chunks) {
    if (skip >= c.length) skip -= c.length;
    else {
      rest.push(skip > 0 ? c.subarray(skip) : c);
      skip = 0;
    }
  }
  return rest;
}

function resolveIn(root: string, path: string): string {
  if (path.includes('..')) throw new HaloclineError('InvalidArgument', `invalid blob path ${path}`, { path });
  return join(root, path);
}

function ignoreFailure(fn: () => void): void {
  try {
    fn();
  } catch {
    // best effort: a failure here must not replace the error being reported
  }
}
