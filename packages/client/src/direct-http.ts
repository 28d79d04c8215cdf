// HTTP/1.1 requests over plain http whose answer body reaches the reader as views of one reused read buffer per
// socket: node:http copies every body byte into a fresh buffer, which cost most of a large select's client CPU.
import { connect, type Socket } from 'node:net';
import { HaloclineError } from '@halocline/engine';
import { DirectBody } from './direct-body.js';
import { type BodyFraming, framingOf } from './direct-framing.js';

export { DirectBody };

/** Bytes one socket read may take (and the size of each socket's reused read buffer). */
export const READ_SIZE = 1 << 20;
/** Largest response head accepted. */
const HEAD_LIMIT = 64 << 10;

/** A response whose head has arrived; its body is read through `body`. */
export interface DirectResponse {
  readonly status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  readonly headers: ReadonlyMap<string, string>;
  readonly body: DirectBody;
}

/** Keep-alive connections per origin, each reading into its own `READ_SIZE` buffer. */
export class DirectHttp {
  private readonly idle = new Map<string, Connection[]>();

  /**
   * Sends one request (a small body: JSON text or bytes) and resolves once the response head has
   * arrived. A reused connection that closes before answering is retried once on a new one.
   */
  async request(url: URL, method: string, headers: Record<string, string>, body?: string | Uint8Array): Promise<DirectResponse> {
    if (url.protocol !== 'http:') throw new HaloclineError('InvalidArgument', `direct reads are for http: URLs, got ${url.protocol}`);
    const origin = url.host;
    const bytes = body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body) : body;
    const head = requestHead(url, method, headers, bytes?.byteLength);
    for (let attempt = 0; ; attempt++) {
      const reused = this.idle.get(origin)?.pop();
      // an IPv6 host comes bracketed in URLs, bare to net.connect
      const conn = reused ?? new Connection(url.hostname.replace(/^\[(.*)\]$/, '$1'), Number(url.port || 80), { idle: (c) => this.list(origin).push(c), gone: (c) => this.forget(origin, c) });
      try {
        return await conn.exchange(head, bytes);
      } catch (e) {
        if (!(reused && attempt === 0 && (e as { stale?: boolean }).stale)) throw e;
      }
    }
  }

  /** Closes the idle connections. */
  close(): void {
    for (const list of this.idle.values()) for (const c of list) c.socket.destroy();
    this.idle.clear();
  }

  private list(origin: string): Connection[] {
    let list = this.idle.get(origin);
    if (!list) this.idle.set(origin, (list = []));
    return list;
  }

  private forget(origin: string, c: Connection): void {
    const list = this.idle.get(origin);
    const i = list?.indexOf(c) ?? -1;
    if (i >= 0) list!.splice(i, 1);
  }
}

// one exchange at a time: head bytes, then the body through its framing
class Connection {
  readonly socket: Socket;
  private head: Buffer[] = [];
  private headSize = 0;
  private framing: BodyFraming | undefined;
  private body: DirectBody | undefined;
  private keepAlive = false;
  private answered: ((r: DirectResponse) => void) | undefined;
  private failed: ((e: Error) => void) | undefined;
  private gotBytes = false;

  constructor(host: string, port: number, private readonly pool: { idle(c: Connection): void; gone(c: Connection): void }) {
    const buffer = Buffer.allocUnsafe(READ_SIZE);
    this.socket = connect({ host, port, noDelay: true, keepAlive: true, onread: { buffer, callback: (n: number) => this.read(buffer.subarray(0, n)) } });
    this.socket.on('error', (e) => this.fail(e));
    this.socket.on('close', () => {
      this.pool.gone(this);
      // an answer framed by the connection's end (no length, not chunked) ends here
      if (this.framing && !this.framing.exact) this.ended();
      else this.fail(Object.assign(new Error('the connection closed before the answer ended'), { code: 'ECONNRESET' }));
    });
  }

  exchange(head: Buffer, body: Uint8Array | undefined): Promise<DirectResponse> {
    this.gotBytes = false;
    this.socket.ref();
    return new Promise((resolve, reject) => {
      this.answered = resolve;
      this.failed = reject;
      this.socket.resume();
      this.socket.write(body ? Buffer.concat([head, body]) : head);
    });
  }

  // one socket read (a view of the reused buffer); false pauses the socket
  private read(view: Buffer): boolean {
    this.gotBytes = true;
    let at = 0;
    let more = true;
    if (!this.answered && !this.framing) {
      // bytes on an idle connection: not an answer to anything
      this.socket.destroy();
      return false;
    }
    try {
      if (!this.framing) at = this.readHead(view);
      while (this.framing && at < view.byteLength) {
        at += this.framing.feed(view.subarray(at), (v) => {
          more = this.body!.deliver(v) && more;
        });
        if (this.framing.done) this.ended();
      }
      if (this.framing?.done) this.ended();
    } catch (e) {
      this.fail(e as Error);
      this.socket.destroy();
      return false;
    }
    return this.body === undefined || more;
  }

  private readHead(view: Buffer): number {
    const prior = this.headSize;
    this.head.push(Buffer.from(view.subarray(0, Math.min(view.byteLength, HEAD_LIMIT))));
    this.headSize += Math.min(view.byteLength, HEAD_LIMIT);
    const all = this.head.length === 1 ? this.head[0]! : Buffer.concat(this.head);
    this.head = [all];
    const end = all.indexOf('\r\n\r\n', Math.max(0, prior - 3));
    if (end < 0) {
      if (this.headSize >= HEAD_LIMIT) throw new HaloclineError('Corrupt', `the answer's head is larger than ${HEAD_LIMIT} bytes`);
      return view.byteLength;
    }
    const { status, headers } = parseHead(all.subarray(0, end).toString('latin1'));
    this.head = [];
    this.headSize = 0;
    if (status >= 100 && status < 200) {
      // an interim answer (103 Early Hints...): the final head follows
      const used = end + 4 - prior;
      return used === view.byteLength ? used : used + this.readHead(view.subarray(used));
    }
    this.keepAlive = !/\bclose\b/i.test(headers.get('connection') ?? '');
    this.framing = framingOf(status, headers);
    this.body = new DirectBody({ resume: () => this.socket.resume(), destroy: () => this.abandon() });
    const resolve = this.answered!;
    this.answered = undefined;
    resolve({ status, headers, body: this.body });
    return end + 4 - prior;
  }

  private ended(): void {
    const body = this.body!;
    const reusable = this.keepAlive && this.framing!.exact;
    this.framing = undefined;
    this.body = undefined;
    this.failed = undefined;
    body.finish();
    if (reusable) {
      // an idle connection does not keep the process alive (as node:http's agent)
      this.socket.unref();
      this.pool.idle(this);
    } else this.socket.destroy();
  }

  private abandon(): void {
    this.body = undefined;
    this.framing = undefined;
    this.failed = undefined;
    this.socket.destroy();
  }

  private fail(e: Error): void {
    const body = this.body;
    const reject = this.failed;
    this.body = undefined;
    this.framing = undefined;
    this.failed = undefined;
    if (this.answered) {
      this.answered = undefined;
      reject?.(Object.assign(e, { stale: !this.gotBytes }));
    } else body?.finish(e);
  }
}

function requestHead(url: URL, method: string, headers: Record<string, string>, length: number | undefined): Buffer {
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`, 'connection: keep-alive'];
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) throw new HaloclineError('InvalidArgument', `header "${name}" holds a line break`);
    lines.push(`${name}: ${value}`);
  }
  if (length !== undefined) lines.push(`content-length: ${length}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

function parseHead(text: string): { status: number; headers: Map<string, string> } {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]!);
  if (!m) throw new HaloclineError('Corrupt', `not an HTTP/1.1 answer: ${JSON.stringify(lines[0]!.slice(0, 80))}`);
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new HaloclineError('Corrupt', `a malformed header line in the answer: ${JSON.stringify(line.slice(0, 80))}`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const prev = headers.get(name);
    headers.set(name, prev === undefined ? value : `${prev}, ${value}`);
  }
  return { status: Number(m[1]), headers };
}
