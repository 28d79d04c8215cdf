// The metadata records of tables and partitions, and their keys in the MetaStore.
import type { ZoneMaps } from '../expr/kernel.js';
import type { SegmentRef } from './format.js';

/** Store-wide format marker, checked at open. */
export const STORE_KEY = 'store';
export const STORE_FORMAT = { magic: 'halocline', version: 4 } as const;
/**
 * Formats this code opens. v1 stores deletion vectors and forwards as base64 strings; v2 also
 * writes binary values (see storage/lmdb.ts) in the compact encoding of mvcc/positions.ts; v3 adds
 * that encoding's GAPS container; v4 writes partition files v2 (CRC-32 per segment, in the
 * record's `segments`; storage/format.ts), older files stay v1 and are read unchecked. Opening an
 * older store marks it v4 in one write (it holds no v4 value yet), so older code refuses it after.
 */
export const READABLE_FORMATS: readonly number[] = [1, 2, 3, 4];

/**
 * A table. Invariants: `id` is unique for the lifetime of the store (a dropped and re-created table
 * gets a new one); `version` increases by one per commit; partitions with `added <= version` are
 * the committed state.
 */
export interface TableRecord {
  readonly id: string;
  readonly name: string;
  /** Arrow IPC encoding of the schema, base64. */
  readonly schema: string;
  /** Bumped by each alter; writers validated against an older schema must not commit. Absent = 0. */
  readonly schemaVersion?: number;
  readonly version: number;
  /** Next partition ordering number; rows read back in partition `seq` order. */
  readonly nextSeq: number;
  readonly created: string;
}

/** An immutable partition file of a table and its zone maps. */
export interface PartRecord {
  readonly id: string;
  readonly table: string;
  readonly seq: number;
  readonly rows: number;
  readonly bytes: number;
  /** Blob path of the file. */
  readonly file: string;
  /** Where each column's segment lies in the file, and its CRC-32 (files v2; absent in v1 files: not checked). */
  readonly segments: readonly SegmentRef[];
  readonly zones: ZoneMaps;
  /** Table version that made this partition visible. */
  readonly added: number;
  /**
   * Tables with indexed columns: the tier of the partition (absent or 0: a delta as inserted; n: made
   * by a k-d split merge at tier n) and the merge output (`run`) it belongs to.
   */
  readonly level?: number;
  readonly run?: string;
  /** The rows are ordered by this column, ascending, nulls and NaN last (k-d split leaves; see write/tiers.ts). */
  readonly sortedBy?: string;
}

/**
 * Rows of a partition deleted by one commit (a deletion vector stamped with the commit's version).
 * A reader at version v treats the rows of every record with `version <= v` as gone. Records are
 * immutable; they go with their partition.
 */
export interface DeleteRecord {
  readonly part: string;
  readonly version: number;
  /** Sorted row positions in the encoding of mvcc/positions.ts (a string in v1 stores: base64 of a u32 LE list). */
  readonly rows: Uint8Array | string;
  readonly count: number;
}

/**
 * A partition file no committed state refers to any more, waiting for the last reader that may see
 * it: a reader pinned at a version below `retired` may (Infinity: the table was dropped).
 */
export interface GarbageRecord {
  readonly table: string;
  readonly part: string;
  readonly file: string;
  readonly retired: number;
}

/**
 * Where the rows of a partition rewritten by compaction went: row r (not deleted as of `asOf`) is
 * row `offset + r - (deleted rows before r)` of part `to` (null: every row was deleted), or, after a
 * k-d split merge (`split`), live row m went to leaf `split.to[L]` with L = `split.leaf[m]`, as
 * row `split.base[L]` + (earlier live rows of this partition that went to L), or row `split.at[m]`
 * when the merge sorted its leaves. A transaction that
 * began before the rewrite translates its deletions through it at commit (mvcc/forward.ts).
 */
export interface ForwardRecord {
  readonly part: string;
  readonly to: string | null;
  readonly offset: number;
  readonly asOf: number;
  /** Rows deleted as of `asOf` (left out of `to`), encoded like DeleteRecord.rows. */
  readonly dropped: Uint8Array | string;
  readonly split?: {
    readonly to: readonly string[];
    readonly base: readonly number[];
    /** The leaf index of each live row: u8, or u16 LE when `wide` (more than 256 leaves). */
    readonly leaf: Uint8Array;
    readonly wide: boolean;
    /** Leaves ordered by a column (`sortedBy`): the row of each live row in its leaf, u32 LE, instead of `base` + earlier rows. */
    readonly at?: Uint8Array;
  };
}

export const tableKey = (name: string): string => `t/${name}`;
export const tablePrefix = 't/';
export const partKey = (table: string, part: string): string => `p/${table}/${part}`;
export const partPrefix = (table: string): string => `p/${table}/`;
export const deletePrefix = (table: string, part?: string): string => (part === undefined ? `d/${table}/` : `d/${table}/${part}/`);
export const deleteKey = (table: string, part: string, version: number): string => `d/${table}/${part}/${String(version).padStart(12, '0')}`;
export const forwardKey = (table: string, part: string): string => `m/${table}/${part}`;
export const garbagePrefix = 'g/';
export const garbageKey = (table: string, part: string): string => `g/${table}/${part}`;
export const partsFolder = 'parts';
export const partFile = (table: string, part: string): string => `${partsFolder}/${table}/${part}.hlp`;
