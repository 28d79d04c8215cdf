// Test and benchmark catalogs: manifests in the wire shape with deterministic UUIDs and times.
import type { Resource } from '../stac/source.js';

const DOMAIN = 'example.io';

/** A deterministic UUID-shaped id from a number and a tag digit. */
export function uuid(n: number, tag = 1): string {
  const hex = n.toString(16).padStart(12, '0');
  return `0000000${tag}-0000-4000-8000-${hex}`;
}

function status(createdMs: number): Resource['status'] {
  const t = new Date(createdMs).toISOString();
  return { num_updates: 0, created_by: 'test', created_time: t, updated_by: 'test', updated_time: t };
}

/** A data collection manifest. */
export function collection(n: number, over: Partial<{ name: string; title: string; description: string; spec: Record<string, unknown>; created: number }> = {}): Resource {
  return {
    kind: `catalog.${DOMAIN}/dataCollection`,
    version: 'v1alpha1',
    metadata: { name: over.name ?? `collection-${n}`, uuid: uuid(n, 2), display_name: over.title ?? `Collection ${n}`, description: over.description ?? `Collection number ${n}` },
    spec: over.spec ?? {
      published_by: { contact: 'Ada <ada@example.org>', organisation: 'Ocean Org' },
      published_date: '2024-01-01T00:00:00',
      website: 'https://ocean.example.org',
      license: { name: 'CC-BY-4.0', full_text: 'Creative Commons Attribution 4.0', href: 'https://creativecommons.org/licenses/by/4.0/' },
      tags: ['ocean', `c${n}`],
    },
    status: status(over.created ?? Date.UTC(2024, 0, 1) + n * 1000),
  };
}

/** A dataset manifest, optionally in a collection (by the collection's name). */
export function dataset(n: number, over: Partial<{ name: string; collection: string; tabular: boolean; created: number; title: string }> = {}): Resource {
  const tabular = over.tabular ?? n % 2 === 0;
  return {
    kind: `catalog.${DOMAIN}/dataset`,
    version: 'v1alpha3',
    metadata: { name: over.name ?? `dataset-${n}`, uuid: uuid(n, 1), display_name: over.title ?? `Dataset ${n}`, description: `Dataset number ${n}` },
    spec: {
      storage_controller: `registry.${DOMAIN}/storageController/${tabular ? 'storage-tabular' : 'storage-raw-cdffs'}`,
      storage_class: `registry.${DOMAIN}/storageClass/${tabular ? 'tabular' : 'raw'}`,
      maintainer: { contact: 'Bob <bob@example.org>', organisation: 'Ocean Org' },
      tags: ['sst', `d${n % 7}`],
      facets: { region: n % 3 === 0 ? 'north' : 'south' },
      ...(over.collection ? { data_collection: `catalog.${DOMAIN}/dataCollection/${over.collection}` } : {}),
    },
    status: status(over.created ?? Date.UTC(2024, 1, 1) + n * 1000),
  };
}

/** A static-geometric-coverage observable of dataset `datasetName`. */
export function footprint(n: number, datasetName: string, geometry: unknown): Resource {
  return observable(n, datasetName, 'static-geometric-coverage', { attribute: 'geometry', value: geometry });
}

/** A static-coverage observable on a time attribute: [start, end] ISO strings. */
export function timeCoverage(n: number, datasetName: string, start: string, end: string): Resource {
  return observable(n, datasetName, 'static-coverage', { attribute: 'time', value: [start, end] });
}

/** A box polygon. */
export function boxPolygon(w: number, s: number, e: number, n: number): unknown {
  return { type: 'Polygon', coordinates: [[[w, s], [e, s], [e, n], [w, n], [w, s]]] };
}

function observable(n: number, datasetName: string, cls: string, details: Record<string, unknown>): Resource {
  return {
    kind: `catalog.${DOMAIN}/observable`,
    version: 'v1alpha2',
    metadata: { name: `obs-${cls}-${n}`, uuid: uuid(n, cls === 'static-coverage' ? 4 : 3) },
    spec: { ref: `catalog.${DOMAIN}/dataset/${datasetName}`, observable_class: `catalog.${DOMAIN}/observableClass/${cls}`, details },
    status: status(Date.UTC(2024, 2, 1) + n * 1000),
  };
}

/** A seeded PRNG (mulberry32): same seed, same sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A seeded catalog: `collections` collections and `datasets` datasets, each with a random box footprint
 * (1-10 degrees) and a time coverage within 2000-2024. Used by tests and the benchmark.
 */
export function seededCatalog(datasets: number, collections: number, seed: number): Resource[] {
  const rnd = mulberry32(seed);
  const out: Resource[] = [];
  for (let c = 0; c < collections; c++) out.push(collection(c));
  for (let i = 0; i < datasets; i++) {
    const d = dataset(i, { collection: `collection-${i % collections}` });
    const w = -180 + rnd() * 350;
    const s = -90 + rnd() * 170;
    const size = 1 + rnd() * 9;
    const start = Date.UTC(2000, 0, 1) + rnd() * 24 * 365 * 86_400_000;
    const end = start + rnd() * 365 * 86_400_000;
    out.push(d, footprint(i, d.metadata.name, boxPolygon(round(w), round(s), round(Math.min(180, w + size)), round(Math.min(90, s + size)))));
    out.push(timeCoverage(i, d.metadata.name, new Date(start).toISOString(), new Date(end).toISOString()));
  }
  return out;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
