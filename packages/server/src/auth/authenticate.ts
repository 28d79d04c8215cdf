// Resolves the Authorization header of a request to a granted principal (401 / 403 otherwise).
import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.js';
import type { AccessStore } from './access.js';
import type { Principal } from './principal.js';
import type { Tokens } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every protected route. */
    principal?: Principal;
  }
}

/** A function checking one request's credentials. */
export type Authenticator = (req: FastifyRequest) => Promise<Principal>;

/** `Bearer <JWT>` or `ApiKey <key>`; missing or invalid → 401, valid but not granted → 403. */
export function authenticator(access: AccessStore, tokens: Tokens): Authenticator {
  return async (req) => {
    const header = req.headers.authorization;
    if (!header) throw unauthorized('missing Authorization header (Bearer <token> or ApiKey <key>)');
    const space = header.indexOf(' ');
    const scheme = header.slice(0, space).toLowerCase();
    const credential = header.slice(space + 1).trim();
    if (space < 0 || !credential) throw unauthorized('malformed Authorization header');
    if (scheme === 'apikey') {
      const p = access.verifyApiKey(credential);
      if (!p) throw unauthorized('invalid or revoked API key');
      return p;
    }
    if (scheme === 'bearer') {
      const p = await tokens.verify(credential);
      if (!p) throw forbidden('this account has not been granted access; ask the operator');
      return p;
    }
    throw unauthorized(`unsupported Authorization scheme "${header.slice(0, space)}"`);
  };
}

/** The principal the hook set (routes behind the hook only). */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw unauthorized('not authenticated');
  return req.principal;
}
