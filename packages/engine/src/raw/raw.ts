// The raw controller of a table: files kept beside the table (not rows), and their ingest into it.
import type { Readable } from 'node:stream';
import type { RawFilesApi } from '../api.js';
import type { StoreContext } from '../context.js';
import { type IngestOptions, type IngestResult, ingestRaw } from '../ingest/ingest.js';
import { type RawEntry, type RawRecord, rawKey, toEntry } from './entry.js';
import { type ListOptions, filterRaw } from './list.js';
import { rawRecords, resolveRaw } from './resolve.js';
import { type UploadBody, type UploadOptions, uploadRaw } from './upload.js';
import { type RawMetaPatch, checkPatch } from './validate.js';

/**
 * Files beside a table, addressed by id or by name (when the name is unique among the table's files).
 * Files belong to the table *name*: they can be uploaded before the table has a schema (ingest then
 * creates it) and they survive `drop()` of the table's rows and schema. They never appear in select.
 * @example
 * const id = await t.raw.upload('casts.csv', bytes); await t.raw.ingest(id, { opt: 'append' })
 */
export class RawFiles implements RawFilesApi {
  constructor(
    private readonly ctx: StoreContext,
    readonly table: string,
  ) {}

  /** Streams `body` to disk and records it; resolves with the new file's id. */
  async upload(name: string, body: UploadBody, options?: UploadOptions): Promise<string> {
    this.ctx.checkOpen();
    return uploadRaw(this.ctx, this.table, name, body, options);
  }

  /** Sets `name`, `geometry` (WKT or WKB; null clears), `mimetype` (null clears) or `properties` (replaced). */
  async updateMeta(idOrName: string, patch: RawMetaPatch): Promise<RawEntry> {
    this.ctx.checkOpen();
    const checked = checkPatch(patch, this.table);
    const id = resolveRaw(this.ctx.meta, this.table, idOrName).id;
    return this.ctx.meta.write((tx) => {
      const current = resolveRaw(tx, this.table, id);
      const next: RawRecord = { ...current, ...checked, updated: new Date().toISOString() };
      tx.put(rawKey(this.table, id), next);
      return toEntry(next);
    });
  }

  /** The entries, oldest first; with `filter`, those matching it (the select query language). */
  async list(filter?: string, options?: ListOptions): Promise<RawEntry[]> {
    this.ctx.checkOpen();
    return filterRaw(rawRecords(this.ctx.meta, this.table), filter, options);
  }

  /** The file's bytes as a stream read from disk. */
  async download(idOrName: string): Promise<Readable> {
    this.ctx.checkOpen();
    return this.ctx.blobs.stream(resolveRaw(this.ctx.meta, this.table, idOrName).file);
  }

  /** Removes the entry, then the file. */
  async delete(idOrName: string): Promise<void> {
    this.ctx.checkOpen();
    const id = resolveRaw(this.ctx.meta, this.table, idOrName).id;
    const removed = await this.ctx.meta.write((tx) => {
      const record = resolveRaw(tx, this.table, id);
      tx.remove(rawKey(this.table, id));
      return record;
    });
    await this.ctx.blobs.remove(removed.file);
  }

  /**
   * Parses the file (Parquet, CSV or FlatGeobuf) into the table in one atomic commit: `append`
   * (default) adds rows, `truncate` replaces all rows, `drop` recreates the table from the file.
   */
  async ingest(idOrName: string, options?: IngestOptions): Promise<IngestResult> {
    this.ctx.checkOpen();
    return ingestRaw(this.ctx, this.table, resolveRaw(this.ctx.meta, this.table, idOrName), options);
  }
}
