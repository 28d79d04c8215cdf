// Seeds a server's catalog with datasets, each with a static-geometric-coverage observable (seeded boxes).
import type { HaloclineApp } from '@halocline/server';
import { mulberry32 } from '../generate.js';

/** A GeoJSON polygon box. */
export function box(x: number, y: number, w: number, h: number) {
  return { type: 'Polygon', coordinates: [[[x, y], [x + w, y], [x + w, y + h], [x, y + h], [x, y]]] };
}

/**
 * `n` raw datasets and one geometric-coverage observable each (boxes of 0.5–3° somewhere in the
 * North Atlantic, seeded), written through the catalog store in concurrent chunks.
 */
export async function seedCatalog(app: HaloclineApp, n: number, seed: number): Promise<void> {
  const { catalog, kinds } = app.halocline;
  const rand = mulberry32(seed);
  const chunk = 500;
  for (let start = 0; start < n; start += chunk) {
    const ids = Array.from({ length: Math.min(chunk, n - start) }, (_, i) => start + i);
    await Promise.all(ids.map((i) => catalog.create({
      kind: kinds.dataset,
      version: 'v1alpha3',
      metadata: { name: `ds-${i}` },
      spec: { storage_controller: kinds.rawController, storage_class: kinds.rawClass, maintainer: { contact: 'Bench <b@example.org>' } },
    }, 'bench')));
    await Promise.all(ids.map((i) => catalog.create({
      kind: kinds.observable,
      version: 'v1alpha2',
      metadata: { name: `cov-${i}` },
      spec: {
        ref: `${kinds.dataset}/ds-${i}`,
        observable_class: kinds.staticGeometricCoverage,
        details: { attribute: 'location', value: box(-60 + rand() * 70, 20 + rand() * 50, 0.5 + rand() * 2.5, 0.5 + rand() * 2.5) },
      },
    }, 'bench')));
  }
}
