// BigReadAgent: answers arrive byte for byte (chunked or with a length, read slowly or at once), sockets are reused.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeUneven } from './uneven.fixture.js';
import { BigReadAgent, READ_SIZE } from './big-reads.js';

const payload = randomBytes(3 * READ_SIZE + 12345);
let server: Server;
let base: string;
const sockets = new Set<unknown>();
beforeAll(async () => {
  server = createServer((req, res) => {
    sockets.add(req.socket);
    if (req.url === '/cut') {
      // the connection dies in the middle of the body
      res.setHeader('content-length', payload.byteLength);
      res.write(payload.subarray(0, 2 * READ_SIZE), () => setTimeout(() => req.socket.destroy(), 20));
      return;
    }
    if (req.url === '/length') {
      res.setHeader('content-length', payload.byteLength);
      res.end(payload);
      return;
    }
    // chunked, in uneven writes
    writeUneven(res, payload);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function get(agent: BigReadAgent, path: string, slow: boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        // a consumer that lags: the socket stops reading (backpressure) and resumes later
        if (slow && chunks.length % 3 === 0) {
          res.pause();
          setTimeout(() => res.resume(), 2);
        }
      });
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', reject);
    }).on('error', reject).end();
  });
}

const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('BigReadAgent', () => {
  it('delivers every byte of chunked and length-delimited answers, fast or slow readers, on one kept-alive socket', async () => {
    const agent = new BigReadAgent({ keepAlive: true, maxSockets: 1 });
    sockets.clear();
    for (const path of ['/chunked', '/length', '/chunked', '/length']) {
      for (const slow of [false, true]) expect(digest(await get(agent, path, slow))).toBe(digest(payload));
    }
    expect(sockets.size).toBe(1);
    agent.destroy();
  });

  it('a connection closed in the middle of an answer fails the read; the next request gets a new socket', async () => {
    const agent = new BigReadAgent({ keepAlive: true, maxSockets: 1 });
    sockets.clear();
    await expect(get(agent, '/cut', false)).rejects.toThrow();
    expect(digest(await get(agent, '/length', false))).toBe(digest(payload));
    expect(sockets.size).toBe(2); // the cut socket is not reused
    agent.destroy();
  });
});
