// The workloads in the order they run; RSS last, after the main process has closed its store.
import { ingest } from './ingest.js';
import { rss } from './rss.js';
import { w1 } from './w1-count.js';
import { w2 } from './w2-count-and.js';
import { w3 } from './w3-bbox.js';
import { w4 } from './w4-within.js';
import { w5 } from './w5-aggregate.js';
import { w6 } from './w6-select-arrow.js';
import { w7 } from './w7-insert.js';
import { w8 } from './w8-overhead.js';
import type { Workload } from './workload.js';
import { w1Concurrent } from './w1-concurrent.js';
import { w1Indexed } from './w1-indexed.js';
import { w7Delete } from './w7-delete.js';

// W7D deletes from obs and W1C appends to it: they run after everything that reads obs as loaded
export const workloads: readonly Workload[] = [w1, w2, w3, w4, w5, w6, w7, w8, ingest, w1Indexed, w7Delete, w1Concurrent];
export const afterClose: readonly Workload[] = [rss];
export type { BenchContext, Workload } from './workload.js';
