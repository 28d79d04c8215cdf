// A file of several hundred MB streams through upload and download without being held in memory:
// generated chunk by chunk, compared by streaming SHA-256 on both sides.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { freshStore } from '../test-util/store.js';

const fresh = () => freshStore();

const CHUNK = 1 << 20;
const CHUNKS = 300;

// 300 MiB of seeded bytes (xorshift32), hashed as they are produced
function generated(hash: ReturnType<typeof createHash>): Readable {
  let state = 0x9e3779b9;
  let n = 0;
  return new Readable({
    read() {
      if (n++ === CHUNKS) return void this.push(null);
      const chunk = Buffer.allocUnsafe(CHUNK);
      const words = new Uint32Array(chunk.buffer, chunk.byteOffset, CHUNK / 4);
      for (let i = 0; i < words.length; i++) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        words[i] = state >>> 0;
      }
      hash.update(chunk);
      this.push(chunk);
    },
  });
}

it('uploads and downloads 300 MiB identically, by streaming hash', async () => {
  const t = (await fresh()).table('big');
  const sent = createHash('sha256');
  const id = await t.raw.upload('big.bin', generated(sent));
  const digest = sent.digest('hex');
  const [entry] = await t.raw.list();
  expect(entry).toMatchObject({ id, size: CHUNK * CHUNKS, sha256: digest });
  const received = createHash('sha256');
  let size = 0;
  for await (const chunk of await t.raw.download(id)) {
    received.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  expect(size).toBe(CHUNK * CHUNKS);
  expect(received.digest('hex')).toBe(digest);
});
