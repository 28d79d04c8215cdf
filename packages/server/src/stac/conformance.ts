// The conformance classes the STAC API implements (landing page `conformsTo` and /conformance).

/** Conformance URIs, each backed by tests in this package. */
export const CONFORMANCE: readonly string[] = [
  'https://api.stacspec.org/v1.0.0/core',
  'https://api.stacspec.org/v1.0.0/collections',
  'https://api.stacspec.org/v1.0.0/ogcapi-features',
  'https://api.stacspec.org/v1.0.0/item-search',
  'https://api.stacspec.org/v1.0.0/item-search#sort',
  'https://api.stacspec.org/v1.0.0/item-search#fields',
  'https://api.stacspec.org/v1.0.0-rc.2/item-search#filter',
  'https://api.stacspec.org/v1.0.0/ogcapi-features#sort',
  'https://api.stacspec.org/v1.0.0/ogcapi-features#fields',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter',
  'http://www.opengis.net/spec/cql2/1.0/conf/cql2-text',
  'http://www.opengis.net/spec/cql2/1.0/conf/cql2-json',
  'http://www.opengis.net/spec/cql2/1.0/conf/basic-cql2',
  'http://www.opengis.net/spec/cql2/1.0/conf/advanced-comparison-operators',
  'http://www.opengis.net/spec/cql2/1.0/conf/basic-spatial-functions',
  'http://www.opengis.net/spec/cql2/1.0/conf/basic-spatial-functions-plus',
  'http://www.opengis.net/spec/cql2/1.0/conf/spatial-functions',
  'http://www.opengis.net/spec/cql2/1.0/conf/temporal-functions',
];

/** The media type of the OpenAPI document the `service-desc` link points at. */
export const OPENAPI_TYPE = 'application/vnd.oai.openapi+json;version=3.0';
