// Child process of the multi-process test: one role per process on a shared store, reporting on stdout.
import { Field, Int32, Schema } from 'apache-arrow';
import { isHaloclineError, openStore } from '../index.js';
import { soakInt } from './soak.js';

const [path, role, name, countArg] = process.argv.slice(2);
const count = Number(countArg ?? 20);
const schema = new Schema([new Field('proc', new Int32(), false), new Field('i', new Int32(), false), new Field('k', new Int32(), false)]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => process.stdout.write(`${line}\n`);
// a soak run's seed (test-util/soak.ts) varies the interleaving: a pause of 0-7 ms before each transaction, drawn per process
let seed = soakInt('HALOCLINE_SOAK_SEED', undefined);
if (seed !== undefined) seed = (seed ^ Math.imul(Number(name), 0x9e3779b1)) & 0x7fffffff;
const jitter = () => (seed === undefined ? undefined : sleep((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % 8));

const store = await openStore({ path: path!, workers: 0, partitionRows: 256, compactRun: 2 });
// progress lines: a child that hangs is reported with what it printed
say('open');
const t = store.table('shared');
try {
  await t.create(schema);
} catch (e) {
  if (!isHaloclineError(e, 'FileAlreadyExists')) throw e;
}
const me = Number(name);

if (role === 'writer') {
  // each step inserts 20 rows and deletes 10 of its own rows from 3 steps back; checks its own view
  for (let i = 0; i < count; i++) {
    await jitter();
    await t.transaction(async (tx) => {
      await tx.insert(Array.from({ length: 20 }, (_, k) => ({ proc: me, i, k })));
      if (i >= 3) {
        const n = await tx.delete('proc == $p and i == $i and k < 10', { vars: { p: me, i: i - 3 } });
        if (n !== 10) throw new Error(`step ${i}: deleted ${n} rows, expected 10`);
      }
    });
    say(`step ${i}`);
    const expected = 20 * (i + 1) - 10 * Math.max(0, i - 2);
    const seen = await t.select('proc == $p', { vars: { p: me } }).count();
    if (seen !== expected) throw new Error(`step ${i}: sees ${seen} own rows, expected ${expected}`);
  }
  say('done');
} else if (role === 'contend') {
  // every contender deletes the same rows; per row exactly one contender may win
  for (let k = 0; k < count; k++) {
    await jitter();
    try {
      const n = await t.transaction(async (tx) => tx.delete('proc == -1 and k == $k', { vars: { k } }));
      say(n === 1 ? `won ${k}` : `gone ${k}`);
    } catch (e) {
      if (!isHaloclineError(e, 'Conflict')) throw e;
      say(`lost ${k}`);
    }
  }
  say('done');
} else if (role === 'reader') {
  // slow full scans that stay pinned while the writers commit and compact in other processes
  for (let i = 0; i < count; i++) {
    let rows = 0;
    for await (const b of t.select().batches()) {
      rows += b.numRows;
      await sleep(2);
    }
    if (rows < 0) throw new Error('unreachable');
    say(`scan ${i}`);
    const reopened = await openStore({ path: path!, workers: 0 }); // open runs orphan removal while others write
    await reopened.close();
  }
  say('done');
}
await store.close();
