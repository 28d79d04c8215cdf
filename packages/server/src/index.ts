// @halocline/server: the HTTP service. (So far: the STAC API plugin.)
export { stacPlugin, MemorySource, StacError, CONFORMANCE, OPENAPI_TYPE } from './stac/index.js';
export type { StacPluginOptions, CatalogChange, CatalogSource, Resource, ResourceMetadata, ResourceStatus, StacErrorCode } from './stac/index.js';
