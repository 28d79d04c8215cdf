// A real server on a random port over a temporary directory, an API key per account, tabular datasets on demand.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@halocline/client';
import { type RunningServer, type ServerConfig, startServer } from '@halocline/server';

/** The running server and helpers. */
export interface ConformanceServer {
  readonly server: RunningServer;
  readonly url: string;
  readonly aliceKey: string;
  readonly bobKey: string;
  /** A client (alice's key unless another is given). */
  client(key?: string): Client;
  /** Creates a tabular dataset owned by alice; resolves with its UUID. */
  dataset(): Promise<string>;
  close(): Promise<void>;
}

let counter = 0;

/** A tabular dataset manifest in the wire shape. */
export function tabularManifest(name: string) {
  return {
    kind: 'catalog.example.io/dataset',
    version: 'v1alpha3',
    metadata: { name },
    spec: {
      storage_controller: 'registry.example.io/storageController/storage-tabular',
      storage_class: 'registry.example.io/storageClass/tabular',
      maintainer: { contact: 'Ada Lovelace <ada@example.org>', organisation: 'Halocline' },
    },
  };
}

export async function startConformanceServer(config: Partial<ServerConfig> = {}): Promise<ConformanceServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'halocline-conf-http-'));
  const server = await startServer({ port: 0, host: '127.0.0.1', workers: 1, config: { logger: false, ...config, dataDir } });
  const access = server.app.halocline.access;
  const aliceKey = (await access.createApiKey('alice', false)).key;
  const bobKey = (await access.createApiKey('bob', false)).key;
  const client = (key = aliceKey) => new Client({ baseUrl: server.url, apiKey: key });
  return {
    server,
    url: server.url,
    aliceKey,
    bobKey,
    client,
    dataset: async () => (await client().catalog.create(tabularManifest(`conf-${process.pid}-${++counter}`))).metadata.uuid!,
    close: async () => {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
