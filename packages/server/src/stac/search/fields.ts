// The fields extension: include/exclude dotted paths of the returned items.
import { invalid } from '../errors.js';

/** Paths to keep and to drop, like `properties.title`. */
export interface FieldsSpec {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

/**
 * Parses `fields=id,-geometry` (GET, or a POST string) or `{include, exclude}` (POST).
 * @example
 * parseFields('id,properties.datetime,-links') // {include:['id','properties.datetime'], exclude:['links']}
 */
export function parseFields(value: unknown): FieldsSpec {
  if (typeof value === 'string') {
    const parts = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
    return { include: parts.filter((p) => !p.startsWith('-')).map((p) => p.replace(/^\+/, '')), exclude: parts.filter((p) => p.startsWith('-')).map((p) => p.slice(1)) };
  }
  const o = value as { include?: unknown; exclude?: unknown } | null;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw invalid('fields', `must be {include, exclude} or a string like "id,-geometry", got ${JSON.stringify(value)}`);
  const list = (v: unknown, name: string): string[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw invalid('fields', `${name} must be an array of strings`);
    return v;
  };
  return { include: list(o.include, 'include'), exclude: list(o.exclude, 'exclude') };
}

/**
 * Applies a fields spec to an item: with includes, only those paths (and `type`, `id`, which keep it a
 * Feature) remain; excludes then remove paths, except a path also included (include wins).
 */
export function applyFields(item: Record<string, unknown>, spec: FieldsSpec): Record<string, unknown> {
  let out: Record<string, unknown> = item;
  if (spec.include.length > 0) {
    out = { type: item['type'], id: item['id'] };
    for (const path of spec.include) copyPath(item, out, path.split('.'));
  }
  for (const path of spec.exclude) if (!spec.include.includes(path) && path !== 'id' && path !== 'type') out = dropPath(out, path.split('.'));
  return out;
}

function copyPath(from: Record<string, unknown>, to: Record<string, unknown>, path: string[]): void {
  const [head, ...rest] = path as [string, ...string[]];
  if (!(head in from)) return;
  const v = from[head];
  if (rest.length === 0) { to[head] = v; return; }
  if (to[head] === v) return; // the whole object is already included
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return;
  const target = (typeof to[head] === 'object' && to[head] !== null ? to[head] : (to[head] = {})) as Record<string, unknown>;
  copyPath(v as Record<string, unknown>, target, rest);
}

// returns a copy without the path (items are shared cache objects: never mutate them)
function dropPath(obj: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  if (!(head in obj)) return obj;
  const copy = { ...obj };
  if (rest.length === 0) delete copy[head];
  else if (typeof obj[head] === 'object' && obj[head] !== null && !Array.isArray(obj[head])) copy[head] = dropPath(obj[head] as Record<string, unknown>, rest);
  return copy;
}
