// The conformance suite against a real server on a random port, through @halocline/client.
import { afterAll, beforeAll } from 'vitest';
import { runConformance } from './index.js';
import { type ConformanceServer, startConformanceServer } from './test-server.js';

let s: ConformanceServer;
beforeAll(async () => {
  s = await startConformanceServer();
});
afterAll(async () => s?.close());

runConformance({ name: 'HTTP server through the client', openTable: async () => s.client().table(await s.dataset()) });
