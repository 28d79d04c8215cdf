// One request path for the whole client: auth header, retries with backoff, errors mapped.
import { once } from 'node:events';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { Readable } from 'node:stream';
import { Authorizer, type Credentials } from './auth.js';
import { type DirectBody, DirectHttp } from './direct-http.js';
import { errorOf } from './errors.js';

/** Client options: the service address, credentials, and tuning. */
export type ClientOptions = { readonly baseUrl: string; readonly fetch?: typeof fetch; readonly retries?: number; readonly backoffMs?: number } & Credentials;

/** One request. `read` requests retry on 429/502/503/504; writes only on 429 (as the Python and R clients do). */
export interface Request {
  readonly method: string;
  readonly path: string;
  readonly query?: Record<string, string | number | undefined>;
  readonly json?: unknown;
  readonly body?: Uint8Array | ReadableStream<Uint8Array> | NodeJS.ReadableStream;
  /** A body written chunk by chunk (e.g. an IPC stream as views of its batches); called again on a retry. */
  readonly chunks?: () => Iterable<Uint8Array>;
  readonly headers?: Record<string, string>;
  readonly read?: boolean;
  /** Statuses returned as is instead of thrown (e.g. 204, 404). */
  readonly pass?: readonly number[];
}

const RETRY_READ = new Set([429, 502, 503, 504]);

/** The transport the API areas share. */
export class Http {
  readonly baseUrl: string;
  private readonly auth: Authorizer;
  private readonly fetchFn: typeof fetch;
  private readonly customFetch: boolean;
  // uploads and ingest progress over plain http (small answers; select reads through `direct`)
  private readonly httpAgent = new HttpAgent({ keepAlive: true });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true });
  // select answers over plain http: the body as views of one reused read buffer per socket
  private readonly direct = new DirectHttp();
  private readonly retries: number;
  private readonly backoffMs: number;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchFn = options.fetch ?? fetch;
    this.customFetch = options.fetch !== undefined;
    this.auth = new Authorizer(this.baseUrl, options, this.fetchFn);
    this.retries = options.retries ?? 4;
    this.backoffMs = options.backoffMs ?? 200;
  }

  /** Sends `r`; resolves with an OK response (or one whose status is in `pass`), throws otherwise. */
  async send(r: Request): Promise<Response> {
    const url = this.url(r.path, r.query);
    const streamed = r.body !== undefined && !(r.body instanceof Uint8Array);
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { authorization: await this.auth.header(), ...r.headers };
      let body: RequestInit['body'];
      if (r.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(r.json);
      } else if (r.body !== undefined) {
        headers['content-type'] ??= 'application/octet-stream';
        body = r.body as RequestInit['body'];
      }
      const res = await this.fetchFn(url, { method: r.method, headers, body, ...(streamed ? { duplex: 'half' } : {}) } as RequestInit);
      if (res.ok || r.pass?.includes(res.status)) return res;
      const retry = attempt < this.retries && !streamed && (res.status === 429 || (r.read === true && RETRY_READ.has(res.status)));
      const refreshed = res.status === 401 && attempt === 0 && this.auth.invalidate();
      if (retry || refreshed) {
        await res.body?.cancel();
        if (retry) await sleep(this.delay(attempt, res.headers.get('retry-after')));
        continue;
      }
      throw errorOf(res.status, await res.text(), res.headers.get('x-halocline-error'), `${r.method} ${r.path}`);
    }
  }

  /** `send` and the JSON body (undefined for an empty one). */
  async json<T>(r: Request): Promise<T> {
    const res = await this.send(r);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /**
   * A read whose (large) body is consumed as a Node stream: over node:http(s) with keep-alive, which
   * moves bytes about twice as fast as fetch's web streams here; through `fetch` when one was given.
   * Same retries and error mapping as `send`; a status in `pass` resolves with an empty body.
   */
  async stream(r: Request): Promise<{ status: number; body: Readable }> {
    if (this.customFetch) {
      const res = await this.send(r.chunks ? { ...r, chunks: undefined, body: Buffer.concat([...r.chunks()]) } : r);
      return { status: res.status, body: res.body ? Readable.fromWeb(res.body as never) : Readable.from([]) };
    }
    const url = new URL(this.url(r.path, r.query));
    const https = url.protocol === 'https:';
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { authorization: await this.auth.header(), 'content-type': r.chunks ? 'application/octet-stream' : 'application/json', ...r.headers };
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = (https ? httpsRequest : httpRequest)(url, { method: r.method, headers, agent: https ? this.httpsAgent : this.httpAgent }, resolve);
        req.on('error', reject);
        if (r.chunks) writeAll(req, r.chunks()).catch((e: Error) => req.destroy(e));
        else req.end(r.json === undefined ? undefined : JSON.stringify(r.json));
      });
      const status = res.statusCode ?? 0;
      if ((status >= 200 && status < 300) || r.pass?.includes(status)) return { status, body: res };
      await this.retryOrThrow(r, attempt, status, await textOf(res), (name) => header(res, name));
    }
  }

  /**
   * A read of a large answer whose bytes the caller copies as they come (an IPC stream into its
   * batches): over plain http the body's `data` chunks are views valid only during the event
   * (`DirectHttp`, no copy per read); otherwise as `stream`. Same retries and error mapping.
   */
  async read(r: Request & { json: unknown }): Promise<{ status: number; body: Readable | DirectBody }> {
    const url = new URL(this.url(r.path, r.query));
    if (this.customFetch || url.protocol !== 'http:') return this.stream(r);
    for (let attempt = 0; ; attempt++) {
      const headers = { authorization: await this.auth.header(), 'content-type': 'application/json', ...r.headers };
      const res = await this.direct.request(url, r.method, headers, JSON.stringify(r.json));
      const status = res.status;
      if ((status >= 200 && status < 300) || r.pass?.includes(status)) return { status, body: res.body };
      await this.retryOrThrow(r, attempt, status, await res.body.text(), (name) => res.headers.get(name) ?? null);
    }
  }

  // a failed answer of a streamed read: wait and go round again (retry, or a 401 with a refreshed token), or throw it mapped
  private async retryOrThrow(r: Request, attempt: number, status: number, text: string, header: (name: string) => string | null): Promise<void> {
    const retry = attempt < this.retries && (status === 429 || (r.read === true && RETRY_READ.has(status)));
    const refreshed = status === 401 && attempt === 0 && this.auth.invalidate();
    if (!retry && !refreshed) throw errorOf(status, text, header('x-halocline-error'), `${r.method} ${r.path}`);
    if (retry) await sleep(this.delay(attempt, header('retry-after')));
  }

  /** A write whose body is `r.chunks`, over node:http(s) (no copy of the body); resolves with the JSON answer. */
  async upload<T>(r: Request & { chunks: () => Iterable<Uint8Array> }): Promise<T> {
    const res = await this.stream(r);
    const text = await textOf(res.body);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private url(path: string, query: Request['query']): string {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) q.set(k, String(v));
    const s = q.toString();
    return `${this.baseUrl}${path}${s ? `?${s}` : ''}`;
  }

  private delay(attempt: number, retryAfter: string | null): number {
    const seconds = retryAfter === null ? NaN : Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.min(seconds * 1000, 30_000);
    return this.backoffMs * 2 ** attempt * (0.5 + Math.random() / 2);
  }
}

// writes the chunks as the socket takes them, then ends the request
async function writeAll(req: ClientRequest, chunks: Iterable<Uint8Array>): Promise<void> {
  for (const c of chunks) if (!req.write(c)) await once(req, 'drain');
  req.end();
}

async function textOf(res: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function header(res: IncomingMessage, name: string): string | null {
  const v = res.headers[name];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
