// The `halocline` CLI as users run it: admin commands print secrets on the last line; serve starts,
// creates the first admin key once, answers /health, and exits cleanly on SIGTERM.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = new URL('../../bin/halocline.js', import.meta.url).pathname;
const run = promisify(execFile);
let data: string;

beforeAll(async () => {
  data = await mkdtemp(join(tmpdir(), 'halocline-cli-'));
});
afterAll(() => rm(data, { recursive: true, force: true }));

const lastLine = (out: string) => out.trim().split('\n').at(-1)!;

/** Starts `halocline serve` on a free port; resolves when it listens. */
async function serve(dir: string) {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data', dir], { env: { ...process.env, HALOCLINE_HOST: '127.0.0.1' } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /Halocline listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearInterval(timer);
        resolve(m[1]!);
      }
    }, 50);
    child.on('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`serve exited with ${code}: ${out}`));
    });
  });
  return { child, url, output: () => out };
}

describe('halocline', () => {
  it('serve: first start prints an admin key once; /health; SIGTERM exits 0; the key survives a restart', async () => {
    const first = await serve(data);
    const key = /^(Sk_\S+)$/m.exec(first.output())?.[1];
    expect(key).toBeDefined();
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    const list = await fetch(`${first.url}/catalog/list`, { method: 'POST', headers: { authorization: `ApiKey ${key}` } });
    expect(list.status).toBe(200);
    const exited = new Promise<string>((r) => first.child.on('exit', (code, signal) => r(`code ${code} signal ${signal}`)));
    first.child.kill('SIGTERM');
    // a crash on shutdown (a signal, not an exit code) shows with the server's output
    expect(await exited, first.output()).toBe('code 0 signal null');

    const second = await serve(data);
    expect(second.output()).not.toMatch(/^Sk_/m);
    expect((await fetch(`${second.url}/catalog/list`, { method: 'POST', headers: { authorization: `ApiKey ${key}` } })).status).toBe(200);
    // the operator hands out and revokes keys while the server runs (another process, same LMDB)
    const fresh = lastLine((await run(process.execPath, [BIN, 'admin', 'create-api-key', '--data', data, '--name', 'live'])).stdout);
    const asFresh = () => fetch(`${second.url}/catalog/list`, { method: 'POST', headers: { authorization: `ApiKey ${fresh}` } });
    expect((await asFresh()).status).toBe(200);
    await run(process.execPath, [BIN, 'admin', 'revoke', fresh.slice(3, 19), '--data', data]);
    expect((await asFresh()).status).toBe(401);
    const done = new Promise((r) => second.child.on('exit', r));
    second.child.kill('SIGINT');
    await done;
  }, 90_000);

  it('admin create-api-key / create-client / list / revoke', async () => {
    const k = await run(process.execPath, [BIN, 'admin', 'create-api-key', '--data', data, '--name', 'etl', '--admin']);
    expect(lastLine(k.stdout)).toMatch(/^Sk_[0-9a-f]{16}\S{40,}$/);
    const c = await run(process.execPath, [BIN, 'admin', 'create-client', '--data', data, '--name', 'svc']);
    const client = JSON.parse(lastLine(c.stdout)) as { client_id: string; client_secret: string };
    expect(client.client_id).toMatch(/^hc-/);
    expect(client.client_secret.length).toBeGreaterThan(30);
    const l = await run(process.execPath, [BIN, 'admin', 'list', '--data', data]);
    const records = l.stdout.trim().split('\n').map((x) => JSON.parse(x) as { id: string; name: string; hash?: string });
    expect(records.map((r) => r.name)).toEqual(expect.arrayContaining(['etl', 'svc']));
    expect(l.stdout).not.toContain(client.client_secret);
    expect(records.every((r) => r.hash === undefined)).toBe(true);
    const r = await run(process.execPath, [BIN, 'admin', 'revoke', client.client_id, '--data', data]);
    expect(r.stdout).toContain('revoked');
    await expect(run(process.execPath, [BIN, 'admin', 'revoke', 'nope', '--data', data])).rejects.toThrow();
  }, 60_000);

  it('admin refuses a data directory no server made (a mistyped --data), creating nothing, and extra arguments', async () => {
    const typo = join(data, 'typo');
    for (const sub of ['list', 'create-api-key']) {
      const e = await run(process.execPath, [BIN, 'admin', sub, '--data', typo]).then(() => undefined, (err: { code: number; stderr: string }) => err);
      expect(e?.code).toBe(1);
      expect(e?.stderr).toMatch(/no Halocline data directory at .*typo/);
    }
    expect(existsSync(typo)).toBe(false);
    const extra = await run(process.execPath, [BIN, 'admin', 'create-api-key', 'b', '--data', data]).then(() => undefined, (err: { code: number; stderr: string }) => err);
    expect(extra?.stderr).toMatch(/takes no argument; got "b"/);
  }, 30_000);

  it('serve: a first start that fails (the port taken) uses up no admin key: the next start prints one', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'halocline-cli-first-'));
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const taken = String((blocker.address() as AddressInfo).port);
    const failed = await run(process.execPath, [BIN, 'serve', '--port', taken, '--data', fresh]).then(() => undefined, (err: { code: number; stdout: string; stderr: string }) => err);
    blocker.close();
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/EADDRINUSE/);
    expect(failed?.stdout).not.toMatch(/^Sk_/m);
    const ok = await serve(fresh);
    expect(ok.output()).toMatch(/^Sk_\S+$/m);
    const done = new Promise((r) => ok.child.on('exit', r));
    ok.child.kill('SIGTERM');
    await done;
    await rm(fresh, { recursive: true, force: true });
  }, 60_000);

  it('serve: an empty HALOCLINE_PORT is unset, and a bad one is named with its value', async () => {
    const bad = await run(process.execPath, [BIN, 'serve', '--data', data], { env: { ...process.env, HALOCLINE_PORT: 'abc' } }).then(() => undefined, (err: { code: number; stderr: string }) => err);
    expect(bad?.code).toBe(1);
    expect(bad?.stderr).toContain('HALOCLINE_PORT must be a port number (0-65535), got "abc"');
    const flag = await run(process.execPath, [BIN, 'serve', '--port', '8o8o', '--data', data]).then(() => undefined, (err: { code: number; stderr: string }) => err);
    expect(flag?.stderr).toContain('--port must be a port number (0-65535), got "8o8o"');
    // empty: the default port 8080, which this test may not be able to take; either it listens there or says why
    const child = spawn(process.execPath, [BIN, 'serve', '--data', data], { env: { ...process.env, HALOCLINE_PORT: '' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = once(child, 'exit');
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (/listening on|EADDRINUSE/.test(out)) { clearInterval(timer); resolve(); }
      }, 50);
      void exited.then(() => { clearInterval(timer); resolve(); });
    });
    expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:8080|EADDRINUSE.*:8080/);
    child.kill('SIGTERM');
    await exited;
  }, 60_000);
});
