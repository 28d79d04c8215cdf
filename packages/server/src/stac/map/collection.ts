// Data collection → STAC collection: extent from its datasets, license, providers, keywords.
import type { CatalogIndex, CollectionEntry } from '../index/catalog-index.js';
import { formatTime } from '../time.js';
import type { Urls } from '../urls.js';
import type { Link } from './item.js';
import { strings, text, url } from './values.js';

/** A STAC collection as served. */
export interface StacCollection {
  readonly type: 'Collection';
  readonly stac_version: '1.0.0';
  readonly stac_extensions: readonly string[];
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly keywords?: readonly string[];
  readonly license: string;
  readonly providers?: readonly unknown[];
  readonly extent: Extent;
  readonly links: readonly Link[];
}

interface Extent {
  readonly spatial: { readonly bbox: readonly (readonly number[])[] };
  readonly temporal: { readonly interval: readonly (readonly (string | null)[])[] };
}

const WORLD = [-180, -90, 180, 90] as const;
const extents = new WeakMap<CollectionEntry, { version: number; extent: Extent }>();

/**
 * The STAC collection of `entry`.
 * @example
 * const c = collectionOf(index, entry, urls);
 */
export function collectionOf(index: CatalogIndex, entry: CollectionEntry, urls: Urls): StacCollection {
  const { metadata, spec } = entry.resource;
  const self = `${urls.stac}/collections/${encodeURIComponent(entry.uuid)}`;
  const license = spec['license'] as { name?: unknown; href?: unknown } | undefined;
  const licenseName = text(license?.name);
  const links: Link[] = [
    { rel: 'self', href: self, type: 'application/json' },
    { rel: 'root', href: urls.stac, type: 'application/json' },
    { rel: 'parent', href: urls.stac, type: 'application/json' },
    { rel: 'items', href: `${self}/items`, type: 'application/geo+json' },
    { rel: 'http://www.opengis.net/def/rel/ogc/1.0/queryables', href: `${self}/queryables`, type: 'application/schema+json' },
  ];
  const licenseHref = url(license?.href);
  if (licenseHref) links.push({ rel: 'license', href: licenseHref, ...(licenseName ? { title: licenseName } : {}) });
  const keywords = strings(spec['tags']);
  const providers = providersOf(spec);
  return {
    type: 'Collection',
    stac_version: '1.0.0',
    stac_extensions: [],
    id: entry.uuid,
    title: metadata.display_name ?? metadata.name,
    description: text(metadata.description) ?? metadata.display_name ?? metadata.name,
    ...(keywords ? { keywords } : {}),
    // STAC wants an SPDX identifier; any other license is `proprietary` with its link (STAC 1.0.0)
    license: licenseName && /^[\w\-.+]+$/.test(licenseName) ? licenseName : 'proprietary',
    ...(providers ? { providers } : {}),
    extent: extentOf(index, entry),
    links,
  };
}

function providersOf(spec: Readonly<Record<string, unknown>>): unknown[] | undefined {
  const by = spec['published_by'] as { contact?: unknown; organisation?: unknown } | undefined;
  const name = text(by?.organisation) ?? text(by?.contact);
  if (!name) return undefined;
  const contact = text(by?.contact);
  const website = url(spec['website']);
  return [{ name, ...(contact ? { description: `Contact: ${contact}` } : {}), roles: ['producer', 'licensor'], ...(website ? { url: website } : {}) }];
}

// union of the members' boxes (world when none) and of their time coverages; cached per index version
function extentOf(index: CatalogIndex, entry: CollectionEntry): Extent {
  const cached = extents.get(entry);
  if (cached && cached.version === index.version) return cached.extent;
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  let start = Infinity;
  let end = -Infinity;
  for (const d of index.members(entry.uuid)) {
    if (d.box) {
      box[0] = Math.min(box[0]!, d.box[0]);
      box[1] = Math.min(box[1]!, d.box[1]);
      box[2] = Math.max(box[2]!, d.box[2]);
      box[3] = Math.max(box[3]!, d.box[3]);
    }
    if (d.coverage) {
      start = Math.min(start, d.coverage.start);
      end = Math.max(end, d.coverage.end);
    }
  }
  const extent: Extent = {
    spatial: { bbox: [box[0] === Infinity ? [...WORLD] : box] },
    temporal: { interval: [[start === Infinity ? null : formatTime(start), end === -Infinity ? null : formatTime(end)]] },
  };
  extents.set(entry, { version: index.version, extent });
  return extent;
}
