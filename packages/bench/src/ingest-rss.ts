// Peak memory of a multi-GB CSV ingest: writes a seeded CSV of --gb GiB into a temp dir (streamed),
// uploads it to a fresh store from a file stream and ingests it into a new table (types inferred),
// sampling RSS (all threads) and reading the kernel's high-water mark; deletes everything after.
// The second half of the rows quote their text field, so the parallel blocks cut outside quotes
// (csv/blocks.ts) are measured too; the first 65,536 rows are read once more for type inference.
//   node dist/ingest-rss.js [--gb 3] [--workers 2]
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadEngine } from './engine.js';

const MiB = 1024 * 1024;
const TARGET_MIB = 1024;

const { values } = parseArgs({ options: { gb: { type: 'string', default: '3' }, workers: { type: 'string', default: '2' } } });
const bytesWanted = Number(values.gb) * 1024 * MiB;

const dir = await mkdtemp(join(tmpdir(), 'halocline-ingest-rss-'));
try {
  const csv = join(dir, 'big.csv');
  const t0 = performance.now();
  const rows = await writeCsv(csv, bytesWanted);
  const size = (await stat(csv)).size;
  log(`wrote ${rows} rows, ${(size / MiB).toFixed(0)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const openEngine = await loadEngine();
  if (typeof openEngine === 'string') throw new Error(openEngine);
  const store = await openEngine(join(dir, 'store'), Number(values.workers));
  let peak = process.memoryUsage.rss();
  const startMiB = peak / MiB;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  try {
    const t = store.table('big');
    const t1 = performance.now();
    const id = await t.raw.upload('big.csv', createReadStream(csv));
    const uploadS = (performance.now() - t1) / 1000;
    const t2 = performance.now();
    let reported = 0;
    const result = await t.raw.ingest(id, {
      onProgress: (p) => {
        if (p.bytes - reported >= size / 10) log(`  ${((reported = p.bytes) / MiB).toFixed(0)} MiB, ${p.rows} rows, RSS ${(process.memoryUsage.rss() / MiB).toFixed(0)} MiB`);
      },
    });
    const ingestS = (performance.now() - t2) / 1000;
    const count = await t.select().count();
    clearInterval(timer);
    const hwm = await highWaterMiB();
    const peakMiB = Math.max(peak / MiB, hwm ?? 0);
    console.log(`CSV ${(size / MiB).toFixed(0)} MiB, ${rows} rows: upload ${uploadS.toFixed(1)} s, ingest ${ingestS.toFixed(1)} s (${(result.rows / ingestS / 1e6).toFixed(2)} M rows/s), table count ${count}`);
    console.log(`peak RSS ${peakMiB.toFixed(0)} MiB (sampled ${(peak / MiB).toFixed(0)} MiB every 10 ms, VmHWM ${hwm?.toFixed(0) ?? '—'} MiB; ${startMiB.toFixed(0)} MiB after openStore); target < ${TARGET_MIB} MiB: ${peakMiB < TARGET_MIB && count === rows ? 'PASS' : 'MISS'}`);
    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    if (count !== rows) process.exitCode = 1;
  } finally {
    clearInterval(timer);
    await store.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

// seeded rows (id, ISO time, lat, lon, depth, temp, platform) until `bytes` are written
async function writeCsv(path: string, bytes: number): Promise<number> {
  const out = createWriteStream(path);
  out.write('id,time,lat,lon,depth,temp,platform\n');
  let seed = 42;
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const start = Date.UTC(2020, 0, 1);
  let written = 0;
  let rows = 0;
  while (written < bytes) {
    let block = '';
    for (let k = 0; k < 10_000; k++, rows++) {
      const quoted = written > bytes / 2;
      const platform = quoted ? `"ship, ${rows % 1000}"` : `ship-${rows % 1000}`;
      block += `${rows},${new Date(start + rows * 1000).toISOString()},${(rand() * 180 - 90).toFixed(5)},${(rand() * 360 - 180).toFixed(5)},${(rand() * 6000).toFixed(2)},${(rand() * 30).toFixed(3)},${platform}\n`;
    }
    written += Buffer.byteLength(block);
    if (!out.write(block)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return rows;
}

async function highWaterMiB(): Promise<number | undefined> {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(await readFile('/proc/self/status', 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

function log(line: string): void {
  process.stderr.write(`[ingest-rss] ${line}\n`);
}
