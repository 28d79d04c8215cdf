import { generateBatches } from '../bench/src/generate.ts';
import { partialAggregate } from './src/aggregate/partial.ts';
import { taskColumn } from './src/exec/arrays.ts';
const b = [...generateBatches({ rows: 1_000_000, seed: 1 })][0]!;
const cols = { platform: taskColumn(b.getChild('platform')!.data[0]!), temp: taskColumn(b.getChild('temp')!.data[0]!), lat: taskColumn(b.getChild('lat')!.data[0]!), lon: taskColumn(b.getChild('lon')!.data[0]!) };
const task: any = { key: { kind: 'expr', typed: { kind: 'column', name: 'platform', physical: 'utf8', unit: null, type: 'string' } }, fields: [{ name: 'temp', fn: 'avg', column: { kind: 'column', name: 'temp', physical: 'float64', unit: null, type: 'float' } }] };
for (let i = 0; i < 5; i++) { const c = process.cpuUsage(); partialAggregate(task, cols, null, 1_000_000); console.log("platform cpu ms", process.cpuUsage(c).user / 1000); }
const h3task: any = { ...task, key: { kind: 'h3point', lat: { name: 'lat' }, lon: { name: 'lon' }, res: 5 } };
let c0 = process.cpuUsage(); const { h3Keys } = partialAggregate(h3task, cols, null, 1_000_000); console.log("h3 cold cpu ms", process.cpuUsage(c0).user / 1000);
for (let i = 0; i < 3; i++) { const c = process.cpuUsage(); partialAggregate(h3task, cols, null, 1_000_000, h3Keys); console.log("h3 warm cpu ms", process.cpuUsage(c).user / 1000); }
