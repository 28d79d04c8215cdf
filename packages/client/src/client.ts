// The Halocline HTTP client: catalog, raw file datasets, and tabular v2 tables.
import { Catalog } from './catalog.js';
import { Files } from './files.js';
import { type ClientOptions, Http } from './http.js';
import { RemoteTable } from './table.js';

/**
 * @example
 * const c = new Client({ baseUrl: 'http://localhost:8080', apiKey: process.env.HALOCLINE_KEY! })
 * const t = c.table(datasetUuid); for await (const row of t.select('depth > 100').rows()) console.log(row)
 */
export class Client {
  readonly http: Http;
  readonly catalog: Catalog;

  constructor(options: ClientOptions) {
    this.http = new Http(options);
    this.catalog = new Catalog(this.http);
  }

  /** Files of a raw dataset: its UUID or `catalog.<domain>/dataset/<name>`. */
  files(datasetRef: string): Files {
    return new Files(this.http, datasetRef);
  }

  /** The table of a tabular dataset; `timeout` is the server's streaming budget per request (seconds). */
  table(datasetUuid: string, options: { readonly timeout?: number } = {}): RemoteTable {
    return new RemoteTable(this.http, datasetUuid, options);
  }
}
