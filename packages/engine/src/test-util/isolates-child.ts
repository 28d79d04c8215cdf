// Child of exec/isolates.test.ts (run with --trace-opt): starts a worker with its own compiles and one
// without, at the same time, and makes a function hot in each and on this thread; V8's trace says how each compiled.
import { Worker } from 'node:worker_threads';
import { startIsolates } from '../exec/isolates.js';

// a worker that makes `<name>Hot` hot (TurboFan compiles it) and exits
const hot = (name: string) => `
function ${name}Hot(a) { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * 2; return s; }
const a = new Float64Array(1000); let t = 0;
for (let k = 0; k < 20000; k++) t += ${name}Hot(a);
require('node:worker_threads').parentPort.postMessage(t);
`;
// a worker and the promise of its exit, listened for from its start
const worker = (name: string) => {
  const w = new Worker(hot(name), { eval: true });
  return { w, ended: new Promise((resolve) => w.once('exit', resolve)) };
};

const [own, plain] = await Promise.all([startIsolates(() => worker('own'), (s) => [s.w], true), startIsolates(() => worker('plain'), (s) => [s.w])]);
function mainHot(a: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * 3;
  return s;
}
const a = new Float64Array(1000);
let t = 0;
for (let k = 0; k < 20000; k++) t += mainHot(a);
await Promise.all([own.ended, plain.ended]);
await worker('late').ended;
console.log(`done ${t}`);
