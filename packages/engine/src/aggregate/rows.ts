// Reading one row's value of a scan column in its storage domain (for expressions evaluated per row).
import type { TaskColumn } from '../exec/task.js';
import type { PhysicalKind } from '../expr/typed.js';

const decoder = new TextDecoder();
const BIGINT: ReadonlySet<string> = new Set(['int64', 'uint64', 'timestamp', 'date64']);

/**
 * A reader of row `i` of `col`: number, bigint, boolean, string, Uint8Array or null, as the
 * reference evaluator (`evaluateRow`) expects.
 */
export function valueReader(col: TaskColumn, physical: PhysicalKind): (i: number) => unknown {
  const valid = col.validity;
  const isNull = (i: number): boolean => valid !== null && ((valid[i >> 3]! >> (i & 7)) & 1) === 0;
  const values = col.values as ArrayLike<number | bigint> & Uint8Array;
  if (physical === 'bool') return (i) => (isNull(i) ? null : ((values[i >> 3]! >> (i & 7)) & 1) === 1);
  if (/utf8|binary/.test(physical)) {
    const offsets = col.offsets!;
    const text = physical.endsWith('utf8');
    return (i) => {
      if (isNull(i)) return null;
      const bytes = values.subarray(Number(offsets[i]!), Number(offsets[i + 1]!));
      return text ? decoder.decode(bytes) : bytes;
    };
  }
  if (BIGINT.has(physical)) return (i) => (isNull(i) ? null : (values as unknown as BigInt64Array)[i]!);
  return (i) => (isNull(i) ? null : values[i]!);
}
