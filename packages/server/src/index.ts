// @halocline/server: the HTTP service (catalog, raw files, tabular v1 and the v2 SDK routes, STAC, auth) and its building blocks.
export { createApp, type AppOptions, type HaloclineApp } from './app.js';
export { startServer, type RunningServer, type StartOptions } from './server.js';
export { defaultConfig, resolveConfig, type ExternalIssuer, type ServerConfig } from './config.js';
export { ApiError } from './errors.js';
export { AccessStore, type AccessSummary } from './auth/access.js';
export { openServerDb, type ServerDb } from './db.js';
export type { CatalogReader, Page } from './catalog/store.js';
export type { CatalogChange, Resource, ResourceMetadata, ResourceStatus } from './catalog/resource.js';
export { kindsFor, type Kinds } from './catalog/kinds.js';
export { parseOqs, compileOqs, OqsError, type OqsNode, type Predicate } from './oqs/index.js';
export type { AppContext } from './http/context.js';
export { TYPE_NAMES } from './tabular-v1/types.js';
export { stacPlugin, MemorySource, StacError, CONFORMANCE, OPENAPI_TYPE } from './stac/index.js';
export type { StacPluginOptions, CatalogSource, StacErrorCode, Resource as StacResource } from './stac/index.js';
