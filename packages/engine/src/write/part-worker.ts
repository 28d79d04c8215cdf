// Piscina worker entry of the part writer: lowers its own thread's priority, then encodes partition
// files and writes them with synchronous calls (the work stays on this thread, at its priority).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Data, type DataType, type Schema } from 'apache-arrow';
import { isHaloclineError } from '../errors.js';
import { decodeSchema } from '../schema/serialize.js';
import { writeFileDurably } from '../storage/localfs.js';
import { encodePart } from './partition.js';
import type { PartWriteReply, PartWriteTask, SharedData } from './part-writer.js';

/** Nice value of the writer thread: scans (nice 0) get about nine tenths of a contended core. */
export const WRITER_NICE = 10;

lowerPriority();

export default function writePartTask(task: PartWriteTask): PartWriteReply {
  try {
    const schema = schemaOf(task.schema);
    const columns = task.columns.map((c, i) => unshare(schema.fields[i]!.type, c));
    const chunks: Uint8Array[] = [];
    let size = 0;
    const encoded = encodePart(task.id, schema, columns, task.known, (bytes) => {
      chunks.push(bytes);
      size += bytes.length;
    }, () => size);
    writeFileDurably(task.root, task.file, chunks);
    return { ok: encoded };
  } catch (e) {
    if (!isHaloclineError(e)) throw e;
    const { name: _name, code, ...context } = { ...e };
    return { error: { code, message: e.message, context } };
  }
}

function unshare(type: DataType, s: SharedData): Data {
  const children = s.children.map((c, i) => unshare(type.children[i]!.type, c));
  return new Data(type, s.offset, s.length, s.nullCount, s.buffers as never, children);
}

let last: { bytes: Uint8Array; schema: Schema } | null = null;

function schemaOf(bytes: Uint8Array): Schema {
  if (last && Buffer.compare(last.bytes, bytes) === 0) return last.schema;
  last = { bytes, schema: decodeSchema(bytes) };
  return last.schema;
}

// Linux gives each thread its own nice value (setpriority on a thread id); elsewhere this is a no-op
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, WRITER_NICE);
  } catch {
    // no /proc or not permitted: the thread runs at normal priority
  }
}
