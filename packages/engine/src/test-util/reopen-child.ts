// Child of the shared-handle test: opens the metadata store of <dir> a second time while the first handle's write holds the lock.
import { join } from 'node:path';
import { openLmdbMetaStore } from '../storage/lmdb.js';

const path = join(process.argv[2]!, 'meta');
const first = await openLmdbMetaStore(path);
await first.write((tx) => tx.put('a', 1));
const pending = first.write((tx) => tx.put('b', 2));
// by the next turn lmdb-js's write thread holds the write lock and waits for this thread to run the callback
const second = await new Promise<Awaited<ReturnType<typeof openLmdbMetaStore>>>((resolve, reject) =>
  setImmediate(() => {
    const until = Date.now() + 50;
    while (Date.now() < until);
    openLmdbMetaStore(path).then(resolve, reject);
  }),
);
await pending;
if (second.get('a') !== 1 || second.get('b') !== 2) throw new Error('the second handle does not see the first one\'s writes');
await first.close();
await second.write((tx) => tx.put('c', 3)); // still open: the environment closes with its last use
await second.close();
process.stdout.write('done\n');
