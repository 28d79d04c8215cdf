// Bearer JWTs: issued by the server (client-credentials grant) or by a configured external issuer.
import { SignJWT, createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { ExternalIssuer, ServerConfig } from '../config.js';
import { ApiError, unauthorized } from '../errors.js';
import type { AccessStore } from './access.js';
import type { Principal } from './principal.js';
import { ALG, type SigningKey } from './signing.js';

/** Issues and verifies tokens; one per app. */
export class Tokens {
  private readonly jwks = new Map<string, Promise<JWTVerifyGetKey>>();

  constructor(
    private readonly config: ServerConfig,
    private readonly key: SigningKey,
    private readonly access: AccessStore,
  ) {}

  /** A signed token for a registered client, valid `tokenTtlSeconds`. */
  async issue(clientId: string, scope: string): Promise<{ token: string; expiresIn: number }> {
    const expiresIn = this.config.tokenTtlSeconds;
    const token = await new SignJWT({ scope })
      .setProtectedHeader({ alg: ALG, kid: this.key.kid, typ: 'JWT' })
      .setIssuer(this.config.issuer)
      .setAudience(this.config.audience)
      .setSubject(clientId)
      .setIssuedAt()
      .setExpirationTime(`${expiresIn}s`)
      .sign(this.key.privateKey);
    return { token, expiresIn };
  }

  /** The principal of a valid token; 401 when invalid or expired, undefined when valid but not granted. */
  async verify(token: string): Promise<Principal | undefined> {
    let iss: string | undefined;
    try {
      iss = decodeJwt(token).iss;
    } catch {
      throw unauthorized('the bearer token is not a JWT');
    }
    if (iss === this.config.issuer) {
      const payload = await check(() => jwtVerify(token, this.key.publicKey, { issuer: iss, audience: this.config.audience, algorithms: [ALG] }));
      const client = payload.sub ? this.access.client(payload.sub) : undefined;
      if (!client) throw unauthorized('the client this token was issued to has been revoked');
      return client;
    }
    const ext = this.config.externalIssuers.find((x) => x.issuer === iss);
    if (!ext) throw unauthorized(`tokens from issuer ${JSON.stringify(iss ?? null)} are not accepted`);
    const keys = await this.keysOf(ext).catch((e: unknown) => {
      throw unreachable(ext, e);
    });
    const payload = await check(() => jwtVerify(token, keys, { issuer: ext.issuer, audience: ext.audience }), ext);
    if (ext.scope && !scopes(payload).includes(ext.scope)) throw unauthorized(`the token lacks the scope "${ext.scope}"`);
    return payload.sub ? this.access.subject(payload.sub) : undefined;
  }

  private keysOf(ext: ExternalIssuer): Promise<JWTVerifyGetKey> {
    let keys = this.jwks.get(ext.issuer);
    if (!keys) {
      keys = discoverJwks(ext).then((url) => createRemoteJWKSet(new URL(url)));
      keys.catch(() => this.jwks.delete(ext.issuer));
      this.jwks.set(ext.issuer, keys);
    }
    return keys;
  }
}

async function discoverJwks(ext: ExternalIssuer): Promise<string> {
  if (ext.jwksUrl) return ext.jwksUrl;
  const res = await fetch(`${ext.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  const doc = (await res.json()) as { jwks_uri?: unknown };
  if (!res.ok || typeof doc.jwks_uri !== 'string') throw new Error(`OIDC discovery of ${ext.issuer} gave no jwks_uri`);
  return doc.jwks_uri;
}

async function check(verify: () => Promise<{ payload: JWTPayload }>, ext?: ExternalIssuer): Promise<JWTPayload> {
  try {
    return (await verify()).payload;
  } catch (e) {
    if (e instanceof joseErrors.JWTExpired) throw unauthorized('the bearer token has expired');
    // the issuer's key set could not be fetched: not the token's fault, and worth a retry
    if (ext && (e instanceof joseErrors.JWKSTimeout || !(e instanceof joseErrors.JOSEError))) throw unreachable(ext, e);
    if (e instanceof joseErrors.JOSEError) throw unauthorized(`the bearer token is invalid (${e.code})`);
    throw e;
  }
}

// 503: the keys of an external issuer could not be read (discovery or JWKS fetch failed)
function unreachable(ext: ExternalIssuer, e: unknown): ApiError {
  const why = e instanceof Error ? e.message : String(e);
  return new ApiError(503, 'IdentityProviderUnavailable', `the keys of token issuer ${ext.issuer} could not be fetched to verify the token (${why}); try again later`);
}

function scopes(p: JWTPayload): string[] {
  const s = p.scope ?? p.scp;
  if (typeof s === 'string') return s.split(' ');
  return Array.isArray(s) ? s.map(String) : [];
}
