// The metadata record of a file kept beside a table, its key in the MetaStore and its blob path.

/**
 * A file beside a table, as stored (JSON in the MetaStore). Invariants: `id` is unique in the store
 * and never reused; `file` is the committed blob holding exactly `size` bytes whose SHA-256 is
 * `sha256`; the entry exists only once the blob is committed. Files belong to the table *name*, so
 * they exist before the table has a schema and survive `drop()`.
 */
export interface RawRecord {
  readonly id: string;
  readonly table: string;
  readonly name: string;
  readonly size: number;
  /** Lower-case hex. */
  readonly sha256: string;
  readonly mimetype: string | null;
  /** The geometry as WKT (WKB input is stored as its WKT). */
  readonly geometry: string | null;
  readonly properties: Readonly<Record<string, string>>;
  /** Blob path, `files/<id>`. */
  readonly file: string;
  /** ISO-8601 instants. */
  readonly created: string;
  readonly updated: string;
}

/** A file entry as `list` returns it: the record without its storage fields, timestamps as Dates. */
export type RawEntry = Omit<RawRecord, 'table' | 'file' | 'created' | 'updated'> & { readonly created: Date; readonly updated: Date };

export const rawKey = (table: string, id: string): string => `f/${table}/${id}`;
export const rawPrefix = (table: string): string => `f/${table}/`;
export const rawFolder = 'files';
export const rawFile = (id: string): string => `${rawFolder}/${id}`;

/** The public view of a stored record. */
export function toEntry(r: RawRecord): RawEntry {
  return {
    id: r.id,
    name: r.name,
    size: r.size,
    sha256: r.sha256,
    mimetype: r.mimetype,
    geometry: r.geometry,
    properties: { ...r.properties },
    created: new Date(r.created),
    updated: new Date(r.updated),
  };
}
