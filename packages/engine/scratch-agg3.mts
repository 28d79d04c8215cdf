import { generateBatches } from '../bench/src/generate.ts';
import { BytesGroups } from './src/aggregate/groups.ts';
const b = [...generateBatches({ rows: 1_000_000, seed: 1 })][0]!;
const d = b.getChild('platform')!.data[0]!;
const off = d.valueOffsets as Int32Array, data = d.values as Uint8Array;
for (let k = 0; k < 8; k++) {
  const c = process.cpuUsage();
  const g = new BytesGroups(data); const gids = new Int32Array(1e6);
  for (let r = 0; r < 1e6; r++) gids[r] = g.id(off[r]!, off[r + 1]!);
  const c1 = process.cpuUsage(c).user / 1000;
  const c2 = process.cpuUsage();
  let h = 0; for (let r = 0; r < 1e6; r++) { let x = 0x811c9dc5; for (let i = off[r]!; i < off[r+1]!; i++) x = Math.imul(x ^ data[i]!, 0x01000193); h ^= x; }
  console.log('ids', c1, 'hash only', process.cpuUsage(c2).user / 1000, g.size);
}
