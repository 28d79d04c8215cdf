// Dataset → STAC item: geometry from its geometric coverage, datetime from its time coverage, assets
// pointing at the data endpoints; the base-URL-free part is cached per index entry.
import type { DatasetEntry } from '../index/entry.js';
import type { CatalogIndex } from '../index/catalog-index.js';
import { formatTime } from '../time.js';
import type { Urls } from '../urls.js';
import { absoluteAssets, assetsFor, type Asset } from './assets.js';
import { strings } from './values.js';

/** A STAC item (GeoJSON Feature) as served. */
export interface StacItem {
  readonly type: 'Feature';
  readonly stac_version: '1.0.0';
  readonly stac_extensions: readonly string[];
  readonly id: string;
  readonly geometry: unknown;
  readonly bbox?: readonly number[];
  readonly properties: Record<string, unknown>;
  readonly links: readonly Link[];
  readonly assets: Record<string, Asset>;
  readonly collection?: string;
}

/** A STAC / OGC link. */
export interface Link {
  readonly rel: string;
  readonly href: string;
  readonly type?: string;
  readonly title?: string;
  readonly method?: string;
  readonly body?: unknown;
  readonly merge?: boolean;
}

type Core = Omit<StacItem, 'links'> & { readonly collection?: string };

const cache = new WeakMap<DatasetEntry, Core>();

/**
 * The item of `entry`; its self link is `{stac}/items/{id}`, or under its collection when `underCollection`.
 * @example
 * const item = itemOf(index, entry, urls, false);
 */
export function itemOf(index: CatalogIndex, entry: DatasetEntry, urls: Urls, underCollection: boolean): StacItem {
  const collection = index.collectionOf(entry);
  let core = cache.get(entry);
  if (!core || core.collection !== collection) cache.set(entry, (core = coreOf(entry, collection)));
  const id = encodeURIComponent(entry.uuid);
  const parent = collection === undefined ? urls.stac : `${urls.stac}/collections/${encodeURIComponent(collection)}`;
  const links: Link[] = [
    { rel: 'self', href: underCollection && collection !== undefined ? `${parent}/items/${id}` : `${urls.stac}/items/${id}`, type: 'application/geo+json' },
    { rel: 'root', href: urls.stac, type: 'application/json' },
    { rel: 'parent', href: parent, type: 'application/json' },
  ];
  if (collection !== undefined) links.push({ rel: 'collection', href: parent, type: 'application/json' });
  return { ...core, links, assets: absoluteAssets(core.assets, urls) };
}

/** The properties a dataset item carries (also what filter and sort address). */
export function propertiesOf(entry: DatasetEntry): Record<string, unknown> {
  const { metadata, spec } = entry.resource;
  const p: Record<string, unknown> = {};
  const c = entry.coverage;
  if (c && c.start !== c.end) Object.assign(p, { datetime: null, start_datetime: formatTime(c.start), end_datetime: formatTime(c.end) });
  else p['datetime'] = formatTime(c ? c.start : entry.created);
  p['title'] = metadata.display_name ?? metadata.name;
  if (metadata.description !== undefined) p['description'] = metadata.description;
  const keywords = strings(spec['tags']);
  if (keywords) p['keywords'] = keywords;
  p['created'] = formatTime(entry.created);
  p['updated'] = formatTime(entry.updated);
  p['name'] = metadata.name;
  const storage = storageClassOf(spec['storage_class']);
  if (storage !== undefined) p['storage_class'] = storage;
  if (isRecord(spec['facets'])) p['facets'] = spec['facets'];
  if (isRecord(spec['maintainer'])) p['maintainer'] = spec['maintainer'];
  if (c) p['time_attribute'] = c.attribute;
  return p;
}

/** `raw` or `tabular` from `registry.<domain>/storageClass/<class>`. */
export function storageClassOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.slice(value.lastIndexOf('/') + 1) || undefined;
}

function coreOf(entry: DatasetEntry, collection: string | undefined): Core {
  const core: Core = {
    type: 'Feature',
    stac_version: '1.0.0',
    stac_extensions: [],
    id: entry.uuid,
    geometry: entry.geometry,
    ...(entry.box ? { bbox: [...entry.box] } : {}),
    properties: propertiesOf(entry),
    assets: assetsFor(entry.uuid, storageClassOf(entry.resource.spec['storage_class'])),
    ...(collection !== undefined ? { collection } : {}),
  };
  return core;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
