// The server's own JWT signing key: an ES256 key pair created once and kept in the data directory.
import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
import type { ServerDb } from '../db.js';

const SETTING = 'signing-key';
export const ALG = 'ES256';

/** The key pair tokens are signed and verified with, and its public JWK (served at /.well-known/jwks.json). */
export interface SigningKey {
  readonly kid: string;
  readonly privateKey: Key;
  readonly publicKey: Key;
  readonly publicJwk: JWK;
}

/** Loads the persisted key, creating it on first use. */
export async function loadSigningKey(db: ServerDb): Promise<SigningKey> {
  let stored = db.settings.get(SETTING) as { kid: string; private: JWK; public: JWK } | undefined;
  if (!stored) {
    const pair = await generateKeyPair(ALG, { extractable: true });
    const kid = `hc-${Date.now().toString(36)}`;
    const created = { kid, private: await exportJWK(pair.privateKey), public: await exportJWK(pair.publicKey) };
    // another process may have created one meanwhile: keep whichever landed first
    await db.settings.ifNoExists(SETTING, () => db.settings.put(SETTING, created));
    stored = db.settings.get(SETTING) as typeof created;
  }
  const publicJwk: JWK = { ...stored.public, kid: stored.kid, alg: ALG, use: 'sig' };
  return {
    kid: stored.kid,
    privateKey: (await importJWK(stored.private, ALG)) as Key,
    publicKey: (await importJWK(stored.public, ALG)) as Key,
    publicJwk,
  };
}
