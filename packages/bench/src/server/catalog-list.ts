// Catalog list over HTTP under load: #AND of kind and #ST_INTERSECTS (R-tree) vs the same filter the
// index cannot use (wrapped in #OR: every resource tested exactly), 50 connections, autocannon.
import autocannon from 'autocannon';
import type { RunningServer } from '@halocline/server';
import { mulberry32 } from '../generate.js';
import { box } from './seed-catalog.js';

/** Latency and throughput of one autocannon run. */
export interface LoadResult {
  readonly label: string;
  readonly p50: number;
  readonly p99: number;
  readonly requestsPerSecond: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly meanResults: number;
}

/** Query bodies: seeded 5°×5° boxes, cycled across requests. */
export function listBodies(seed: number, count: number, indexed: boolean): string[] {
  const rand = mulberry32(seed);
  return Array.from({ length: count }, () => {
    const filter = {
      '#AND': [
        { '#EQUALS': ['$kind', 'catalog.example.io/observable'] },
        { '#ST_INTERSECTS': ['$spec.details.value.geometry', box(-60 + rand() * 65, 20 + rand() * 45, 5, 5)] },
      ],
    };
    return JSON.stringify(indexed ? filter : { '#OR': [filter] });
  });
}

/** Runs autocannon against POST /catalog/list for `seconds` with `connections`. */
export async function loadCatalogList(server: RunningServer, key: string, opts: { label: string; bodies: string[]; connections: number; seconds: number }): Promise<LoadResult> {
  let i = 0;
  let results = 0;
  let answered = 0;
  const result = await autocannon({
    url: `${server.url}/catalog/list?page_size=1000`,
    connections: opts.connections,
    duration: opts.seconds,
    requests: [{
      method: 'POST',
      headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: opts.bodies[i++ % opts.bodies.length]! }),
      onResponse: (_status, body) => {
        answered++;
        results += (JSON.parse(body) as { num_results: number }).num_results;
      },
    }],
  });
  return {
    label: opts.label,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    non2xx: result.non2xx + result.errors,
    meanResults: answered ? results / answered : 0,
  };
}
