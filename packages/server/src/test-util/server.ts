// Test helper: a real server listening on a random port over a temporary data directory.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '../config.js';
import { type RunningServer, startServer } from '../server.js';

/** A started test server with an admin key, two user keys and a fetch helper. */
export interface TestServer {
  readonly server: RunningServer;
  readonly url: string;
  readonly dataDir: string;
  readonly adminKey: string;
  readonly aliceKey: string;
  readonly bobKey: string;
  /** fetch against the server; `key` becomes `Authorization: ApiKey <key>`; a `json` body is sent as JSON. */
  req(method: string, path: string, opts?: RequestOptions): Promise<Response>;
  /** `req` and the parsed JSON body. */
  json<T = any>(method: string, path: string, opts?: RequestOptions): Promise<{ status: number; body: T; res: Response }>;
  close(): Promise<void>;
}

export interface RequestOptions {
  readonly key?: string | null;
  readonly json?: unknown;
  readonly body?: RequestInit["body"];
  readonly headers?: Record<string, string>;
}

/** Starts a server; call `close()` in afterAll. */
export async function startTestServer(config: Partial<ServerConfig> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'halocline-server-'));
  const server = await startServer({ port: 0, host: '127.0.0.1', workers: 0, config: { logger: false, ...config, dataDir } });
  const access = server.app.halocline.access;
  const aliceKey = (await access.createApiKey('alice', false)).key;
  const bobKey = (await access.createApiKey('bob', false)).key;
  const adminKey = server.firstAdminKey!;
  const req = (method: string, path: string, opts: RequestOptions = {}): Promise<Response> => {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? adminKey : opts.key;
    if (key !== null) headers.authorization = `ApiKey ${key}`;
    let body = opts.body;
    if (opts.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(opts.json);
    }
    return fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body, duplex: 'half' } : {}) } as RequestInit);
  };
  return {
    server,
    url: server.url,
    dataDir,
    adminKey,
    aliceKey,
    bobKey,
    req,
    json: async (method, path, opts) => {
      const res = await req(method, path, opts);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, res };
    },
    close: async () => {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Manifests for tests. */
export const manifests = {
  dataset: (name: string, storage: 'raw' | 'tabular' = 'raw', extra: Record<string, unknown> = {}) => ({
    kind: 'catalog.example.io/dataset',
    version: 'v1alpha3',
    metadata: { name, display_name: `Dataset ${name}`, labels: { test: true } },
    spec: {
      storage_controller: `registry.example.io/storageController/${storage === 'raw' ? 'storage-raw-cdffs' : 'storage-tabular'}`,
      storage_class: `registry.example.io/storageClass/${storage}`,
      maintainer: { contact: 'Ada Lovelace <ada@example.org>', organisation: 'Halocline' },
      tags: ['ocean'],
      ...extra,
    },
  }),
  collection: (name: string) => ({
    kind: 'catalog.example.io/dataCollection',
    version: 'v1alpha1',
    metadata: { name },
    spec: { published_by: { contact: 'X <x@y.z>', organisation: 'Org' }, published_date: '2024-05-01T12:00:00', tags: [] },
  }),
  geoObservable: (name: string, dataset: string, geometry: unknown) => ({
    kind: 'catalog.example.io/observable',
    version: 'v1alpha2',
    metadata: { name },
    spec: {
      ref: `catalog.example.io/dataset/${dataset}`,
      observable_class: 'catalog.example.io/observableClass/static-geometric-coverage',
      details: { attribute: 'location', value: geometry },
    },
  }),
};

/** A square polygon with corner (x, y) and side `s`. */
export function square(x: number, y: number, s: number) {
  return { type: 'Polygon', coordinates: [[[x, y], [x + s, y], [x + s, y + s], [x, y + s], [x, y]]] };
}
