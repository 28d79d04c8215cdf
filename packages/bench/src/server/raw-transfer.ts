// Raw file upload and download throughput over HTTP vs a plain streamed file copy on the same disk.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RunningServer } from '@halocline/server';
import { measure } from '../measure.js';
import type { Stats } from '../report.js';
import { mulberry32 } from '../generate.js';

/** MB/s (min / median / max) of each path. */
export interface TransferResult {
  readonly label: string;
  readonly mbPerSecond: Stats;
}

/** Writes a `mb` MiB file of seeded bytes (incompressible) and returns its path. */
export async function makeSource(dir: string, mb: number, seed: number): Promise<string> {
  const path = join(dir, 'source.bin');
  const rand = mulberry32(seed);
  const block = randomBytes(1 << 20);
  const out = createWriteStream(path);
  for (let i = 0; i < mb; i++) {
    block.writeUInt32LE((rand() * 2 ** 32) >>> 0, 0);
    if (!out.write(Buffer.from(block))) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r, j) => out.end((e?: Error | null) => (e ? j(e) : r())));
  return path;
}

/** Copy (baseline), upload and download, each `runs` times after a warm-up; all writes fsynced. */
export async function measureTransfers(server: RunningServer, key: string, dir: string, source: string, mb: number, runs: number): Promise<TransferResult[]> {
  const auth = { authorization: `ApiKey ${key}` };
  const ds = await (await fetch(`${server.url}/catalog`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      kind: 'catalog.example.io/dataset',
      version: 'v1alpha3',
      metadata: { name: 'bench-raw' },
      spec: { storage_controller: 'registry.example.io/storageController/storage-raw-cdffs', storage_class: 'registry.example.io/storageClass/raw', maintainer: { contact: 'b' } },
    }),
  })).json() as { metadata: { uuid: string } };
  const base = `${server.url}/data/${ds.metadata.uuid}`;
  await fetch(base, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'big.bin' }) });
  const rate = (s: Stats): Stats => ({ min: mb / (s.max / 1000), median: mb / (s.median / 1000), max: mb / (s.min / 1000), runs: s.runs });
  const copyTarget = join(dir, 'copy.bin');
  const copy = await measure(async () => {
    await pipeline(createReadStream(source), createWriteStream(copyTarget, { flush: true }));
  }, { runs, setup: () => rm(copyTarget, { force: true }) });
  const upload = await measure(async () => {
    const res = await fetch(`${base}/big.bin?overwrite=true`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body: Readable.toWeb(createReadStream(source)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
  }, { runs });
  const downloadTarget = join(dir, 'download.bin');
  const download = await measure(async () => {
    const res = await fetch(`${base}/big.bin`, { headers: auth });
    await pipeline(Readable.fromWeb(res.body as never), createWriteStream(downloadTarget, { flush: true }));
  }, { runs, setup: () => rm(downloadTarget, { force: true }) });
  return [
    { label: 'plain file copy (stream, fsync)', mbPerSecond: rate(copy) },
    { label: 'HTTP upload (PATCH, streamed to disk, sha256, fsync)', mbPerSecond: rate(upload) },
    { label: 'HTTP download (GET, to a file, fsync)', mbPerSecond: rate(download) },
  ];
}
