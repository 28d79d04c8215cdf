// @halocline/client: a typed client for the Halocline HTTP API; tables implement the engine's TableApi.
export { Client } from './client.js';
export type { ClientOptions, Request } from './http.js';
export type { Credentials } from './auth.js';
export { Catalog, type Manifest, type Page } from './catalog.js';
export { Files, type FileMeta } from './files.js';
export { RemoteTable } from './table.js';
export { RemoteCursor } from './cursor.js';
export { RemoteTransaction } from './transaction.js';
export { RemoteRaw } from './raw.js';
export { ClientError } from './errors.js';
export { finalFromPartials } from './aggregate.js';
