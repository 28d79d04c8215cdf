// Addressing a file beside a table: by id, or by name when exactly one of the table's files has it.
import type { MetaReader } from '../storage/metastore.js';
import { HaloclineError } from '../errors.js';
import { type RawRecord, rawKey, rawPrefix } from './entry.js';

/** Every file record of `table`, oldest first (ids start with the creation time). */
export function rawRecords(meta: MetaReader, table: string): RawRecord[] {
  const prefix = rawPrefix(table);
  // a table named "a/b" has keys under "f/a/"; ids never contain "/", so those are skipped
  return meta
    .range<RawRecord>(prefix)
    .filter(([key]) => !key.slice(prefix.length).includes('/'))
    .map(([, r]) => r);
}

/**
 * The record addressed by `idOrName` among the files of `table`. Throws NotFound when no file has
 * that id or name, InvalidArgument when several files have that name.
 */
export function resolveRaw(meta: MetaReader, table: string, idOrName: string): RawRecord {
  if (typeof idOrName !== 'string' || idOrName === '') {
    throw new HaloclineError('InvalidArgument', 'a file is addressed by its id or name (a non-empty string)', { table, value: idOrName });
  }
  if (!idOrName.includes('/')) {
    const byId = meta.get<RawRecord>(rawKey(table, idOrName));
    if (byId) return byId;
  }
  const named = rawRecords(meta, table).filter((r) => r.name === idOrName);
  if (named.length === 1) return named[0]!;
  if (named.length === 0) {
    throw new HaloclineError('NotFound', `table "${table}" has no file with id or name "${idOrName}"`, { table, value: idOrName });
  }
  const ids = named.map((r) => r.id).join(', ');
  throw new HaloclineError('InvalidArgument', `${named.length} files of table "${table}" are named "${idOrName}"; address one by id (${ids})`, {
    table,
    value: idOrName,
  });
}
