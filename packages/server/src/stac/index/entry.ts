// A dataset as the search index holds it: order key, footprint, time interval, collection reference.
import { asMultiPart, boxOf, checkGeometry, toJsts, type Box, type GeoJsonGeometry } from '../geometry.js';
import type { Kinds } from '../kinds.js';
import type { Resource } from '../source.js';
import { parseCatalogTime } from '../time.js';
import type Geometry from 'jsts/org/locationtech/jts/geom/Geometry.js';

/** Time coverage of a dataset from a static-coverage observable on a time attribute (epoch ms). */
export interface TimeCoverage {
  readonly start: number;
  readonly end: number;
  readonly attribute: string;
}

/**
 * The indexed view of one dataset. Invariant: rebuilt (a new object) whenever the dataset or one of its
 * observables changes, so derived caches hang off it safely.
 */
export interface DatasetEntry {
  readonly uuid: string;
  readonly name: string;
  readonly resource: Resource;
  /** Epoch ms of `status.created_time` (0 when missing): with uuid, the stable paging order. */
  readonly created: number;
  readonly updated: number;
  /** Name of the data collection it references (`spec.data_collection`), resolved to a uuid on output. */
  readonly collectionName: string | undefined;
  readonly geometry: GeoJsonGeometry | null;
  readonly box: Box | undefined;
  readonly coverage: TimeCoverage | undefined;
  /** Inclusive time interval searched by `datetime`: the coverage, else the creation instant. */
  readonly start: number;
  readonly end: number;
  /** The jsts geometry, built on first exact test. */
  jsts(): Geometry | undefined;
}

/**
 * Builds the entry of `dataset` from its observables (the newest of each class wins).
 * @example
 * const e = datasetEntry(kinds, dataset, observablesOfDataset);
 */
export function datasetEntry(kinds: Kinds, dataset: Resource, observables: Iterable<Resource>): DatasetEntry {
  const newestFirst = [...observables].sort((a, b) => timeOf(b.status.updated_time) - timeOf(a.status.updated_time));
  const geometry = newestFirst.map((o) => geometryOf(kinds, o)).find((g) => g !== undefined) ?? null;
  const coverage = newestFirst.map((o) => coverageOf(kinds, o)).find((c) => c !== undefined);
  const created = timeOf(dataset.status.created_time);
  let shape: Geometry | undefined;
  return {
    uuid: dataset.metadata.uuid,
    name: dataset.metadata.name,
    resource: dataset,
    created,
    updated: timeOf(dataset.status.updated_time),
    collectionName: kinds.collectionRef(dataset.spec['data_collection']),
    geometry,
    box: geometry ? boxOf(geometry) : undefined,
    coverage,
    start: coverage?.start ?? created,
    end: coverage?.end ?? created,
    jsts: () => (geometry ? (shape ??= toJsts(geometry)) : undefined),
  };
}

function geometryOf(kinds: Kinds, o: Resource): GeoJsonGeometry | undefined {
  if (o.spec['observable_class'] !== kinds.geometricCoverage) return undefined;
  const details = o.spec['details'] as { value?: unknown } | undefined;
  let value = details?.value as { type?: unknown; geometry?: unknown } | undefined;
  // catalog filters address `details.value.geometry`: accept a Feature-like wrapper as well as a bare geometry
  if (value && value.type !== undefined && value.type === 'Feature') value = value.geometry as typeof value;
  else if (value && value.type === undefined && value.geometry !== undefined) value = value.geometry as typeof value;
  if (checkGeometry(value, false) !== undefined) return undefined;
  const g = asMultiPart(value as GeoJsonGeometry);
  return boxOf(g) ? g : undefined;
}

function coverageOf(kinds: Kinds, o: Resource): TimeCoverage | undefined {
  if (o.spec['observable_class'] !== kinds.coverage) return undefined;
  const details = o.spec['details'] as { value?: unknown; attribute?: unknown } | undefined;
  const value = details?.value;
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const start = parseCatalogTime(value[0]);
  const end = parseCatalogTime(value[1]);
  if (start === undefined || end === undefined || end < start) return undefined;
  return { start, end, attribute: typeof details?.attribute === 'string' ? details.attribute : '' };
}

function timeOf(text: string | undefined): number {
  return parseCatalogTime(text) ?? 0;
}
