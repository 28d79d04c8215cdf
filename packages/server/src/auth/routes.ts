// POST /oauth2/token (client-credentials grant) and the public JWKS of the server's own tokens.
import type {} from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import type { AccessStore } from './access.js';
import type { SigningKey } from './signing.js';
import type { Tokens } from './tokens.js';

/** Registers the public auth routes. */
export function authRoutes(app: FastifyInstance, access: AccessStore, tokens: Tokens, key: SigningKey): void {
  app.get('/.well-known/jwks.json', { schema: { tags: ['auth'], summary: 'Public keys of the server-issued tokens' } }, async () => ({ keys: [key.publicJwk] }));

  app.post('/oauth2/token', { config: { formBody: true }, schema: { tags: ['auth'], summary: 'Client-credentials grant' } }, async (req) => {
    const form = asForm(req.body);
    const basic = basicAuth(req.headers.authorization);
    const grant = form.get('grant_type');
    if (grant !== 'client_credentials') throw oauth(400, 'unsupported_grant_type', `grant_type must be client_credentials, got ${JSON.stringify(grant)}`);
    const clientId = basic?.id ?? form.get('client_id');
    const secret = basic?.secret ?? form.get('client_secret');
    if (!clientId || !secret) throw oauth(400, 'invalid_request', 'client_id and client_secret are required');
    if (!access.verifyClient(clientId, secret)) throw oauth(401, 'invalid_client', 'unknown client or wrong secret');
    const scope = form.get('scope') ?? '';
    const { token, expiresIn } = await tokens.issue(clientId, scope);
    return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope };
  });
}

function asForm(body: unknown): URLSearchParams {
  if (body instanceof URLSearchParams) return body;
  if (body && typeof body === 'object') return new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)]));
  return new URLSearchParams();
}

function basicAuth(header: string | undefined): { id: string; secret: string } | undefined {
  if (!header?.toLowerCase().startsWith('basic ')) return undefined;
  const text = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return { id: decodeURIComponent(text.slice(0, colon)), secret: decodeURIComponent(text.slice(colon + 1)) };
  } catch {
    throw oauth(400, 'invalid_request', 'the HTTP Basic client id and secret must be form-urlencoded (RFC 6749 §2.3.1); they hold malformed percent-encoding');
  }
}

function oauth(status: 400 | 401, error: string, description: string): ApiError {
  return new ApiError(status, error, description, { error, error_description: description });
}
