// Child process of the crash test: numbered transactions forever (insert a batch in two halves, delete half of an older one), acknowledging each on stdout.
import { Schema, Field, Int32, Float64 } from 'apache-arrow';
import { type Transaction, isHaloclineError, openStore } from '../index.js';

const [path, rowsArg, workersArg, laneArg, lanesArg] = process.argv.slice(2);
const rows = Number(rowsArg ?? 500);
// several children may write at once, each its own lane: the batches b with b % lanes == lane
const lane = Number(laneArg ?? 0);
const lanes = Number(lanesArg ?? 1);
// modules are loaded; wait for the parent's go (it starts the next child while it checks the last one)
await new Promise((resolve) => process.stdin.once('data', resolve));
// small partitions: merges and rewrites of partitions with deleted rows run all the time in the background
// with a scan worker, partition files are written (and merged) on the part writer thread, which a kill may catch mid-write
// and each transaction's first half is spilled (written before commit), so a kill may leave its files behind
const store = await openStore({ path: path!, workers: Number(workersArg ?? 0), partitionRows: 4 * rows, compactRun: 3, spillRows: rows / 2 });
const t = store.table('obs');
// the token in the names of the files this process writes
process.stdout.write(`token ${(store as unknown as { ctx: { token: string } }).ctx.token}\n`);
if (!(await t.schema())) {
  // another lane's child may create it first
  await t.create(new Schema([new Field('batch', new Int32(), false), new Field('i', new Int32(), false), new Field('v', new Float64(), true)])).catch((e: unknown) => {
    if (!isHaloclineError(e, 'FileAlreadyExists')) throw e;
  });
}
const last = await t.select('batch % $n == $lane', { cols: ['batch'], vars: { n: lanes, lane } }).all();
let batch = last.reduce((m, r) => Math.max(m, (r.batch as number) + lanes), lane);
process.stdout.write(`start ${batch}\n`);
// "ready" (the parent's kill timer starts) after the first commit: the threads have started by then
for (let first = true; ; first = false) {
  const data = Array.from({ length: rows }, (_, i) => ({ batch, i, v: i % 7 === 0 ? null : batch + i / rows }));
  await t.transaction(async (tx) => {
    await tx.insert(data.slice(0, rows / 2));
    await tx.insert(data.slice(rows / 2));
    // batch b deletes the odd rows of its lane's batch two back, b - 2 * lanes
    if (batch >= 2 * lanes) {
      const n = await tx.delete('batch == $b and i % 2 == 1', { vars: { b: batch - 2 * lanes } });
      // the batch two back is whole and no other commit deleted from it: a delete finding fewer is a bug (the child dies with it)
      if (n !== rows / 2) throw new Error(`batch ${batch}'s delete found ${n} odd rows of batch ${batch - 2 * lanes}, not ${rows / 2}; ${await lookAgain(tx, batch - 2 * lanes, batch)}`);
    }
  });
  process.stdout.write(`ack ${batch}\n`);
  if (first) process.stdout.write(`ready ${batch}\n`);
  batch += lanes;
}

// where a delete's missing rows are: counts of the batch inside the transaction and in a fresh
// snapshot, each with the filter as written (zone maps prune) and as arithmetic (no pruning); and
// the rows of the transaction's own batch `own` committed already (a batch written twice)
async function lookAgain(tx: Transaction, b: number, own: number): Promise<string> {
  const vars = { vars: { b } };
  const counts = await Promise.all(
    [tx, t].flatMap((reader) => ['batch == $b', 'batch + 0 == $b'].map((filter) => reader.select(filter, vars).count().catch((e: unknown) => String(e)))),
  );
  const again = await t.select('batch == $b', { vars: { b: own } }).count().catch((e: unknown) => String(e));
  return `the batch counts ${counts[0]} rows in the transaction (${counts[1]} unpruned), ${counts[2]} in a fresh snapshot (${counts[3]} unpruned); ${again} rows of batch ${own} are committed already`;
}
