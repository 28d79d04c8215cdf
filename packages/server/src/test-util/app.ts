// A Fastify app with the STAC plugin over an in-memory catalog, and request helpers that validate.
import Fastify, { type FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { MemorySource, stacPlugin, type Resource, type StacPluginOptions } from '../stac/index.js';
import { assertValid, type DocumentKind } from './validate.js';

/** The app under test and its catalog. */
export interface TestApp {
  readonly app: FastifyInstance;
  readonly source: MemorySource;
}

/** Starts an app (not listening; requests go through inject). */
export async function stacApp(resources: Iterable<Resource>, opts: Partial<StacPluginOptions> = {}): Promise<TestApp> {
  const source = new MemorySource(resources);
  const app = Fastify();
  await app.register(stacPlugin, { source, baseUrl: 'https://stac.test', ...opts });
  await app.ready();
  return { app, source };
}

/** A parsed response. */
export interface Reply {
  readonly status: number;
  readonly type: string;
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** GET `url`; when `kind` is given the response must be 200 and valid as that document. */
export async function get(app: FastifyInstance, url: string, kind?: DocumentKind): Promise<Reply> {
  const r = await app.inject({ method: 'GET', url });
  return check(r, kind);
}

/** POST a JSON body (content type `application/json` unless given). */
export async function post(app: FastifyInstance, url: string, body: unknown, kind?: DocumentKind, contentType = 'application/json'): Promise<Reply> {
  const r = await app.inject({ method: 'POST', url, payload: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': contentType } });
  return check(r, kind);
}

/** Asserts a `{code, description}` error with this status; returns the description. */
export function expectError(r: Reply, status: number, pattern?: RegExp): string {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(Object.keys(r.body).sort()).toEqual(['code', 'description']);
  assertValid('exception', r.body);
  expect(typeof r.body.code).toBe('string');
  if (pattern) expect(r.body.description).toMatch(pattern);
  return r.body.description as string;
}

function check(r: { statusCode: number; headers: Record<string, unknown>; body: string }, kind?: DocumentKind): Reply {
  const type = String(r.headers['content-type'] ?? '');
  const body = type.includes('json') ? JSON.parse(r.body) : r.body;
  if (kind) {
    expect(r.statusCode, r.body.slice(0, 500)).toBe(200);
    assertValid(kind, body);
    if (kind === 'itemCollection') for (const f of body.features) assertValid('item', f);
    if (kind === 'collections') for (const c of body.collections) assertValid('collection', c);
  }
  return { status: r.statusCode, type, body };
}
