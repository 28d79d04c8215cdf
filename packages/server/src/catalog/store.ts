// The catalog: resources in LMDB, mirrored in memory in creation order, with a name index and an R-tree.
import { randomUUID } from 'node:crypto';
import type { ServerDb } from '../db.js';
import { conflict, notFound } from '../errors.js';
import { compileOqs, spatialConstraints, type OqsNode } from '../oqs/index.js';
import { PageBudget } from '../page-budget.js';
import type { CatalogChange, Manifest, Resource } from './resource.js';
import { INDEXED_PATHS, SpatialIndex } from './spatial-index.js';

/** One page of a listing; `next` is the cursor of the following page, or null at the end. */
export interface Page {
  readonly results: Resource[];
  readonly next: string | null;
}

/** What other modules (e.g. STAC) read the catalog through. */
export interface CatalogReader {
  get(uuid: string): Resource | undefined;
  getByName(kind: string, name: string): Resource | undefined;
  /** Matches of a parsed OQS filter after cursor `after` (exclusive), in creation order. */
  list(filter: OqsNode, options?: { after?: string | null; limit?: number }): Page;
  /** Every resource in creation order. */
  all(): IterableIterator<Resource>;
  /** Calls `listener` after each committed change; returns the unsubscribe function. */
  onChange(listener: (c: CatalogChange) => void): () => void;
}

interface Entry {
  readonly seq: number;
  resource: Resource;
}

const SEQ = 'catalog-seq';
/** Prefix of `settings` keys of datasets whose storage is still to be removed (value: the dataset). */
const REMOVAL = 'storage-removal/';

// a resource's JSON length, computed once per (immutable) resource object
const sizes = new WeakMap<Resource, number>();
function jsonSize(r: Resource): number {
  let n = sizes.get(r);
  if (n === undefined) {
    n = JSON.stringify(r).length;
    sizes.set(r, n);
  }
  return n;
}

/** The catalog store of one server process (the only writer of its data directory's catalog). */
export class CatalogStore implements CatalogReader {
  private readonly byUuid = new Map<string, Entry>();
  private readonly byName = new Map<string, string>();
  /** Entries sorted by `seq`: the order of listing and of cursors, stable under inserts. */
  private readonly order: Entry[] = [];
  private readonly spatial = new SpatialIndex();
  private readonly listeners = new Set<(c: CatalogChange) => void>();
  private seq: number;

  constructor(private readonly db: ServerDb) {
    const stored = [...db.resources.getRange({})].map(({ value }) => value as Entry);
    stored.sort((a, b) => a.seq - b.seq);
    for (const e of stored) this.index(e);
    this.spatial.load(stored.map((e) => e.resource));
    this.seq = Math.max((db.settings.get(SEQ) as number | undefined) ?? 0, stored.at(-1)?.seq ?? 0);
  }

  get(uuid: string): Resource | undefined {
    return this.byUuid.get(uuid)?.resource;
  }

  getByName(kind: string, name: string): Resource | undefined {
    const uuid = this.byName.get(nameKey(kind, name));
    return uuid === undefined ? undefined : this.get(uuid);
  }

  *all(): IterableIterator<Resource> {
    for (const e of [...this.order]) yield e.resource;
  }

  /**
   * A page of matches: at most `limit` resources and about `maxBytes` of their JSON (default 64 MiB,
   * at least one resource), so a page of large manifests still fits in one answer.
   */
  list(filter: OqsNode, options: { after?: string | null; limit?: number; maxBytes?: number } = {}): Page {
    const budget = new PageBudget(options.limit ?? 1000, options.maxBytes);
    const after = options.after ? Number(options.after) : 0;
    const test = compileOqs(filter);
    const results: Resource[] = [];
    let last = 0;
    for (const e of this.candidates(filter, after)) {
      if (!test(e.resource)) continue;
      if (!budget.take(jsonSize(e.resource))) return { results, next: String(last) };
      results.push(e.resource);
      last = e.seq;
    }
    return { results, next: null };
  }

  onChange(listener: (c: CatalogChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stores a new resource; 409 when its kind already has the name. */
  async create(manifest: Manifest, by: string): Promise<Resource> {
    if (this.getByName(manifest.kind, manifest.metadata.name)) throw conflict(`${manifest.kind}/${manifest.metadata.name} already exists`);
    if (manifest.metadata.uuid !== undefined && this.byUuid.has(manifest.metadata.uuid)) throw conflict(`a resource with uuid ${manifest.metadata.uuid} already exists`);
    const now = new Date().toISOString();
    const resource: Resource = {
      kind: manifest.kind,
      version: manifest.version,
      metadata: { ...manifest.metadata, uuid: manifest.metadata.uuid ?? randomUUID() },
      spec: manifest.spec,
      owner: by,
      status: { num_updates: 0, created_by: by, created_time: now, updated_by: by, updated_time: now },
    };
    const entry: Entry = { seq: ++this.seq, resource };
    // index first (synchronously) so a concurrent create of the same name sees it; undo on failure
    this.index(entry);
    this.spatial.put(resource);
    try {
      await this.db.atomic(() => {
        this.db.resources.put(resource.metadata.uuid, entry);
        this.db.settings.put(SEQ, this.seq);
      });
    } catch (e) {
      this.unindex(entry);
      throw e;
    }
    this.emit({ type: 'put', resource });
    return resource;
  }

  /** Replaces a resource's metadata and spec (uuid, owner and creation kept); 409 on a name taken. */
  async update(uuid: string, manifest: Manifest, by: string): Promise<Resource> {
    const entry = this.byUuid.get(uuid);
    if (!entry) throw notFound(`no resource ${uuid} (deleted meanwhile)`);
    const old = entry.resource;
    const other = this.getByName(manifest.kind, manifest.metadata.name);
    if (other && other.metadata.uuid !== uuid) throw conflict(`${manifest.kind}/${manifest.metadata.name} already exists`);
    const resource: Resource = {
      ...old,
      version: manifest.version,
      metadata: { ...manifest.metadata, uuid },
      spec: manifest.spec,
      status: { ...old.status, num_updates: old.status.num_updates + 1, updated_by: by, updated_time: new Date().toISOString() },
    };
    this.swap(entry, resource);
    try {
      await this.db.resources.put(uuid, { seq: entry.seq, resource });
    } catch (e) {
      this.swap(entry, old);
      throw e;
    }
    this.emit({ type: 'put', resource });
    return resource;
  }

  /** Datasets deleted from the catalog whose storage is still to be removed (see `deleteAll`'s `storageOf`). */
  pendingRemovals(): Resource[] {
    return [...this.db.settings.getRange({ start: REMOVAL, end: `${REMOVAL}\uffff` })].map(({ value }) => value as Resource);
  }

  /** True while the storage of a deleted dataset with this uuid is still to be removed. */
  removalPending(uuid: string): boolean {
    return this.db.settings.get(REMOVAL + uuid) !== undefined;
  }

  /** Records that the storage of the deleted dataset `uuid` is gone. */
  async removalDone(uuid: string): Promise<void> {
    await this.db.settings.remove(REMOVAL + uuid);
  }

  /** Removes a resource; false when there is none. See {@link deleteAll}. */
  async delete(uuid: string): Promise<boolean> {
    return (await this.deleteAll([uuid])).length > 0;
  }

  /**
   * Removes the resources with these uuids (those that exist) in one LMDB transaction: all of them
   * or, when it fails, none. They are unindexed first (synchronously), so an update racing the
   * removal finds nothing (404) instead of writing a resource back after it; re-indexed if the
   * transaction fails. Resolves with the removed resources, in the order given.
   *
   * `storageOf` (a dataset among them) is recorded in the same transaction as a pending removal of its
   * storage, listed by `pendingRemovals` until `removalDone`: the storage removal that follows the
   * commit can always be finished, even after a crash.
   */
  async deleteAll(uuids: readonly string[], options: { storageOf?: Resource } = {}): Promise<Resource[]> {
    const entries = [...new Set(uuids)].map((u) => this.byUuid.get(u)).filter((e) => e !== undefined);
    if (entries.length === 0) return [];
    for (const e of entries) this.unindex(e);
    try {
      await this.db.atomic(() => {
        for (const e of entries) this.db.resources.remove(e.resource.metadata.uuid);
        if (options.storageOf) this.db.settings.put(REMOVAL + options.storageOf.metadata.uuid, options.storageOf);
      });
    } catch (err) {
      for (const e of entries) {
        this.index(e);
        this.spatial.put(e.resource);
      }
      throw err;
    }
    for (const e of entries) this.emit({ type: 'delete', uuid: e.resource.metadata.uuid, resource: e.resource });
    return entries.map((e) => e.resource);
  }

  /** Entries after `after` that may match: R-tree candidates when the filter allows, else all. */
  private *candidates(filter: OqsNode, after: number): Generator<Entry> {
    const boxes = spatialConstraints(filter).filter((c) => INDEXED_PATHS.has(c.path));
    if (boxes.length > 0) {
      let uuids = new Set(this.spatial.search(boxes[0]!.bbox));
      for (const c of boxes.slice(1)) uuids = new Set(this.spatial.search(c.bbox).filter((u) => uuids.has(u)));
      const entries = [...uuids].map((u) => this.byUuid.get(u)!).filter((e) => e.seq > after);
      yield* entries.sort((a, b) => a.seq - b.seq);
      return;
    }
    for (let i = firstAfter(this.order, after); i < this.order.length; i++) yield this.order[i]!;
  }

  private index(e: Entry): void {
    this.byUuid.set(e.resource.metadata.uuid, e);
    this.byName.set(nameKey(e.resource.kind, e.resource.metadata.name), e.resource.metadata.uuid);
    this.order.splice(firstAfter(this.order, e.seq), 0, e);
  }

  private unindex(e: Entry): void {
    this.byUuid.delete(e.resource.metadata.uuid);
    this.byName.delete(nameKey(e.resource.kind, e.resource.metadata.name));
    const i = firstAfter(this.order, e.seq - 1);
    if (this.order[i] === e) this.order.splice(i, 1);
    this.spatial.remove(e.resource.metadata.uuid);
  }

  private swap(e: Entry, resource: Resource): void {
    this.byName.delete(nameKey(e.resource.kind, e.resource.metadata.name));
    e.resource = resource;
    this.byName.set(nameKey(resource.kind, resource.metadata.name), resource.metadata.uuid);
    this.spatial.put(resource);
  }

  private emit(c: CatalogChange): void {
    for (const l of this.listeners) {
      try {
        l(c);
      } catch {
        // a listener's failure is its own; the change is committed
      }
    }
  }
}

function nameKey(kind: string, name: string): string {
  return `${kind}\n${name}`;
}

/** Index of the first entry with seq > `seq` (binary search). */
function firstAfter(order: readonly Entry[], seq: number): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order[mid]!.seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
