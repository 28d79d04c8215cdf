// Field metadata of a tabular v2 schema: parsed, validated, obsolete keys mapped, and a typed view.
import type { DataType, Field } from 'apache-arrow';
import { HaloclineError } from '../errors.js';
import { typeName } from './types.js';

/** A default aggregation for a column. */
export type Aggr = 'sum' | 'count' | 'avg' | 'min' | 'max';

/** The typed view of a field's metadata (see the "Tabular schema" table of the spec). */
export interface FieldInfo {
  /** The column partitions data dynamically (`index` key). */
  readonly index: boolean;
  readonly aggr?: Aggr;
  /** `geometry`, `latitude`, `longitude`, or an experimental class kept as given. */
  readonly class?: string;
  readonly description?: string;
  /** UCUM unit, e.g. `m`, `Cel`. */
  readonly unit?: string;
  readonly ingestName?: string;
  readonly prevName?: string;
}

/**
 * The typed view of a field's metadata; throws InvalidSchema when the metadata is invalid.
 * @example
 * fieldInfo(schema.fields[0]!).index // true when the field carries index: "true"
 */
export function fieldInfo(field: Field, ctx: { table?: string } = {}): FieldInfo {
  const cached = infoCache.get(field);
  if (cached) return cached;
  const { info } = parseFieldMetadata(field, ctx);
  infoCache.set(field, info);
  return info;
}

/**
 * A field's metadata normalised: known keys validated and canonical (`index` → "true",
 * `aggr: mean` → "avg", known classes lower-case), obsolete keys mapped to their successors
 * (`isGeometry`/`isLat`/`isLon` → `class`, `big` dropped), unknown keys kept untouched.
 * Throws InvalidSchema naming the column.
 */
export function normalizeMetadata(field: Field, ctx: { table?: string } = {}): Map<string, string> {
  return parseFieldMetadata(field, ctx).metadata;
}

const infoCache = new WeakMap<Field, FieldInfo>();
const aggrs = new Map<string, Aggr>([
  ['sum', 'sum'],
  ['count', 'count'],
  ['avg', 'avg'],
  ['mean', 'avg'],
  ['min', 'min'],
  ['max', 'max'],
]);
const obsoleteClass = new Map([
  ['isGeometry', 'geometry'],
  ['isLat', 'latitude'],
  ['isLon', 'longitude'],
]);
const classTypes = new Map<string, { names: readonly string[]; say: string }>([
  ['geometry', { names: ['utf8', 'largeutf8', 'binary', 'largebinary'], say: 'utf8/largeutf8 (WKT) or binary/largebinary (WKB)' }],
  ['latitude', { names: ['float32', 'float64'], say: 'float32 or float64' }],
  ['longitude', { names: ['float32', 'float64'], say: 'float32 or float64' }],
]);

function parseFieldMetadata(field: Field, ctx: { table?: string }): { metadata: Map<string, string>; info: FieldInfo } {
  const fail = (message: string, value?: unknown): never => {
    throw new HaloclineError('InvalidSchema', `column "${field.name}": ${message}`, { ...ctx, column: field.name, value });
  };
  const entries = [...(field.metadata ?? new Map<string, string>())];
  for (const [k, v] of entries) {
    if (typeof k !== 'string' || typeof v !== 'string') fail(`metadata keys and values must be strings, got ${typeof k} key ${String(k)}`, v);
  }
  // resolve the class: explicit `class`, or one implied by an obsolete flag
  const explicit = field.metadata?.get('class');
  let klass = explicit === undefined ? undefined : canonicalClass(explicit, fail);
  let impliedBy: string | undefined;
  for (const [k, v] of entries) {
    const implied = obsoleteClass.get(k);
    if (implied === undefined) continue;
    const set = flag(v);
    if (set === null) fail(`${k} must be "true" or "false", got "${v}"`, v);
    if (!set) continue;
    if (klass !== undefined && klass !== implied) fail(`obsolete ${k} implies class ${implied}, which conflicts with class "${klass}"`, v);
    klass = implied;
    impliedBy ??= k;
  }
  if (klass !== undefined) checkClassType(klass, field.type, fail);
  // rebuild the map in the original key order
  const out = new Map<string, string>();
  const info: { -readonly [K in keyof FieldInfo]: FieldInfo[K] } = { index: false };
  if (klass !== undefined) info.class = klass;
  for (const [k, v] of entries) {
    switch (k) {
      case 'index':
        if (flag(v) !== true) fail(`index must be "true" (or "1", "yes", ""), got "${v}"; remove the key to leave the column unindexed`, v);
        out.set(k, 'true');
        info.index = true;
        break;
      case 'aggr': {
        const a = aggrs.get(v.trim().toLowerCase());
        if (a === undefined) fail(`aggr must be one of sum, count, avg, min, max, got "${v}"`, v);
        out.set(k, (info.aggr = a!));
        break;
      }
      case 'class':
        out.set(k, klass!);
        break;
      case 'isGeometry':
      case 'isLat':
      case 'isLon':
        if (k === impliedBy && explicit === undefined) out.set('class', klass!);
        break;
      case 'big':
        break;
      case 'unit':
        if (v.trim() === '') fail('unit must be a non-empty UCUM unit such as "m" or "Cel"', v);
        out.set(k, (info.unit = v));
        break;
      case 'ingest_name':
      case 'prev_name':
        if (v === '') fail(`${k} must be a non-empty column name`, v);
        out.set(k, v);
        if (k === 'ingest_name') info.ingestName = v;
        else info.prevName = v;
        break;
      case 'description':
        out.set(k, (info.description = v));
        break;
      default:
        out.set(k, v);
    }
  }
  return { metadata: out, info };
}

// A marker value: true for "true", "1", "yes" or "" (any case), false for "false", "0", "no", else null.
function flag(v: string): boolean | null {
  const s = v.trim().toLowerCase();
  if (s === 'true' || s === '1' || s === 'yes' || s === '') return true;
  if (s === 'false' || s === '0' || s === 'no') return false;
  return null;
}

function canonicalClass(v: string, fail: (m: string, v?: unknown) => never): string {
  if (v.trim() === '') fail('class must not be empty', v);
  const lower = v.trim().toLowerCase();
  return classTypes.has(lower) ? lower : v;
}

function checkClassType(klass: string, type: DataType, fail: (m: string, v?: unknown) => never): void {
  const need = classTypes.get(klass);
  if (need && !need.names.includes(typeName(type))) fail(`class ${klass} requires ${need.say}, got ${typeName(type)}`, klass);
}
