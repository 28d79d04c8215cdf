// Offline validation of STAC API responses: the STAC v1.0.0 JSON schemas, the STAC API v1.0.0 OpenAPI
// components and the GeoJSON schemas, all preloaded (a missing $ref fails compilation; nothing is fetched).
import Ajv, { type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The documents a STAC API serves. */
export type DocumentKind = 'landing' | 'conformance' | 'collections' | 'collection' | 'item' | 'itemCollection' | 'exception';

const here = dirname(fileURLToPath(import.meta.url));
const spec = join(here, 'stac-v1.0.0');
const API_BASE = 'https://api.stacspec.invalid/v1.0.0/';

const ajv = new Ajv.default({ strict: false, allErrors: true });
(addFormatsModule as unknown as { default: (a: Ajv.default) => void }).default(ajv);
// ajv-formats has no IRI formats: an IRI parses as an absolute URL, an IRI reference relative to any base
ajv.addFormat('iri', { validate: (s: string) => URL.canParse(s) });
ajv.addFormat('iri-reference', { validate: (s: string) => URL.canParse(s, 'http://base.invalid/') });
for (const dir of ['item-spec', 'catalog-spec', 'collection-spec']) {
  const d = join(spec, 'schemas', dir, 'json-schema');
  for (const f of readdirSync(d)) ajv.addSchema(JSON.parse(readFileSync(join(d, f), 'utf8')));
}
const geojson = dirname(createRequire(import.meta.url).resolve('geojson-schema/Feature.json'));
for (const f of readdirSync(geojson).filter((f) => f.endsWith('.json') && f !== 'package.json')) {
  ajv.addSchema(JSON.parse(readFileSync(join(geojson, f), 'utf8')));
}
for (const f of ['core/commons.yaml', 'core/openapi.yaml', 'item-search/openapi.yaml', 'fragments/itemcollection/openapi.yaml']) {
  ajv.addSchema(parse(readFileSync(join(spec, 'api', f), 'utf8')), `${API_BASE}${f}`);
}
const component = (file: string, name: string) => ajv.compile({ $ref: `${API_BASE}${file}#/components/schemas/${name}` });
const stac = (path: string) => ajv.getSchema(`https://schemas.stacspec.org/v1.0.0/${path}#`)!;

// The API's OpenAPI `item` component requires a geometry and a bbox; the normative item JSON schema allows a
// null geometry (without bbox), which datasets without a footprint have. Null-geometry items are checked
// against the item JSON schema only; everything else against both.
const itemApi = component('core/commons.yaml', 'item');
const itemCollectionApi = parse(readFileSync(join(spec, 'api/fragments/itemcollection/openapi.yaml'), 'utf8')).components.schemas.itemCollection;
itemCollectionApi.properties.features.items = { $ref: 'https://schemas.stacspec.org/v1.0.0/item-spec/json-schema/item.json#' };
itemCollectionApi.properties.links.items = { $ref: `${API_BASE}core/commons.yaml#/components/schemas/link` };

const validators: Record<DocumentKind, ValidateFunction[]> = {
  landing: [stac('catalog-spec/json-schema/catalog.json'), component('core/openapi.yaml', 'landingPage')],
  conformance: [component('core/commons.yaml', 'conformanceClasses')],
  collection: [stac('collection-spec/json-schema/collection.json'), component('core/commons.yaml', 'collection')],
  collections: [ajv.compile({ type: 'object', required: ['collections', 'links'], properties: { collections: { type: 'array', items: { $ref: 'https://schemas.stacspec.org/v1.0.0/collection-spec/json-schema/collection.json#' } }, links: { $ref: `${API_BASE}core/commons.yaml#/components/schemas/links` } } })],
  item: [stac('item-spec/json-schema/item.json')],
  itemCollection: [ajv.compile(itemCollectionApi)],
  exception: [component('core/commons.yaml', 'exception')],
};

/**
 * Throws with the schema errors when `doc` is not a valid document of `kind`.
 * @example
 * assertValid('item', JSON.parse(res.body));
 */
export function assertValid(kind: DocumentKind, doc: unknown): void {
  const extra = kind === 'item' && (doc as { geometry?: unknown }).geometry !== null ? [itemApi] : [];
  for (const v of [...validators[kind], ...extra]) {
    if (!v(doc)) throw new Error(`${kind} invalid: ${ajv.errorsText(v.errors, { separator: '\n' })}\n${JSON.stringify(doc).slice(0, 800)}`);
  }
}
