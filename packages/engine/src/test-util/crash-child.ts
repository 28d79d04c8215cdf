// Child process of the crash test: inserts numbered batches forever, acknowledging each on stdout.
import { Schema, Field, Int32, Float64 } from 'apache-arrow';
import { openStore } from '../index.js';

const [path, rowsArg] = process.argv.slice(2);
const rows = Number(rowsArg ?? 500);
const store = await openStore({ path: path!, workers: 0, partitionRows: 4 * rows, compactRun: 3 });
const t = store.table('obs');
if (!(await t.schema())) {
  await t.create(new Schema([new Field('batch', new Int32(), false), new Field('i', new Int32(), false), new Field('v', new Float64(), true)]));
}
const done = await t.select().count();
let batch = done / rows;
process.stdout.write(`ready ${batch}\n`);
for (;;) {
  const data = Array.from({ length: rows }, (_, i) => ({ batch, i, v: i % 7 === 0 ? null : batch + i / rows }));
  await t.insert(data);
  process.stdout.write(`ack ${batch}\n`);
  batch++;
}
