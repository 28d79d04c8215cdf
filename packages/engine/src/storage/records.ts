// The metadata records of tables and partitions, and their keys in the MetaStore.
import type { ZoneMaps } from '../expr/kernel.js';
import type { SegmentRef } from './format.js';

/** Store-wide format marker, checked at open. */
export const STORE_KEY = 'store';
export const STORE_FORMAT = { magic: 'halocline', version: 1 } as const;

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
  readonly segments: readonly SegmentRef[];
  readonly zones: ZoneMaps;
  /** Table version that made this partition visible. */
  readonly added: number;
}

export const tableKey = (name: string): string => `t/${name}`;
export const tablePrefix = 't/';
export const partKey = (table: string, part: string): string => `p/${table}/${part}`;
export const partPrefix = (table: string): string => `p/${table}/`;
export const partsFolder = 'parts';
export const partFile = (table: string, part: string): string => `${partsFolder}/${table}/${part}.hlp`;
