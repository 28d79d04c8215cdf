import { generateBatches } from '../bench/src/generate.ts';
import { partialAggregate } from './src/aggregate/partial.ts';
import { taskColumn } from './src/exec/arrays.ts';
const b = [...generateBatches({ rows: 1_000_000, seed: 1 })][0]!;
const cols = { platform: taskColumn(b.getChild('platform')!.data[0]!), temp: taskColumn(b.getChild('temp')!.data[0]!) };
const task: any = { key: { kind: 'expr', typed: { kind: 'column', name: 'platform', physical: 'utf8', unit: null, type: 'string' } }, fields: [{ name: 'temp', fn: 'avg', column: { kind: 'column', name: 'temp', physical: 'float64', unit: null, type: 'float' } }] };
for (let i = 0; i < 30; i++) partialAggregate(task, cols, null, 1_000_000);
