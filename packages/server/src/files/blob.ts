// Streaming a request body to disk durably: temp file, SHA-256 and size on the way, fsync, rename.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../errors.js';

/** What a finished write produced. */
export interface WrittenBlob {
  readonly size: number;
  readonly sha256: string;
}

/**
 * Writes `body` to `path` atomically: nothing at `path` changes unless every byte arrived, the size
 * stayed within `limit` (else 413) and the file reached the disk.
 */
export async function writeBlob(path: string, body: Readable, limit: number): Promise<WrittenBlob> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.tmp-${randomBytes(8).toString('hex')}`);
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > limit) return done(new ApiError(413, 'PayloadTooLarge', `the upload is larger than the limit of ${limit} bytes`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, meter, createWriteStream(tmp, { flush: true }));
    await rename(tmp, path);
    await syncDir(dirname(path));
  } catch (e) {
    await rm(tmp, { force: true });
    body.resume();
    throw e;
  }
  return { size, sha256: hash.digest('hex') };
}

async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
