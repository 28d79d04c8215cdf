// The server side of the HTTP benchmark, in its own process: starts a server over a temp directory,
// creates a tabular dataset holding the seeded `obs` rows, reports {url, key, obs} to the parent, and
// closes when the parent says so (or disconnects); `{idle: true}` answers once its background work (compaction) is done.
// Run by http.ts: fork(http-server-child.js, [dataDir, rows, seed])
import { availableParallelism } from 'node:os';
import { Client } from '@halocline/client';
import { startServer } from '@halocline/server';
import { generateBatches, obsSchema } from './generate.js';
import { tabularManifest } from './http-manifest.js';
import { type Profiler, startProfile } from './profile.js';

const [dataDir, rows, seed] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4])];
const server = await startServer({ port: 0, host: '127.0.0.1', workers: availableParallelism(), config: { logger: false, dataDir } });
const key = (await server.app.halocline.access.createApiKey('bench', false)).key;
const obs = (await new Client({ baseUrl: server.url, apiKey: key }).catalog.create(tabularManifest('bench-obs'))).metadata.uuid!;
const t = server.store.table(obs);
await t.create(obsSchema);
for (const b of generateBatches({ rows, seed, batchRows: 1 << 20 })) await t.insert(b);
const close = async () => {
  await server.close();
  process.exit(0);
};
let profiler: Profiler | undefined;
process.on('message', (m: unknown) => {
  if ((m as { idle?: boolean } | null)?.idle) return void server.store.idle().then(() => process.send!('idle'));
  const p = (m as { profile?: string } | null)?.profile;
  if (p === undefined) return void close();
  // `{profile: 'start'}` starts a CPU profile, `{profile: file}` writes it; both answer when done
  if (p === 'start') void startProfile().then((s) => { profiler = s; process.send!('ok'); });
  else void profiler!.stop(p).then(() => process.send!('ok'));
});
process.on('disconnect', () => void close());
process.send!({ url: server.url, key, obs });
