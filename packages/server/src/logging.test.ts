// Structured logs: one JSON line per request with its id; no API key, token or client secret in them.
import { describe, expect, it } from 'vitest';
import { manifests, startTestServer } from './test-util/server.js';

describe('logs', () => {
  it('carry request ids and never a secret', async () => {
    const lines: string[] = [];
    const s = await startTestServer({ logger: { level: 'info', stream: { write: (l: string) => void lines.push(l) } } });
    try {
      const { clientId, clientSecret } = await s.server.app.halocline.access.createClient('svc', false);
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }).toString();
      const tok = await s.req('POST', '/oauth2/token', { key: null, body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      const token = ((await tok.json()) as { access_token: string }).access_token;
      await s.req('POST', '/catalog', { json: manifests.dataset('logged'), key: null, headers: { authorization: `Bearer ${token}` } });
      const res = await s.req('POST', '/catalog/list', { key: s.aliceKey, json: {} });
      await s.req('GET', '/catalog/nope', { key: `${s.aliceKey}x` });
      const id = res.headers.get('x-request-id');
      const text = lines.join('');
      expect(text).toContain(id);
      for (const secret of [clientSecret, token, s.aliceKey, s.adminKey]) expect(text).not.toContain(secret);
      for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    } finally {
      await s.close();
    }
  });
});
