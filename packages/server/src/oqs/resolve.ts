// Reading a field path out of a JSON object, and the geometry a value stands for (cached).
import { toGeometry } from '../geometry/geojson.js';
import type { Geom } from '../geometry/jsts.js';

/**
 * The value at `path` in `obj`, or undefined. A trailing `geometry` segment on a GeoJSON geometry
 * resolves to the geometry itself, so `$spec.details.value.geometry` works whether `value` is a
 * geometry or a Feature.
 */
export function resolvePath(obj: unknown, path: readonly string[]): unknown {
  let cur = obj;
  for (const seg of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    const next = Object.hasOwn(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined;
    if (next === undefined && seg === 'geometry' && typeof (cur as { type?: unknown }).type === 'string' && (cur as { type: string }).type !== 'Feature') continue;
    cur = next;
  }
  return cur;
}

const objectGeoms = new WeakMap<object, Geom | null>();
const textGeoms = new Map<string, Geom | null>();
const TEXT_CACHE = 10_000;

/** The geometry of a GeoJSON geometry/Feature or WKT value (memoised per object), or undefined. */
export function geometryOf(v: unknown): Geom | undefined {
  if (typeof v === 'object' && v !== null) {
    let g = objectGeoms.get(v);
    if (g === undefined) {
      g = toGeometry(v) ?? null;
      objectGeoms.set(v, g);
    }
    return g ?? undefined;
  }
  if (typeof v !== 'string') return undefined;
  let g = textGeoms.get(v);
  if (g === undefined) {
    g = toGeometry(v) ?? null;
    if (textGeoms.size >= TEXT_CACHE) textGeoms.clear();
    textGeoms.set(v, g);
  }
  return g ?? undefined;
}
