// The STAC API's public surface.
export { stacPlugin, type StacPluginOptions } from './plugin.js';
export type { CatalogChange, CatalogSource, Resource, ResourceMetadata, ResourceStatus } from './source.js';
export { MemorySource } from './memory-source.js';
export { StacError, type StacErrorCode } from './errors.js';
export { CONFORMANCE, OPENAPI_TYPE } from './conformance.js';
