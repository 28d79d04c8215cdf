// BlobStore on a local directory: temp file + fsync + rename + directory fsync for atomic, durable writes.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { HaloclineError } from '../errors.js';
import type { BlobStore } from './blobstore.js';

/** Suffix of files being written; any left after a crash are removed at open. */
export const TEMP_SUFFIX = '.tmp';

/** A BlobStore rooted at a directory. */
export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  async write(path: string, pieces: readonly Uint8Array[]): Promise<void> {
    const full = this.resolve(path);
    await mkdir(dirname(full), { recursive: true });
    const tmp = `${full}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`;
    const fh = await open(tmp, 'w');
    try {
      await fh.writev(pieces as Uint8Array[]);
      await fh.sync();
    } catch (e) {
      await fh.close().catch(() => undefined);
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
    await fh.close();
    await rename(tmp, full);
    await syncDir(dirname(full));
  }

  async read(path: string, offset: number, into: Uint8Array): Promise<void> {
    const full = this.resolve(path);
    const fh = await open(full, 'r').catch((e: NodeJS.ErrnoException) => {
      throw new HaloclineError('Corrupt', `cannot open data file ${path}: ${e.message}`, { path });
    });
    try {
      let done = 0;
      while (done < into.length) {
        const { bytesRead } = await fh.read(into, done, into.length - done, offset + done);
        if (bytesRead === 0) throw new HaloclineError('Corrupt', `data file ${path} is truncated at ${offset + done}`, { path });
        done += bytesRead;
      }
    } finally {
      await fh.close();
    }
  }

  async remove(path: string): Promise<void> {
    await rm(this.resolve(path), { force: true });
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
    if (path.includes('..')) throw new HaloclineError('InvalidArgument', `invalid blob path ${path}`, { path });
    return join(this.root, path);
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
