// DirectHttp against servers on random ports: every byte arrives (chunked, length, until-close, slow readers,
// late readers), connections are kept alive, a stale one is retried, a cut answer fails, error bodies read as text.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectHttp, type DirectBody, READ_SIZE } from './direct-http.js';

const payload = randomBytes(3 * READ_SIZE + 12345);
let server: Server;
let base: URL;
const sockets = new Set<Socket>();
beforeAll(async () => {
  server = createServer((req, res) => {
    sockets.add(req.socket);
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      if (req.url === '/echo') return void res.end(JSON.stringify({ method: req.method, type: req.headers['content-type'], auth: req.headers.authorization, body: Buffer.concat(body).toString() }));
      if (req.url === '/error') {
        res.statusCode = 400;
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        return void res.end('bad filter: unknown column "x"');
      }
      if (req.url === '/cut') {
        res.setHeader('content-length', payload.byteLength);
        return void res.write(payload.subarray(0, 2 * READ_SIZE), () => setTimeout(() => req.socket.destroy(), 20));
      }
      if (req.url === '/length') {
        res.setHeader('content-length', payload.byteLength);
        return void res.end(payload);
      }
      // chunked, in uneven writes
      let at = 0;
      const step = () => {
        while (at < payload.byteLength) {
          const n = 1 + ((at * 7919) % 200_000);
          const ok = res.write(payload.subarray(at, at + n));
          at += n;
          if (!ok) return void res.once('drain', step);
        }
        res.end();
      };
      step();
    });
  });
  server.keepAliveTimeout = 60_000; // idle connections stay open unless the client closes them
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');

// reads a body, copying each chunk during its event; `slow` pauses now and then, `late` attaches the reader after a while
async function collect(body: DirectBody, slow = false): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    body.once('end', () => resolve());
    body.once('error', reject);
    body.on('data', (c: Uint8Array) => {
      chunks.push(Buffer.from(c));
      if (slow && chunks.length % 3 === 0) {
        body.pause();
        setTimeout(() => body.resume(), 2);
      }
    });
  });
  return Buffer.concat(chunks);
}

const at = (path: string) => new URL(path, base);

describe('DirectHttp', () => {
  it('delivers every byte of chunked and length-delimited answers to fast, slow and late readers, on one kept-alive socket', async () => {
    const http = new DirectHttp();
    sockets.clear();
    for (const path of ['/chunked', '/length', '/chunked', '/length']) {
      for (const slow of [false, true]) {
        const res = await http.request(at(path), 'POST', { 'content-type': 'application/json' }, '{}');
        expect(res.status).toBe(200);
        expect(digest(await collect(res.body, slow))).toBe(digest(payload));
      }
      const late = await http.request(at(path), 'GET', {});
      await new Promise((r) => setTimeout(r, 30)); // bytes arrive before anyone listens: held, then delivered
      expect(digest(await collect(late.body))).toBe(digest(payload));
    }
    expect(sockets.size).toBe(1);
    http.close();
  });

  it('sends the method, headers and body; reads an error answer as text', async () => {
    const http = new DirectHttp();
    const res = await http.request(at('/echo'), 'POST', { 'content-type': 'application/json', authorization: 'Bearer k' }, '{"query":"depth > 1"}');
    expect(JSON.parse(await res.body.text())).toEqual({ method: 'POST', type: 'application/json', auth: 'Bearer k', body: '{"query":"depth > 1"}' });
    const bad = await http.request(at('/error'), 'POST', {}, '{}');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/text\/plain/);
    expect(await bad.body.text()).toBe('bad filter: unknown column "x"');
    await expect(http.request(at('/echo'), 'GET', { 'x-a': 'b\r\nx-injected: 1' })).rejects.toThrow(/line break/);
    http.close();
  });

  it('a connection cut in the middle of an answer fails the body; the next request gets a new socket', async () => {
    const http = new DirectHttp();
    sockets.clear();
    const res = await http.request(at('/cut'), 'GET', {});
    await expect(collect(res.body)).rejects.toThrow(/closed before the answer ended/);
    const ok = await http.request(at('/length'), 'GET', {});
    expect(digest(await collect(ok.body))).toBe(digest(payload));
    expect(sockets.size).toBe(2);
    http.close();
  });

  it('a reader that stops early (destroy) closes that socket, and the next request works', async () => {
    const http = new DirectHttp();
    sockets.clear();
    const res = await http.request(at('/chunked'), 'GET', {});
    await new Promise<void>((resolve) => res.body.once('data', () => resolve()));
    res.body.destroy();
    const ok = await http.request(at('/chunked'), 'GET', {});
    expect(digest(await collect(ok.body))).toBe(digest(payload));
    expect(sockets.size).toBe(2);
    http.close();
  });
});

describe('DirectHttp against a raw server', () => {
  let raw: NetServer;
  let rawBase: URL;
  let answer: (s: Socket, n: number) => void;
  let count = 0;
  beforeAll(async () => {
    raw = createNetServer((s) => {
      s.on('data', (d) => {
        if (d.includes('\r\n\r\n')) answer(s, ++count);
      });
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    rawBase = new URL(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/x`);
  });
  afterAll(() => new Promise<void>((r) => raw.close(() => r())));

  it('an answer without length or chunking lasts until the connection closes; a head split across reads is parsed', async () => {
    const http = new DirectHttp();
    answer = (s) => {
      s.write('HTTP/1.1 200 OK\r\nContent-');
      setTimeout(() => s.end('Type: text/plain\r\nX-Two: a\r\nx-two: b\r\n\r\nuntil the end'), 10);
    };
    const res = await http.request(rawBase, 'GET', {});
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(res.headers.get('x-two')).toBe('a, b');
    expect(await res.body.text()).toBe('until the end');
    http.close();
  });

  it('skips interim (1xx) heads before the final one', async () => {
    const http = new DirectHttp();
    answer = (s) => {
      s.write('HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n');
      setTimeout(() => s.write('HTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nfinal'), 5);
    };
    const res = await http.request(rawBase, 'GET', {});
    expect(res.status).toBe(200);
    expect(await res.body.text()).toBe('final');
    http.close();
  });

  it('a kept-alive connection that closes instead of answering is retried once on a new one', async () => {
    const http = new DirectHttp();
    count = 0;
    answer = (s, n) => {
      // the second request reaches a connection the server is closing (its keep-alive timeout)
      if (n === 2) s.destroy();
      else s.write(`HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n#${n}`);
    };
    expect(await (await http.request(rawBase, 'GET', {})).body.text()).toBe('#1');
    expect(await (await http.request(rawBase, 'GET', {})).body.text()).toBe('#3');
    http.close();
  });

  it('a garbled answer head is an error naming it', async () => {
    const http = new DirectHttp();
    answer = (s) => s.end('SSH-2.0-OpenSSH\r\n\r\n');
    await expect(http.request(rawBase, 'GET', {})).rejects.toThrow(/not an HTTP\/1.1 answer: "SSH-2.0-OpenSSH"/);
    http.close();
  });
});

describe('DirectHttp idle connections', () => {
  it('do not keep the process alive (a script that never closes the client still exits)', async () => {
    const { execFile } = await import('node:child_process');
    const script = `import { DirectHttp } from ${JSON.stringify(new URL('./direct-http.ts', import.meta.url).href)};
      const r = await new DirectHttp().request(new URL(${JSON.stringify(new URL('/length', base).href)}), 'GET', {});
      let n = 0; r.body.on('data', (c) => (n += c.byteLength)); r.body.on('end', () => console.log(n));`;
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 15_000 }, (e, stdout, stderr) => (e ? reject(new Error(`${e.message}\n${stderr}`)) : resolve(stdout)));
    });
    expect(out.trim()).toBe(String(payload.byteLength));
  });
});
