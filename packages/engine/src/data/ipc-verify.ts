// Verifies the flatbuffer metadata of Arrow IPC messages before apache-arrow decodes them: its decoder
// trusts every offset and vector length it reads, so a few flipped bytes in a 1 KB body could make it
// loop over billions of custom-metadata entries (seconds of CPU) or grow arrays until the process
// died out of memory. The checks are those of a flatbuffers verifier (which the JavaScript flatbuffers
// library lacks), over the tables of Arrow's Message.fbs and Schema.fbs.

/** How a field of a table is laid out: a scalar of so many bytes, or what an offset points to. */
type FieldSpec =
  | number
  | { readonly kind: 'string' }
  | { readonly kind: 'table'; readonly spec: () => TableSpec }
  | { readonly kind: 'tables'; readonly spec: () => TableSpec }
  | { readonly kind: 'vector'; readonly size: number; readonly check?: (v: VectorAt) => string | undefined }
  | { readonly kind: 'union'; readonly typeSlot: number; readonly members: (type: number) => TableSpec | string };

/** A table's fields, by vtable slot, and what its scalars must hold. */
interface TableSpec {
  readonly name: string;
  readonly fields: readonly FieldSpec[];
  /** Why the table at `t` (its layout verified) holds values no reader can take, or undefined. */
  readonly check?: (bytes: DataView, t: number) => string | undefined;
}

/** A vector's elements: `length` of them from `start`, in `bytes`. */
interface VectorAt {
  readonly bytes: DataView;
  readonly start: number;
  readonly length: number;
  /** The message's body length, for buffers and nodes that must lie within it. */
  readonly body: number;
}

const str = { kind: 'string' } as const;
const table = (spec: () => TableSpec) => ({ kind: 'table', spec }) as const;
const tables = (spec: () => TableSpec) => ({ kind: 'tables', spec }) as const;
const vector = (size: number, check?: (v: VectorAt) => string | undefined) => ({ kind: 'vector', size, check }) as const;

const KeyValue: TableSpec = { name: 'KeyValue', fields: [str, str] };
const empty = (name: string): TableSpec => ({ name, fields: [] });
const Int: TableSpec = { name: 'Int', fields: [4, 1] };

// Schema.fbs `Type`, by union id: the tables of the types (most hold scalars only)
const TYPES: readonly TableSpec[] = [
  empty('NONE'),
  empty('Null'),
  Int,
  { name: 'FloatingPoint', fields: [2] },
  empty('Binary'),
  empty('Utf8'),
  empty('Bool'),
  { name: 'Decimal', fields: [4, 4, 4] },
  { name: 'Date', fields: [2] },
  { name: 'Time', fields: [2, 4] },
  { name: 'Timestamp', fields: [2, str] },
  { name: 'Interval', fields: [2] },
  empty('List'),
  empty('Struct'),
  { name: 'Union', fields: [2, vector(4)] },
  { name: 'FixedSizeBinary', fields: [4] },
  { name: 'FixedSizeList', fields: [4] },
  { name: 'Map', fields: [1] },
  { name: 'Duration', fields: [2] },
  empty('LargeBinary'),
  empty('LargeUtf8'),
  empty('LargeList'),
  empty('RunEndEncoded'),
  empty('BinaryView'),
  empty('Utf8View'),
  empty('ListView'),
  empty('LargeListView'),
];

const DictionaryEncoding: TableSpec = { name: 'DictionaryEncoding', fields: [8, table(() => Int), 1, 2] };

const Field: TableSpec = {
  name: 'Field',
  fields: [
    str,
    1,
    1,
    { kind: 'union', typeSlot: 2, members: (type) => (type > 0 && type < TYPES.length ? TYPES[type]! : `unknown field type ${type}`) },
    table(() => DictionaryEncoding),
    tables(() => Field),
    tables(() => KeyValue),
  ],
};

const Schema: TableSpec = { name: 'Schema', fields: [2, tables(() => Field), tables(() => KeyValue), vector(8)] };

// FieldNode { length: long, null_count: long }: neither negative, no more nulls than values
function nodesProblem(v: VectorAt): string | undefined {
  for (let i = 0; i < v.length; i++) {
    const at = v.start + 16 * i;
    const length = int64(v.bytes, at);
    const nulls = int64(v.bytes, at + 8);
    if (!(length >= 0)) return `field node ${i} has length ${length}`;
    if (!(nulls >= 0 && nulls <= length)) return `field node ${i} has ${nulls} nulls in ${length} values`;
  }
  return undefined;
}

// Buffer { offset: long, length: long }: within the message body
function buffersProblem(v: VectorAt): string | undefined {
  for (let i = 0; i < v.length; i++) {
    const at = v.start + 16 * i;
    const offset = int64(v.bytes, at);
    const length = int64(v.bytes, at + 8);
    if (!(offset >= 0 && length >= 0 && offset + length <= v.body)) return `buffer ${i} (${offset}, ${length} bytes) lies outside the ${v.body}-byte body`;
  }
  return undefined;
}

const RecordBatch: TableSpec = {
  name: 'RecordBatch',
  fields: [8, vector(16, nodesProblem), vector(16, buffersProblem), table(() => ({ name: 'BodyCompression', fields: [1, 1] })), vector(8)],
  check: (bytes, t) => {
    const at = fieldAt(bytes, t, 0);
    const rows = at === 0 ? 0 : int64(bytes, at);
    return rows >= 0 && Number.isSafeInteger(rows) ? undefined : `a record batch of ${rows} rows`;
  },
};

const DictionaryBatch: TableSpec = { name: 'DictionaryBatch', fields: [8, table(() => RecordBatch), 1] };

const HEADERS: Readonly<Record<number, TableSpec | string>> = {
  0: 'a message without a header',
  1: Schema,
  2: DictionaryBatch,
  3: RecordBatch,
  4: 'a tensor message (not supported)',
  5: 'a sparse tensor message (not supported)',
};

const Message: TableSpec = {
  name: 'Message',
  fields: [2, 1, { kind: 'union', typeSlot: 1, members: (type) => HEADERS[type] ?? `unknown message header type ${type}` }, 8, tables(() => KeyValue)],
};

/** Tables nested deeper than this (fields within fields) are refused. */
const MAX_DEPTH = 64;
/** Tables visited in one message at most: offsets shared between vectors could make a tree of billions of nodes out of a few bytes. */
const MAX_TABLES = 1_000_000;

class Invalid extends Error {}

/**
 * Why the flatbuffer metadata of one Arrow IPC message (what follows the continuation marker and the
 * length) cannot be decoded safely, or undefined when it is sound: every table, vtable, vector and
 * string lies within the bytes, union types are known, nesting and size are bounded, the body length
 * is a non-negative safe integer no larger than `maxBody`, and a record batch's nodes and buffers are
 * consistent and lie within the body.
 * @example
 * const problem = ipcMessageProblem(metadata); if (problem) throw corrupt(problem);
 */
export function ipcMessageProblem(metadata: Uint8Array, maxBody = Number.MAX_SAFE_INTEGER): string | undefined {
  const bytes = new DataView(metadata.buffer, metadata.byteOffset, metadata.byteLength);
  const state = { tables: 0, body: 0 };
  try {
    if (bytes.byteLength < 4) throw new Invalid(`${bytes.byteLength} bytes of message metadata`);
    const root = bytes.getUint32(0, true);
    const t = verifyTable(bytes, root, Message, 0, state, true);
    const body = bodyLength(bytes, t);
    if (body > maxBody) throw new Invalid(`a message body of ${body} bytes, over the limit of ${maxBody}`);
    return undefined;
  } catch (e) {
    if (e instanceof Invalid) return e.message;
    throw e;
  }
}

/**
 * Why a whole Arrow IPC stream held in memory cannot be decoded safely, or undefined: each message's
 * framing (continuation marker, metadata length), its metadata (`ipcMessageProblem`) and its body lie
 * within `bytes`, up to the end-of-stream marker or the end of the bytes.
 */
export function ipcStreamProblem(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  for (let k = 0; at < bytes.byteLength; k++) {
    if (at + 4 > bytes.byteLength) return `message ${k} is cut off at byte ${at}`;
    let length = view.getInt32(at, true);
    at += 4;
    if (length === -1) {
      if (at + 4 > bytes.byteLength) return `message ${k} is cut off at byte ${at}`;
      length = view.getInt32(at, true);
      at += 4;
    }
    if (length === 0) return undefined; // end of stream
    if (length < 0 || at + length > bytes.byteLength) return `message ${k} claims ${length} bytes of metadata at byte ${at}, past the ${bytes.byteLength} bytes`;
    const metadata = bytes.subarray(at, at + length);
    const problem = ipcMessageProblem(metadata, bytes.byteLength - at - length);
    if (problem) return `message ${k}: ${problem}`;
    const meta = new DataView(metadata.buffer, metadata.byteOffset, metadata.byteLength);
    at += length + bodyLength(meta, meta.getUint32(0, true));
  }
  return undefined;
}

// the Message table's bodyLength (slot 3), verified in range by verifyTable
function bodyLength(bytes: DataView, t: number): number {
  const at = fieldAt(bytes, t, 3);
  return at === 0 ? 0 : int64(bytes, at);
}

// a little-endian int64 as a number (exact up to 2^53; a negative one stays negative)
function int64(bytes: DataView, at: number): number {
  return bytes.getUint32(at, true) + bytes.getInt32(at + 4, true) * 2 ** 32;
}

// the position of slot `slot` of the table at `t` (0 when absent); the vtable was verified
function fieldAt(bytes: DataView, t: number, slot: number): number {
  const vt = t - bytes.getInt32(t, true);
  const size = bytes.getUint16(vt, true);
  if (4 + 2 * slot + 2 > size) return 0;
  const off = bytes.getUint16(vt + 4 + 2 * slot, true);
  return off === 0 ? 0 : t + off;
}

// verifies the table at `t` against `spec`, recursively; returns `t`
function verifyTable(bytes: DataView, t: number, spec: TableSpec, depth: number, state: { tables: number; body: number }, message = false): number {
  if (depth > MAX_DEPTH) throw new Invalid(`tables nested more than ${MAX_DEPTH} deep`);
  if (++state.tables > MAX_TABLES) throw new Invalid(`more than ${MAX_TABLES} tables in one message`);
  const len = bytes.byteLength;
  if (t + 4 > len) throw new Invalid(`a ${spec.name} table at byte ${t}, past the ${len} bytes of metadata`);
  const vt = t - bytes.getInt32(t, true);
  if (vt < 0 || vt + 4 > len) throw new Invalid(`the ${spec.name} table at byte ${t} has its vtable at ${vt}, outside the metadata`);
  const vtSize = bytes.getUint16(vt, true);
  const tableSize = bytes.getUint16(vt + 2, true);
  if (vtSize < 4 || vtSize % 2 !== 0 || vt + vtSize > len) throw new Invalid(`the ${spec.name} table at byte ${t} has a malformed vtable (${vtSize} bytes at ${vt})`);
  if (tableSize < 4 || t + tableSize > len) throw new Invalid(`the ${spec.name} table at byte ${t} claims ${tableSize} bytes, past the metadata`);
  const slots = (vtSize - 4) >> 1;
  // every field the vtable places lies within the table, the known ones whole
  for (let slot = 0; slot < slots; slot++) {
    const off = bytes.getUint16(vt + 4 + 2 * slot, true);
    if (off === 0) continue;
    const field = spec.fields[slot];
    const size = field === undefined ? 1 : typeof field === 'number' ? field : 4;
    if (off < 4 || off + size > tableSize) throw new Invalid(`field ${slot} of the ${spec.name} table at byte ${t} lies outside it`);
  }
  const problem = spec.check?.(bytes, t);
  if (problem) throw new Invalid(problem);
  if (message) {
    const at = fieldAt(bytes, t, 3);
    const body = at === 0 ? 0 : int64(bytes, at);
    if (!(body >= 0 && Number.isSafeInteger(body))) throw new Invalid(`a message body length of ${body}`);
    state.body = body;
  }
  for (let slot = 0; slot < Math.min(slots, spec.fields.length); slot++) {
    const field = spec.fields[slot]!;
    if (typeof field === 'number') continue;
    const at = fieldAt(bytes, t, slot);
    if (at === 0) {
      if (field.kind === 'union' && (spec === Message || spec === Field)) {
        // a message without a header, a field without a type: apache-arrow would fail on either
        throw new Invalid(spec === Message ? 'a message without a header' : 'a field without a type');
      }
      continue;
    }
    const target = at + bytes.getUint32(at, true);
    if (target + 4 > len) throw new Invalid(`field ${slot} of the ${spec.name} table at byte ${t} points past the metadata`);
    switch (field.kind) {
      case 'string': {
        const n = bytes.getUint32(target, true);
        if (target + 4 + n + 1 > len || bytes.getUint8(target + 4 + n) !== 0) throw new Invalid(`a string of ${n} bytes at byte ${target} runs past the metadata`);
        break;
      }
      case 'table':
        verifyTable(bytes, target, field.spec(), depth + 1, state);
        break;
      case 'tables': {
        const n = elements(bytes, target, 4);
        for (let i = 0; i < n; i++) {
          const p = target + 4 + 4 * i;
          verifyTable(bytes, p + bytes.getUint32(p, true), field.spec(), depth + 1, state);
        }
        break;
      }
      case 'vector': {
        const n = elements(bytes, target, field.size);
        const problem = field.check?.({ bytes, start: target + 4, length: n, body: state.body });
        if (problem) throw new Invalid(problem);
        break;
      }
      case 'union': {
        const typeAt = fieldAt(bytes, t, field.typeSlot);
        const type = typeAt === 0 ? 0 : bytes.getUint8(typeAt);
        const member = field.members(type);
        if (typeof member === 'string') throw new Invalid(member);
        verifyTable(bytes, target, member, depth + 1, state);
        break;
      }
    }
  }
  return t;
}

// the length of the vector at `at` with elements of `size` bytes, all of which lie within the bytes
function elements(bytes: DataView, at: number, size: number): number {
  const n = bytes.getUint32(at, true);
  if (at + 4 + n * size > bytes.byteLength) throw new Invalid(`a vector of ${n} elements at byte ${at} runs past the ${bytes.byteLength} bytes of metadata`);
  return n;
}
