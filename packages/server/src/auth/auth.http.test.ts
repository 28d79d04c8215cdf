// The auth matrix over HTTP: API keys, the client-credentials grant, own and external JWTs, 401 vs 403.
import { createServer, type Server } from 'node:http';
import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, startTestServer, type TestServer } from '../test-util/server.js';
import { loadSigningKey } from './signing.js';

let s: TestServer;
let idp: Server;
let idpKey: Awaited<ReturnType<typeof generateKeyPair>>;
const ISSUER = 'https://idp.example.test/';
const DOWN_JWKS = 'https://down.example.test/';

// a port nothing listens on (bound, then released)
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

beforeAll(async () => {
  idpKey = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(idpKey.publicKey)), kid: 'k1', alg: 'RS256' };
  idp = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(req.url === '/jwks' ? { keys: [jwk] } : {}));
  });
  await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
  const port = (idp.address() as { port: number }).port;
  s = await startTestServer({
    externalIssuers: [
      { issuer: ISSUER, jwksUrl: `http://127.0.0.1:${port}/jwks`, audience: 'halocline-api', scope: 'halocline.read' },
      { issuer: DOWN_JWKS, jwksUrl: `http://127.0.0.1:${await closedPort()}/jwks`, audience: 'halocline-api' },
      { issuer: `http://127.0.0.1:${await closedPort()}/`, audience: 'halocline-api' },
    ],
  });
});
afterAll(async () => {
  await s.close();
  idp.close();
});

const bearer = (token: string) => ({ key: null, headers: { authorization: `Bearer ${token}` } });
const extToken = (claims: Record<string, unknown>, opts: { aud?: string; exp?: string; iss?: string } = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(opts.iss ?? ISSUER)
    .setAudience(opts.aud ?? 'halocline-api')
    .setSubject(String(claims.sub ?? 'someone'))
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? '10m')
    .sign(idpKey.privateKey);

describe('API keys', () => {
  it('/health and /openapi.json answer without credentials; every catalog and data route needs them', async () => {
    expect((await s.req('GET', '/health', { key: null })).status).toBe(200);
    const doc = await s.json('GET', '/openapi.json', { key: null });
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/catalog', '/catalog/list', '/data/{ds}/{name}', '/oauth2/token']));
    for (const [method, path] of [['POST', '/catalog/list'], ['GET', '/catalog/x'], ['POST', '/catalog'], ['POST', '/data/x/list'], ['GET', '/data/x/f'], ['PATCH', '/data/x/f']] as const) {
      const res = await s.json(method, path, { key: null });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.code).toBe('Unauthorized');
      expect(res.res.headers.get('www-authenticate')).toContain('Bearer');
    }
  });

  it('401 for a malformed header, an unknown scheme, a wrong key; 200 for a valid one', async () => {
    expect((await s.req('POST', '/catalog/list', { key: null, headers: { authorization: 'ApiKey' } })).status).toBe(401);
    expect((await s.req('POST', '/catalog/list', { key: null, headers: { authorization: `Basic ${s.aliceKey}` } })).status).toBe(401);
    expect((await s.req('POST', '/catalog/list', { key: `${s.aliceKey.slice(0, -2)}xx` })).status).toBe(401);
    expect((await s.req('POST', '/catalog/list', { key: 'Sk_short' })).status).toBe(401);
    expect((await s.req('POST', '/catalog/list', { key: s.aliceKey })).status).toBe(200);
  });

  it('a revoked key is refused at once', async () => {
    const { key, record } = await s.server.app.halocline.access.createApiKey('temp', false);
    expect((await s.req('POST', '/catalog/list', { key })).status).toBe(200);
    expect(await s.server.app.halocline.access.revoke(record.id)).toBe(true);
    const res = await s.json('POST', '/catalog/list', { key });
    expect(res.status).toBe(401);
    expect(res.body.description).toContain('revoked');
  });

  it('other owner → 403, admin may write anything', async () => {
    const ds = (await s.json('POST', '/catalog', { json: manifests.dataset('owned-by-alice'), key: s.aliceKey })).body;
    expect((await s.json('POST', `/data/${ds.metadata.uuid}`, { json: { name: 'f.txt' }, key: s.bobKey })).status).toBe(403);
    expect((await s.json('GET', `/catalog/${ds.metadata.uuid}`, { key: s.bobKey })).status).toBe(200);
    expect((await s.json('POST', `/data/${ds.metadata.uuid}`, { json: { name: 'f.txt' }, key: s.adminKey })).status).toBe(200);
    expect((await s.req('DELETE', `/catalog/${ds.metadata.uuid}`, { key: s.adminKey })).status).toBe(204);
  });
});

describe('client credentials and the server’s own tokens', () => {
  it('issues a one-hour token for a registered client; the token authenticates', async () => {
    const { clientId, clientSecret } = await s.server.app.halocline.access.createClient('etl', false);
    const res = await s.req('POST', '/oauth2/token', {
      key: null,
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope: 'api' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; expires_in: number; token_type: string };
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    // anyone can check the token against the published key set
    const jwks = (await s.json('GET', '/.well-known/jwks.json', { key: null })).body;
    const { payload } = await jwtVerify(body.access_token, createLocalJWKSet(jwks), { issuer: 'halocline', audience: 'halocline' });
    expect(payload.sub).toBe(clientId);
    expect(payload.exp! - payload.iat!).toBe(3600);
    const created = await s.json('POST', '/catalog', { json: manifests.dataset('by-client'), ...bearer(body.access_token) });
    expect(created.status).toBe(201);
    expect(created.body.owner).toBe(`client:${clientId}`);
    // revoking the client ends its tokens
    await s.server.app.halocline.access.revoke(clientId);
    expect((await s.req('POST', '/catalog/list', bearer(body.access_token))).status).toBe(401);
  });

  it('wrong secret → 401 invalid_client, wrong grant → 400; basic auth works', async () => {
    const { clientId, clientSecret } = await s.server.app.halocline.access.createClient('c2', true);
    const form = (f: Record<string, string>, headers: Record<string, string> = {}) =>
      s.req('POST', '/oauth2/token', { key: null, body: new URLSearchParams(f).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
    const wrong = await form({ grant_type: 'client_credentials', client_id: clientId, client_secret: 'nope' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_client' });
    expect((await form({ grant_type: 'password', client_id: clientId, client_secret: clientSecret })).status).toBe(400);
    expect((await form({ grant_type: 'client_credentials' })).status).toBe(400);
    const basic = await form({ grant_type: 'client_credentials' }, { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` });
    expect(basic.status).toBe(200);
  });

  it('HTTP Basic credentials with malformed percent-encoding → 400 invalid_request, not a 500', async () => {
    const res = await s.req('POST', '/oauth2/token', {
      key: null,
      body: 'grant_type=client_credentials',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('client%zz:secret%').toString('base64')}` },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/percent-encod/) });
  });

  it('expired, tampered and foreign tokens → 401', async () => {
    const key = await loadSigningKey(s.server.app.halocline.db);
    const { clientId } = await s.server.app.halocline.access.createClient('c3', false);
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: key.kid }).setIssuer('halocline').setAudience('halocline').setSubject(clientId).setIssuedAt(1_000).setExpirationTime(2_000).sign(key.privateKey);
    const r1 = await s.json('POST', '/catalog/list', bearer(expired));
    expect(r1.status).toBe(401);
    expect(r1.body.description).toContain('expired');
    const valid = await new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: key.kid }).setIssuer('halocline').setAudience('halocline').setSubject(clientId).setIssuedAt().setExpirationTime('5m').sign(key.privateKey);
    expect((await s.req('POST', '/catalog/list', bearer(valid))).status).toBe(200);
    const [h, p] = valid.split('.');
    expect((await s.req('POST', '/catalog/list', bearer(`${h}.${p}.AAAA`))).status).toBe(401);
    expect((await s.req('POST', '/catalog/list', bearer('not-a-jwt'))).status).toBe(401);
    const other = await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setIssuer('https://evil.example').setAudience('halocline').setSubject('x').setExpirationTime('5m').sign(key.privateKey);
    expect((await s.req('POST', '/catalog/list', bearer(other))).status).toBe(401);
  });
});

describe('external issuer (JWKS)', () => {
  it('a valid token of an ungranted subject → 403; granted → 200', async () => {
    const token = await extToken({ sub: 'user-42', scope: 'openid halocline.read' });
    const denied = await s.json('POST', '/catalog/list', bearer(token));
    expect(denied.status).toBe(403);
    await s.server.app.halocline.access.grant('user-42', false);
    expect((await s.req('POST', '/catalog/list', bearer(token))).status).toBe(200);
  });

  it('wrong audience, missing scope, expired → 401', async () => {
    await s.server.app.halocline.access.grant('user-43', false);
    expect((await s.req('POST', '/catalog/list', bearer(await extToken({ sub: 'user-43', scope: 'halocline.read' }, { aud: 'other' })))).status).toBe(401);
    expect((await s.req('POST', '/catalog/list', bearer(await extToken({ sub: 'user-43', scp: ['other'] })))).status).toBe(401);
    const expired = await extToken({ sub: 'user-43', scope: 'halocline.read' }, { exp: '-10m' });
    expect((await s.json('POST', '/catalog/list', bearer(expired))).body.description).toContain('expired');
  });

  it('an issuer whose keys cannot be fetched (JWKS or discovery unreachable) → 503 IdentityProviderUnavailable, not a 500 or a 401', async () => {
    const issuers = s.server.app.halocline.config.externalIssuers.slice(1).map((x) => x.issuer);
    for (const iss of issuers) {
      const res = await s.json('POST', '/catalog/list', bearer(await extToken({ sub: 'user-44' }, { iss })));
      expect(res.status, iss).toBe(503);
      expect(res.body.code).toBe('IdentityProviderUnavailable');
      expect(res.body.description).toContain(iss);
    }
  });
});
