// Raw file datasets: entries in LMDB ([dataset, 'f', seq] and a name index), bytes in <data>/raw/<dataset>/.
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ServerDb } from '../db.js';
import { conflict, notFound } from '../errors.js';
import { compileOqs, type OqsNode } from '../oqs/index.js';
import { PAGE_BYTES, PageBudget } from '../page-budget.js';
import { type WrittenBlob, writeBlob } from './blob.js';
import type { FileMetadata, FilePatch, FileRecord } from './entry.js';

type Key = (string | number)[];

/** Files of raw datasets. Every change is one LMDB transaction; bytes are written before entries point at them. */
export class RawFileStore {
  private readonly dir: string;

  constructor(private readonly db: ServerDb, dataDir: string) {
    this.dir = join(dataDir, 'raw');
  }

  /** Creates the entry of a file not uploaded yet; 409 when the name exists. */
  async create(dataset: string, patch: FilePatch & { name: string }): Promise<FileMetadata> {
    const now = new Date().toISOString();
    let meta: FileMetadata | undefined;
    await this.db.atomic(() => {
      if (this.db.files.get(nameKey(dataset, patch.name)) !== undefined) throw conflict(`file "${patch.name}" already exists in dataset ${dataset}`);
      const seq = ((this.db.files.get([dataset, 'seq']) as number | undefined) ?? 0) + 1;
      meta = {
        name: patch.name,
        mime_type: patch.mime_type ?? null,
        dataset,
        metadata: patch.metadata ?? {},
        geo_location: patch.geo_location ?? null,
        size_bytes: 0,
        checksum: null,
        created_time: now,
        modified_time: now,
        deleted_time: null,
      };
      const record: FileRecord = { seq, id: randomUUID(), uploaded: false, meta };
      this.db.files.put([dataset, 'seq'], seq);
      this.db.files.put(fileKey(dataset, seq), record);
      this.db.files.put(nameKey(dataset, patch.name), seq);
    });
    return meta!;
  }

  /** Whether the dataset has a file of this name. */
  has(dataset: string, name: string): boolean {
    return this.find(dataset, name) !== undefined;
  }

  /** The record of a file, or 404. */
  get(dataset: string, name: string): FileRecord {
    const rec = this.find(dataset, name);
    if (!rec) throw notFound(`no file "${name}" in dataset ${dataset}`);
    return rec;
  }

  /**
   * Streams `body` in as the file's content; 409 when content exists and `overwrite` is false. Each
   * upload writes its own blob and the entry is switched to it in one LMDB transaction that checks
   * again, so of two concurrent uploads without `overwrite` one is a 409, and an upload racing a
   * delete leaves no blob behind. The replaced blob is removed after the switch.
   */
  async upload(dataset: string, name: string, body: Readable, options: { overwrite: boolean; limit: number }): Promise<FileMetadata> {
    const before = this.get(dataset, name);
    const taken = (rec: FileRecord): boolean => rec.uploaded && !options.overwrite;
    if (taken(before)) throw alreadyUploaded(name);
    const blob = `${before.id}.${randomBytes(8).toString('hex')}`;
    let written: WrittenBlob;
    try {
      written = await writeBlob(this.blobPath(dataset, blob), body, options.limit);
    } catch (e) {
      // the dataset's directory went away mid-upload: its dataset (or the file) was deleted, a 404
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') this.get(dataset, name);
      throw e;
    }
    let meta: FileMetadata | undefined;
    let replaced: string | undefined;
    try {
      await this.db.atomic(() => {
        const rec = this.get(dataset, name);
        if (rec.id !== before.id) throw conflict(`file "${name}" was deleted and created again during the upload; upload again`);
        if (taken(rec)) throw alreadyUploaded(name);
        replaced = rec.uploaded ? blobOf(rec) : undefined;
        meta = { ...rec.meta, size_bytes: written.size, checksum: written.sha256, modified_time: new Date().toISOString() };
        this.db.files.put(fileKey(dataset, rec.seq), { ...rec, uploaded: true, blob, meta });
      });
    } catch (e) {
      await rm(this.blobPath(dataset, blob), { force: true });
      throw e;
    }
    if (replaced !== undefined) await rm(this.blobPath(dataset, replaced), { force: true });
    return meta!;
  }

  /** An open read of the file's bytes (`start`..`end` inclusive), with its size. 404 before upload. */
  async open(dataset: string, name: string, range?: { start: number; end: number }): Promise<{ record: FileRecord; stream: ReadStream }> {
    const record = this.get(dataset, name);
    if (!record.uploaded) throw notFound(`file "${name}" has no content yet (upload it with PATCH first)`);
    const path = this.blobPath(dataset, blobOf(record));
    await stat(path);
    return { record, stream: createReadStream(path, range) };
  }

  /** Applies a metadata update; renaming onto an existing name is 409. */
  async update(dataset: string, name: string, patch: FilePatch): Promise<FileMetadata> {
    let meta: FileMetadata | undefined;
    await this.db.atomic(() => {
      const rec = this.get(dataset, name);
      const rename = patch.name !== undefined && patch.name !== name;
      if (rename && this.db.files.get(nameKey(dataset, patch.name!)) !== undefined) throw conflict(`file "${patch.name}" already exists in dataset ${dataset}`);
      meta = {
        ...rec.meta,
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.mime_type !== undefined ? { mime_type: patch.mime_type } : {}),
        ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
        ...(patch.geo_location !== undefined ? { geo_location: patch.geo_location } : {}),
        modified_time: new Date().toISOString(),
      };
      this.db.files.put(fileKey(dataset, rec.seq), { ...rec, meta });
      if (rename) {
        this.db.files.remove(nameKey(dataset, name));
        this.db.files.put(nameKey(dataset, patch.name!), rec.seq);
      }
    });
    return meta!;
  }

  /** Removes a file's entry, then its bytes. */
  async delete(dataset: string, name: string): Promise<void> {
    let blob = '';
    await this.db.atomic(() => {
      const rec = this.get(dataset, name);
      blob = blobOf(rec);
      this.db.files.remove(fileKey(dataset, rec.seq));
      this.db.files.remove(nameKey(dataset, name));
    });
    await rm(this.blobPath(dataset, blob), { force: true });
  }

  /**
   * A page of files matching a parsed filter (OQS or `{metadata: {key: value}}`), after cursor
   * `after`: at most `limit` entries and about `maxBytes` of their JSON (at least one entry).
   */
  list(dataset: string, filter: OqsNode, after: number, limit: number, maxBytes = PAGE_BYTES): { results: FileMetadata[]; next: string | null } {
    const test = compileOqs(filter);
    const budget = new PageBudget(limit, maxBytes);
    const results: FileMetadata[] = [];
    let last = 0;
    for (const { value } of this.db.files.getRange({ start: fileKey(dataset, after + 1), end: [dataset, 'g'] })) {
      const rec = value as FileRecord;
      if (!test(rec.meta)) continue;
      if (!budget.take(JSON.stringify(rec.meta).length)) return { results, next: String(last) };
      results.push(rec.meta);
      last = rec.seq;
    }
    return { results, next: null };
  }

  /**
   * Removes what a crash left in the dataset directories: temp files of uploads under way, and blobs
   * no entry points at (a file deleted, or an upload replaced, just before the crash removed its
   * bytes). Call before serving: the server is the only writer, so nothing is mid-upload.
   */
  async removeLeftovers(): Promise<number> {
    let removed = 0;
    const datasets = await readdir(this.dir).catch(() => [] as string[]);
    for (const ds of datasets) {
      const names = await readdir(join(this.dir, ds)).catch(() => [] as string[]);
      const referenced = new Set<string>();
      for (const { value } of this.db.files.getRange({ start: fileKey(ds, 0), end: [ds, 'g'] })) {
        const rec = value as FileRecord;
        if (rec.uploaded) referenced.add(blobOf(rec));
      }
      for (const name of names.filter((n) => !referenced.has(n))) {
        await rm(join(this.dir, ds, name), { force: true });
        removed++;
      }
    }
    return removed;
  }

  /** Creates the dataset's directory (storage provisioning). */
  async provision(dataset: string): Promise<void> {
    await mkdir(join(this.dir, dataset), { recursive: true });
  }

  /** Removes every file of a dataset: entries first, then the directory. */
  async removeDataset(dataset: string): Promise<void> {
    await this.db.atomic(() => {
      for (const key of this.db.files.getKeys({ start: [dataset], end: [dataset, '\uffff'] })) this.db.files.remove(key as Key);
    });
    await rm(join(this.dir, dataset), { recursive: true, force: true });
  }

  private find(dataset: string, name: string): FileRecord | undefined {
    const seq = this.db.files.get(nameKey(dataset, name)) as number | undefined;
    return seq === undefined ? undefined : (this.db.files.get(fileKey(dataset, seq)) as FileRecord | undefined);
  }

  private blobPath(dataset: string, id: string): string {
    return join(this.dir, dataset, id);
  }
}

function blobOf(rec: FileRecord): string {
  return rec.blob ?? rec.id;
}

function alreadyUploaded(name: string): Error {
  return conflict(`file "${name}" already has content; upload with overwrite=true to replace it`);
}

function fileKey(dataset: string, seq: number): Key {
  return [dataset, 'f', seq];
}

function nameKey(dataset: string, name: string): Key {
  return [dataset, 'n', name];
}
