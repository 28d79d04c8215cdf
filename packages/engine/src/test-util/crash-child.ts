// Child process of the crash test: numbered transactions forever (insert a batch in two halves, delete half of an older one), acknowledging each on stdout.
import { Schema, Field, Int32, Float64 } from 'apache-arrow';
import { openStore } from '../index.js';

const [path, rowsArg, workersArg] = process.argv.slice(2);
const rows = Number(rowsArg ?? 500);
// modules are loaded; wait for the parent's go (it starts the next child while it checks the last one)
await new Promise((resolve) => process.stdin.once('data', resolve));
// small partitions: merges and rewrites of partitions with deleted rows run all the time in the background
// with a scan worker, partition files are written (and merged) on the part writer thread, which a kill may catch mid-write
// and each transaction's first half is spilled (written before commit), so a kill may leave its files behind
const store = await openStore({ path: path!, workers: Number(workersArg ?? 0), partitionRows: 4 * rows, compactRun: 3, spillRows: rows / 2 });
const t = store.table('obs');
if (!(await t.schema())) {
  await t.create(new Schema([new Field('batch', new Int32(), false), new Field('i', new Int32(), false), new Field('v', new Float64(), true)]));
}
const last = await t.select(undefined, { cols: ['batch'] }).all();
let batch = last.reduce((m, r) => Math.max(m, (r.batch as number) + 1), 0);
// "ready" (the parent's kill timer starts) after the first commit: the threads have started by then
for (let first = true; ; first = false) {
  const data = Array.from({ length: rows }, (_, i) => ({ batch, i, v: i % 7 === 0 ? null : batch + i / rows }));
  await t.transaction(async (tx) => {
    await tx.insert(data.slice(0, rows / 2));
    await tx.insert(data.slice(rows / 2));
    // batch b deletes the odd rows of batch b - 2
    if (batch >= 2) await tx.delete('batch == $b and i % 2 == 1', { vars: { b: batch - 2 } });
  });
  process.stdout.write(`ack ${batch}\n`);
  if (first) process.stdout.write(`ready ${batch}\n`);
  batch++;
}
