// Validation of `spec` per resource type: storage pairs, maintainer, references, observable details.
import { featureProblem, geometryProblem, toGeometry } from '../../geometry/geojson.js';
import { validityProblem } from '../../geometry/validity.js';
import type { Kinds, ResourceType } from '../kinds.js';
import { invalid, isObject, object, optionalString, show, string, stringArray, stringMap } from './check.js';
import { NAME } from './common.js';

/** Whether a resource of `kind` named `name` exists (references must point at existing resources). */
export type Exists = (kind: string, name: string) => boolean;

/** Checks `spec` of a resource type; throws a 400 naming the field. */
export function validateSpec(type: ResourceType, spec: Record<string, unknown>, kinds: Kinds, exists: Exists): void {
  validators[type](spec, kinds, exists);
  coverageValidity(spec);
}

const validators: Record<ResourceType, (spec: Record<string, unknown>, kinds: Kinds, exists: Exists) => void> = {
  dataset: (spec, kinds, exists) => {
    const controller = string(spec.storage_controller, 'spec.storage_controller');
    const klass = string(spec.storage_class, 'spec.storage_class');
    const pairs: Record<string, string> = { [kinds.rawController]: kinds.rawClass, [kinds.tabularController]: kinds.tabularClass };
    const expected = pairs[controller];
    if (!expected) throw invalid('spec.storage_controller', `unknown storage controller ${show(controller)}; expected ${Object.keys(pairs).join(' or ')}`);
    if (klass !== expected) throw invalid('spec.storage_class', `storage controller ${controller} goes with storage class ${expected}, got ${show(klass)}`);
    contact(spec.maintainer, 'spec.maintainer', true);
    stringArray(spec.tags, 'spec.tags');
    stringMap(spec.facets, 'spec.facets');
    if (spec.attributes !== undefined && spec.attributes !== null) {
      if (!Array.isArray(spec.attributes)) throw invalid('spec.attributes', 'expected an array of {name, description, traits}');
      spec.attributes.forEach((a, i) => string(object(a, `spec.attributes[${i}]`).name, `spec.attributes[${i}].name`));
    }
    if (spec.data_collection !== undefined && spec.data_collection !== null) {
      reference(spec.data_collection, 'spec.data_collection', kinds.dataCollection, exists);
    }
  },
  dataCollection: (spec) => {
    if (spec.published_by !== undefined) contact(spec.published_by, 'spec.published_by', false);
    if (spec.published_date !== undefined && spec.published_date !== null) {
      const d = string(spec.published_date, 'spec.published_date');
      if (!isLocalDateTime(d)) throw invalid('spec.published_date', `expected an ISO 8601 date-time without zone such as 2024-05-01T12:00:00, got ${show(d)}`);
    }
    optionalString(spec.website, 'spec.website');
    if (spec.license !== undefined && spec.license !== null) {
      const l = object(spec.license, 'spec.license');
      for (const k of ['name', 'full_text', 'href']) optionalString(l[k], `spec.license.${k}`);
    }
    stringArray(spec.tags, 'spec.tags');
    stringMap(spec.facets, 'spec.facets');
  },
  observable: (spec, kinds, exists) => {
    reference(spec.ref, 'spec.ref', kinds.dataset, exists);
    const klass = string(spec.observable_class, 'spec.observable_class');
    const details = object(spec.details, 'spec.details');
    if (details.attribute !== undefined && details.attribute !== null) string(details.attribute, 'spec.details.attribute');
    if (klass === kinds.staticCoverage) return range(details.value, 'spec.details.value');
    if (klass === kinds.staticGeometricCoverage) {
      const v = details.value;
      const problem = isObject(v) && v.type === 'Feature' ? featureProblem(v) : geometryProblem(v);
      if (problem) throw invalid('spec.details.value', `expected a GeoJSON geometry: ${problem}`);
      return;
    }
    throw invalid('spec.observable_class', `unknown observable class ${show(klass)}; expected ${kinds.staticCoverage} or ${kinds.staticGeometricCoverage}`);
  },
};

/**
 * The catalog reads `spec.details.value` of any resource as a geometry where it is one (spatial index, OQS
 * spatial filters); jsts cannot compare an invalid one (a self-intersecting ring …), so it is refused.
 */
function coverageValidity(spec: Record<string, unknown>): void {
  if (!isObject(spec.details)) return;
  const value = spec.details.value;
  const g = toGeometry(value);
  const problem = g && validityProblem(g);
  if (problem) throw invalid(isObject(value) && value.type === 'Feature' ? 'spec.details.value.geometry' : 'spec.details.value', problem);
}

function contact(v: unknown, field: string, required: boolean): void {
  if (v === undefined || v === null) {
    if (required) throw invalid(field, 'required: {contact: "<name> <email>", organisation: "…"}');
    return;
  }
  const o = object(v, field);
  optionalString(o.contact, `${field}.contact`);
  optionalString(o.organisation, `${field}.organisation`);
  if (required && o.contact === undefined && o.organisation === undefined) throw invalid(field, 'needs a contact or an organisation');
}

function reference(v: unknown, field: string, kind: string, exists: Exists): void {
  const ref = string(v, field);
  const prefix = `${kind}/`;
  const name = ref.startsWith(prefix) ? ref.slice(prefix.length) : undefined;
  if (name === undefined || !NAME.test(name)) throw invalid(field, `expected a reference ${prefix}<name>, got ${show(ref)}`);
  if (!exists(kind, name)) throw invalid(field, `${ref} does not exist`);
}

function range(v: unknown, field: string): void {
  if (!Array.isArray(v) || v.length !== 2) throw invalid(field, `static coverage is a [min, max] pair, got ${show(v)}`);
  const [a, b] = v as unknown[];
  const numbers = typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b);
  const strings = typeof a === 'string' && typeof b === 'string';
  if (!numbers && !strings) throw invalid(field, `[min, max] must be two finite numbers or two strings (e.g. ISO times), got ${show(v)}`);
  if ((a as number | string) > (b as number | string)) throw invalid(field, `min ${show(a)} is greater than max ${show(b)}`);
}

function isLocalDateTime(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?$/.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h < 24 && mi < 60 && se < 60;
}
