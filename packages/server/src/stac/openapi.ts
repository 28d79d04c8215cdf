// The OpenAPI 3.0 description of the STAC routes (service-desc) and a small HTML rendering (service-doc).
import { STAC_PREFIX } from './urls.js';

type Json = Record<string, unknown>;

const query = (name: string, description: string, schema: Json = { type: 'string' }): Json => ({ name, in: 'query', required: false, description, schema });
const path = (name: string, description: string): Json => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
const ok = (type: string, description: string): Json => ({
  200: { description, content: { [type]: { schema: { type: 'object' } } } },
  400: { $ref: '#/components/responses/Error' },
});
const found = (type: string, description: string): Json => ({ ...ok(type, description), 404: { $ref: '#/components/responses/Error' } });

const PAGING = [
  query('limit', 'Page size: default 10, at most 10000 (larger values are clamped); < 1 is an error', { type: 'integer', minimum: 1 }),
  query('offset', 'Matches to skip', { type: 'integer', minimum: 0 }),
];
const SEARCH = [
  query('bbox', 'w,s,e,n or w,s,zmin,e,n,zmax; w > e crosses the antimeridian'),
  query('datetime', 'RFC 3339 instant or interval a/b with open ends (.. or empty)'),
  ...PAGING,
  query('token', 'Continuation token from a next or prev link'),
  query('filter', 'CQL2 filter (text by default)'),
  query('filter-lang', 'cql2-text or cql2-json', { type: 'string', enum: ['cql2-text', 'cql2-json'] }),
  query('filter-crs', 'Only http://www.opengis.net/def/crs/OGC/1.3/CRS84'),
  query('sortby', 'Fields, comma-separated, each with an optional + or - prefix'),
  query('fields', 'Fields to include, comma-separated; a - prefix excludes'),
];

/** The OpenAPI document; server URL `base`. */
export function openApiDocument(base: string, title: string): Json {
  const p = STAC_PREFIX;
  return {
    openapi: '3.0.3',
    info: { title, version: '1.0.0', description: 'STAC API v1.0.0 over the Halocline catalog: data collections as collections, datasets as items.' },
    servers: [{ url: base }],
    paths: {
      [p]: { get: { summary: 'Landing page', responses: ok('application/json', 'STAC catalog with conformsTo and links') } },
      [`${p}/conformance`]: { get: { summary: 'Conformance classes', responses: ok('application/json', '{conformsTo}') } },
      [`${p}/queryables`]: { get: { summary: 'Properties a filter or sortby may name', responses: ok('application/schema+json', 'JSON Schema') } },
      [`${p}/collections`]: { get: { summary: 'Data collections', parameters: PAGING, responses: ok('application/json', '{collections, links}') } },
      [`${p}/collections/{collectionId}`]: { get: { summary: 'One collection by UUID, name or title', parameters: [path('collectionId', 'UUID, name or title')], responses: found('application/json', 'STAC collection') } },
      [`${p}/collections/{collectionId}/queryables`]: { get: { summary: 'Properties a filter or sortby on the collection\'s items may name', parameters: [path('collectionId', 'UUID, name or title')], responses: found('application/schema+json', 'JSON Schema') } },
      [`${p}/collections/{collectionId}/items`]: { get: { summary: 'Items of a collection', parameters: [path('collectionId', 'UUID, name or title'), ...SEARCH], responses: found('application/geo+json', 'Item collection') } },
      [`${p}/collections/{collectionId}/items/{itemId}`]: { get: { summary: 'One item of a collection', parameters: [path('collectionId', 'UUID, name or title'), path('itemId', 'Dataset UUID')], responses: found('application/geo+json', 'STAC item') } },
      [`${p}/items/{itemId}`]: { get: { summary: 'One item', parameters: [path('itemId', 'Dataset UUID')], responses: found('application/geo+json', 'STAC item') } },
      [`${p}/search`]: {
        get: { summary: 'Search items', parameters: [query('collections', 'Collection UUIDs, comma-separated'), query('ids', 'Item ids, comma-separated'), query('intersects', 'GeoJSON geometry (JSON text)'), ...SEARCH], responses: ok('application/geo+json', 'Item collection') },
        post: {
          summary: 'Search items',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Search' } }, 'application/geo+json': { schema: { $ref: '#/components/schemas/Search' } } } },
          responses: ok('application/geo+json', 'Item collection'),
        },
      },
    },
    components: {
      schemas: {
        Error: { type: 'object', required: ['code', 'description'], properties: { code: { type: 'string' }, description: { type: 'string' } } },
        Search: {
          type: 'object',
          properties: {
            collections: { oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] },
            ids: { oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] },
            bbox: { oneOf: [{ type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 6 }, { type: 'string' }] },
            intersects: { type: 'object', description: 'GeoJSON geometry' },
            datetime: { type: 'string' },
            limit: { type: 'integer', minimum: 1 },
            offset: { type: 'integer', minimum: 0 },
            token: { type: 'string' },
            filter: { oneOf: [{ type: 'object' }, { type: 'string' }] },
            'filter-lang': { type: 'string', enum: ['cql2-text', 'cql2-json'] },
            sortby: { oneOf: [{ type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, direction: { type: 'string', enum: ['asc', 'desc'] } } } }, { type: 'string' }] },
            fields: { type: 'object', properties: { include: { type: 'array', items: { type: 'string' } }, exclude: { type: 'array', items: { type: 'string' } } } },
          },
        },
      },
      responses: { Error: { description: 'Bad request or not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } },
    },
  };
}

/** A plain HTML page listing the operations of the document. */
export function serviceDocHtml(doc: Json): string {
  const rows: string[] = [];
  for (const [route, ops] of Object.entries(doc['paths'] as Record<string, Record<string, { summary: string }>>)) {
    for (const [method, op] of Object.entries(ops)) rows.push(`<tr><td>${method.toUpperCase()}</td><td><code>${escape(route)}</code></td><td>${escape(op.summary)}</td></tr>`);
  }
  const info = doc['info'] as { title: string; description: string };
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(info.title)}</title></head><body><h1>${escape(info.title)}</h1><p>${escape(info.description)}</p><table>${rows.join('')}</table><p>Machine-readable: <a href="api">OpenAPI</a></p></body></html>`;
}

function escape(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
