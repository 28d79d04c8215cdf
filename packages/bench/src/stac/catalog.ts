// A seeded STAC benchmark catalog: datasets with box footprints and time coverages, in collections.
import type { StacResource as Resource } from '@halocline/server';
import { mulberry32 } from '../generate.js';

/** One dataset's searchable facts, as loaded into the DuckDB baseline. */
export interface DatasetRow {
  readonly id: string;
  readonly created: number;
  readonly box: readonly [number, number, number, number];
  readonly start: number;
  readonly end: number;
}

/** The manifests for the STAC plugin and the same facts as rows for the baseline. */
export interface BenchCatalog {
  readonly resources: Resource[];
  readonly rows: DatasetRow[];
}

const T0 = Date.UTC(2000, 0, 1);
const YEAR = 365 * 86_400_000;

/**
 * `datasets` datasets in `collections` collections; footprints 1-10 degrees, coverages up to a year within 2000-2024.
 * @example
 * const { resources, rows } = benchCatalog(100_000, 100, 42);
 */
export function benchCatalog(datasets: number, collections: number, seed: number): BenchCatalog {
  const rnd = mulberry32(seed);
  const resources: Resource[] = [];
  const rows: DatasetRow[] = [];
  for (let c = 0; c < collections; c++) resources.push(manifest('dataCollection', `collection-${c}`, id(c, 2), T0, { license: { name: 'CC-BY-4.0', href: 'https://creativecommons.org/licenses/by/4.0/' }, tags: [] }));
  for (let i = 0; i < datasets; i++) {
    const name = `dataset-${i}`;
    const created = Date.UTC(2024, 0, 1) + Math.floor(i / 4) * 1000;
    const size = 1 + rnd() * 9;
    const w = round(-180 + rnd() * (360 - size));
    const s = round(-90 + rnd() * (180 - size));
    const box = [w, s, round(w + size), round(s + size)] as const;
    const start = Math.floor(T0 + rnd() * 24 * YEAR);
    const end = Math.floor(start + rnd() * YEAR);
    rows.push({ id: id(i, 1), created, box, start, end });
    resources.push(manifest('dataset', name, id(i, 1), created, {
      storage_controller: 'registry.example.io/storageController/storage-tabular',
      storage_class: 'registry.example.io/storageClass/tabular',
      maintainer: { contact: 'Bench <bench@example.org>', organisation: 'Bench' },
      tags: ['bench'],
      data_collection: `catalog.example.io/dataCollection/collection-${i % collections}`,
    }));
    resources.push(manifest('observable', `${name}-footprint`, id(i, 3), created, {
      ref: `catalog.example.io/dataset/${name}`, observable_class: 'catalog.example.io/observableClass/static-geometric-coverage',
      details: { attribute: 'geometry', value: { type: 'Polygon', coordinates: [[[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]], [box[0], box[1]]]] } },
    }));
    resources.push(manifest('observable', `${name}-time`, id(i, 4), created, {
      ref: `catalog.example.io/dataset/${name}`, observable_class: 'catalog.example.io/observableClass/static-coverage',
      details: { attribute: 'time', value: [new Date(start).toISOString(), new Date(end).toISOString()] },
    }));
  }
  return { resources, rows };
}

/** `n` seeded search bodies: a 20-degree bbox and a one-year datetime interval each. */
export function benchQueries(n: number, seed: number): { bbox: [number, number, number, number]; datetime: string; start: number; end: number }[] {
  const rnd = mulberry32(seed + 1);
  return Array.from({ length: n }, () => {
    const w = Math.floor(-180 + rnd() * 340);
    const s = Math.floor(-90 + rnd() * 160);
    const start = Math.floor(T0 + rnd() * 23 * YEAR);
    const end = start + YEAR;
    return { bbox: [w, s, w + 20, s + 20], datetime: `${new Date(start).toISOString()}/${new Date(end).toISOString()}`, start, end };
  });
}

function manifest(type: string, name: string, uuid: string, created: number, spec: Record<string, unknown>): Resource {
  const t = new Date(created).toISOString();
  return {
    kind: `catalog.example.io/${type}`, version: type === 'dataset' ? 'v1alpha3' : type === 'observable' ? 'v1alpha2' : 'v1alpha1',
    metadata: { name, uuid }, spec,
    status: { num_updates: 0, created_by: 'bench', created_time: t, updated_by: 'bench', updated_time: t },
  };
}

function id(n: number, tag: number): string {
  return `0000000${tag}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
