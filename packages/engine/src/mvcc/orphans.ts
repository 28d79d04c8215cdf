// Orphan removal at open: files no committed record refers to, left by a crash or a rollback.
import type { MetaStore } from '../storage/metastore.js';
import type { BlobStore } from '../storage/blobstore.js';
import { type GarbageRecord, type PartRecord, garbagePrefix, partsFolder } from '../storage/records.js';
import { type RawRecord, rawFolder } from '../raw/entry.js';
import type { Readers } from './readers.js';

/**
 * Removes the files of the store that no committed partition, garbage entry or raw-file entry
 * refers to, unless a live process (its token is in the file name) may still be writing them.
 *
 * Other processes keep committing meanwhile, so the order of the three reads matters: the files
 * are listed first, the live processes next, the records last (in a fresh read snapshot). A listed
 * file then existed before the live check, so its writer either still lives (the file is kept as
 * its own) or had committed it before it closed (the file is kept as referenced). Reading the
 * records first would remove the file of a process that commits and closes in between.
 */
export async function removeOrphans(meta: MetaStore, blobs: Pick<BlobStore, 'list' | 'remove'>, readers: Pick<Readers, 'liveTokens'>): Promise<void> {
  const files = [...(await blobs.list(partsFolder)), ...(await blobs.list(rawFolder))];
  const live = readers.liveTokens();
  meta.refreshRead();
  const records = [...meta.range<PartRecord>('p/'), ...meta.range<GarbageRecord>(garbagePrefix), ...meta.range<RawRecord>('f/')];
  const referenced = new Set(records.map(([, r]) => r.file));
  const writing = (f: string) => live.has(f.slice(f.lastIndexOf('/') + 1).split('-')[1] ?? '');
  await Promise.all(files.filter((f) => !referenced.has(f) && !writing(f)).map((f) => blobs.remove(f)));
}
