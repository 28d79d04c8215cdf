// The STAC view of the catalog, kept up to date from the source's changes: id maps, an R-tree over
// dataset footprints, an interval R-tree over dataset times, and the (created_time, uuid) orders.
import RBush from 'rbush';
import type { Box } from '../geometry.js';
import type { Kinds } from '../kinds.js';
import type { CatalogChange, CatalogSource, Resource } from '../source.js';
import { datasetEntry, type DatasetEntry } from './entry.js';
import { SortedArray } from './sorted.js';
import { parseCatalogTime } from '../time.js';

interface Node {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  entry: DatasetEntry;
}

/** Compares by (created, uuid): the order of pages, so paging is stable while the catalog changes. */
export function byCreated(a: { created: number; uuid: string }, b: { created: number; uuid: string }): number {
  return a.created - b.created || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);
}

/** A data collection with its order key. */
export interface CollectionEntry {
  readonly uuid: string;
  readonly created: number;
  readonly resource: Resource;
}

/**
 * Indexes a {@link CatalogSource}. Each change updates only what it touches (O(log n) per tree plus the
 * sorted-array move); `close()` unsubscribes.
 * @example
 * const index = new CatalogIndex(source, kindsOf('example.io'));
 * index.spatial([0, 0, 10, 10]);
 */
export class CatalogIndex {
  readonly #kinds: Kinds;
  readonly #resources = new Map<string, Resource>();
  readonly #entries = new Map<string, DatasetEntry>();
  readonly #datasetByName = new Map<string, string>();
  readonly #collectionByName = new Map<string, string>();
  readonly #observables = new Map<string, Set<string>>();
  readonly #members = new Map<string, Set<string>>();
  readonly #nodes = new Map<string, { space?: Node; time: Node }>();
  readonly #space = new RBush<Node>();
  readonly #time = new RBush<Node>();
  readonly #order = new SortedArray<DatasetEntry>(byCreated);
  readonly #collections = new SortedArray<CollectionEntry>(byCreated);
  readonly #collectionEntries = new Map<string, CollectionEntry>();
  readonly #stop: () => void;
  #loading = false;
  /** Incremented on every change; caches derived from several entries compare it. */
  version = 0;

  constructor(source: CatalogSource, kinds: Kinds) {
    this.#kinds = kinds;
    this.#stop = source.onChange((c) => this.apply(c));
    this.#bulkLoad(source.all());
  }

  /** Applies one change (the source's listener). */
  apply(change: CatalogChange): void {
    this.version++;
    if (change.type === 'put') this.#put(change.resource);
    else this.#delete(change.uuid);
  }

  close(): void {
    this.#stop();
  }

  /** Datasets in (created, uuid) order. */
  get ordered(): readonly DatasetEntry[] {
    return this.#order.items;
  }

  /** Data collections in (created, uuid) order. */
  get collections(): readonly CollectionEntry[] {
    return this.#collections.items;
  }

  dataset(uuid: string): DatasetEntry | undefined {
    return this.#entries.get(uuid);
  }

  collection(uuid: string): CollectionEntry | undefined {
    return this.#collectionEntries.get(uuid);
  }

  collectionByName(name: string): CollectionEntry | undefined {
    const uuid = this.#collectionByName.get(name);
    return uuid === undefined ? undefined : this.#collectionEntries.get(uuid);
  }

  /** Datasets referencing the collection `uuid`. */
  members(uuid: string): DatasetEntry[] {
    const name = this.#collectionEntries.get(uuid)?.resource.metadata.name;
    const out: DatasetEntry[] = [];
    for (const d of (name === undefined ? undefined : this.#members.get(name)) ?? []) {
      const e = this.#entries.get(d);
      if (e) out.push(e);
    }
    return out;
  }

  /** The uuid of the collection a dataset references, when that collection exists. */
  collectionOf(entry: DatasetEntry): string | undefined {
    return entry.collectionName === undefined ? undefined : this.#collectionByName.get(entry.collectionName);
  }

  /** Datasets whose footprint box intersects `box` (minX ≤ maxX; split antimeridian boxes before). */
  spatial(box: Box): DatasetEntry[] {
    return this.#space.search({ minX: box[0], minY: box[1], maxX: box[2], maxY: box[3] }).map((n) => n.entry);
  }

  /** Datasets whose time interval meets [start, end] (inclusive, ±Infinity for open ends). */
  temporal(start: number, end: number): DatasetEntry[] {
    return this.#time.search({ minX: clampTime(start), minY: 0, maxX: clampTime(end), maxY: 0 }).map((n) => n.entry);
  }

  // the initial load: maps first, then each dataset's entry once, trees bulk-loaded (rbush `load`)
  #bulkLoad(resources: Iterable<Resource>): void {
    this.#loading = true;
    for (const r of resources) this.#put(r);
    this.#loading = false;
    const space: Node[] = [];
    const time: Node[] = [];
    const entries: DatasetEntry[] = [];
    for (const uuid of this.#datasetByName.values()) {
      const dataset = this.#resources.get(uuid)!;
      const entry = datasetEntry(this.#kinds, dataset, this.#observablesOf(dataset.metadata.name));
      entries.push(entry);
      const nodes = this.#nodesOf(entry);
      if (nodes.space) space.push(nodes.space);
      time.push(nodes.time);
    }
    this.#space.load(space);
    this.#time.load(time);
    this.#order.load(entries);
  }

  #put(r: Resource): void {
    const old = this.#resources.get(r.metadata.uuid);
    if (old) this.#delete(old.metadata.uuid);
    const k = this.#kinds;
    if (r.kind !== k.dataset && r.kind !== k.collection && r.kind !== k.observable) return;
    this.#resources.set(r.metadata.uuid, r);
    if (r.kind === k.dataset) {
      this.#datasetByName.set(r.metadata.name, r.metadata.uuid);
      this.#indexDataset(r.metadata.name);
    } else if (r.kind === k.collection) {
      const entry = { uuid: r.metadata.uuid, created: parseCatalogTime(r.status.created_time) ?? 0, resource: r };
      this.#collectionByName.set(r.metadata.name, r.metadata.uuid);
      this.#collectionEntries.set(entry.uuid, entry);
      this.#collections.insert(entry);
    } else {
      const target = k.datasetRef(r.spec['ref']);
      if (target === undefined) return;
      setOf(this.#observables, target).add(r.metadata.uuid);
      this.#indexDataset(target);
    }
  }

  #delete(uuid: string): void {
    const r = this.#resources.get(uuid);
    if (!r) return;
    this.#resources.delete(uuid);
    const k = this.#kinds;
    if (r.kind === k.dataset) {
      this.#unindexDataset(uuid);
      if (this.#datasetByName.get(r.metadata.name) === uuid) this.#datasetByName.delete(r.metadata.name);
    } else if (r.kind === k.collection) {
      const entry = this.#collectionEntries.get(uuid);
      if (entry) this.#collections.remove(entry);
      this.#collectionEntries.delete(uuid);
      if (this.#collectionByName.get(r.metadata.name) === uuid) this.#collectionByName.delete(r.metadata.name);
    } else {
      const target = k.datasetRef(r.spec['ref']);
      if (target === undefined) return;
      this.#observables.get(target)?.delete(uuid);
      this.#indexDataset(target);
    }
  }

  // (re)build the entry of the dataset named `name` from the dataset and its observables
  #indexDataset(name: string): void {
    const uuid = this.#datasetByName.get(name);
    const dataset = uuid === undefined ? undefined : this.#resources.get(uuid);
    if (!uuid || !dataset || this.#loading) return;
    this.#unindexDataset(uuid);
    const entry = datasetEntry(this.#kinds, dataset, this.#observablesOf(name));
    this.#order.insert(entry);
    const nodes = this.#nodesOf(entry);
    this.#time.insert(nodes.time);
    if (nodes.space) this.#space.insert(nodes.space);
  }

  #observablesOf(datasetName: string): Resource[] {
    return [...(this.#observables.get(datasetName) ?? [])].map((o) => this.#resources.get(o)).filter((o) => o !== undefined);
  }

  // registers the entry in the maps and returns its tree nodes (the caller inserts them)
  #nodesOf(entry: DatasetEntry): { space?: Node; time: Node } {
    this.#entries.set(entry.uuid, entry);
    if (entry.collectionName !== undefined) setOf(this.#members, entry.collectionName).add(entry.uuid);
    const time: Node = { minX: clampTime(entry.start), minY: 0, maxX: clampTime(entry.end), maxY: 0, entry };
    const nodes = entry.box ? { space: { minX: entry.box[0], minY: entry.box[1], maxX: entry.box[2], maxY: entry.box[3], entry }, time } : { time };
    this.#nodes.set(entry.uuid, nodes);
    return nodes;
  }

  #unindexDataset(uuid: string): void {
    const entry = this.#entries.get(uuid);
    if (!entry) return;
    this.#entries.delete(uuid);
    this.#order.remove(entry);
    if (entry.collectionName !== undefined) this.#members.get(entry.collectionName)?.delete(uuid);
    const nodes = this.#nodes.get(uuid);
    if (nodes?.space) this.#space.remove(nodes.space);
    if (nodes) this.#time.remove(nodes.time);
    this.#nodes.delete(uuid);
  }
}

// the interval tree stores finite bounds: the JS Date range covers every representable catalog time
const TIME_LIMIT = 8.64e15;

function clampTime(t: number): number {
  return Math.max(-TIME_LIMIT, Math.min(TIME_LIMIT, t));
}

function setOf<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let s = map.get(key);
  if (!s) map.set(key, (s = new Set()));
  return s;
}
