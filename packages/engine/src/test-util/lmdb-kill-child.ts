// Child process of the LMDB kill test: commits to the metadata store in a loop, acknowledging each on stdout.
import { openLmdbMetaStore } from '../storage/lmdb.js';
import { killKey, KILL_LAG } from './lmdb-kill.js';

const [path, id] = process.argv.slice(2);
const meta = await openLmdbMetaStore(path!);
// values of a few pages: each commit dirties several pages and frees those of the one it removes
const pad = new Uint8Array(6000).fill(7);
for (let n = 0; ; n++) {
  await meta.write((tx) => {
    tx.put(killKey(id!, n), { n, pad });
    // the key KILL_LAG commits back goes: pages are freed and reused all the time
    if (n >= KILL_LAG) tx.remove(killKey(id!, n - KILL_LAG));
  });
  process.stdout.write(`ack ${n}\n`);
}
