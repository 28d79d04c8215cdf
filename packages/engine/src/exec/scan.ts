// The scan operator: run a partition's filter kernel, then count or gather the selected rows.
import { compileFilter, type CompiledFilter } from '../expr/index.js';
import type { ColumnArrays } from '../expr/kernel.js';
import { gather } from './gather.js';
import type { ResultColumn, ScanResult, ScanTask } from './task.js';

const kernels = new Map<string, CompiledFilter>();
const MAX_KERNELS = 256;

/** Runs one scan task to completion on the calling thread. */
export function runScan(task: ScanTask): ScanResult {
  const { length } = task;
  if (task.filter === null) return task.mode === 'count' ? { count: length } : { count: length, columns: passThrough(task) };
  const compiled = kernelFor(task.filter.key, task);
  const inputs: ColumnArrays[] = compiled.columns.map((name) => task.columns[name]!);
  if (task.mode === 'count') return { count: compiled.kernel(inputs, length, null) };
  const sel = new Int32Array(length);
  const count = compiled.kernel(inputs, length, sel);
  if (count === length) return { count, columns: passThrough(task) };
  return { count, columns: task.project.map((name) => gather(task.columns[name]!, sel, count)) };
}

// every row selected: hand back the input buffers themselves, no copy
function passThrough(task: ScanTask): ResultColumn[] {
  return task.project.map((name) => {
    const c = task.columns[name]!;
    return { values: c.values, validity: c.validity, offsets: c.offsets, nullCount: c.nullCount };
  });
}

function kernelFor(key: string, task: ScanTask): CompiledFilter {
  let compiled = kernels.get(key);
  if (!compiled) {
    compiled = compileFilter(task.filter!.typed);
    if (kernels.size >= MAX_KERNELS) kernels.delete(kernels.keys().next().value!);
    kernels.set(key, compiled);
  }
  return compiled;
}
