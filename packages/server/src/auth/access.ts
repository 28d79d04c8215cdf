// The operator's access list: API keys, OAuth clients and grants of external subjects, stored hashed.
import type { ServerDb } from '../db.js';
import type { CredentialKind, Principal } from './principal.js';
import { hashSecret, randomId, randomSecret, secretMatches } from './secrets.js';

/** One stored credential (never holds a secret in plain text). */
export interface AccessRecord {
  readonly kind: CredentialKind;
  readonly id: string;
  readonly name: string;
  readonly admin: boolean;
  /** SHA-256 of the secret (api keys, clients); absent for granted subjects. */
  readonly hash?: string;
  readonly created: string;
  readonly revoked?: string;
}

/** What `list` shows: everything but the hash. */
export type AccessSummary = Omit<AccessRecord, 'hash'>;

const KEY_PREFIX = 'Sk_';
const ID_LENGTH = 16;

/**
 * Credentials in the server's LMDB environment; every check reads LMDB, so a revocation made by
 * `halocline admin` in another process takes effect on the next request.
 */
export class AccessStore {
  constructor(private readonly db: ServerDb) {}

  /** Creates an API key; returns the key itself (shown once) and its record. */
  async createApiKey(name: string, admin: boolean): Promise<{ key: string; record: AccessSummary }> {
    const id = randomId(ID_LENGTH / 2);
    const secret = randomSecret();
    const record: AccessRecord = { kind: 'apikey', id, name, admin, hash: hashSecret(secret), created: new Date().toISOString() };
    await this.db.access.put(['apikey', id], record);
    return { key: `${KEY_PREFIX}${id}${secret}`, record: summary(record) };
  }

  /** Creates an OAuth client for the client-credentials grant; the secret is shown once. */
  async createClient(name: string, admin: boolean): Promise<{ clientId: string; clientSecret: string; record: AccessSummary }> {
    const id = `hc-${randomId(8)}`;
    const secret = randomSecret();
    const record: AccessRecord = { kind: 'client', id, name, admin, hash: hashSecret(secret), created: new Date().toISOString() };
    await this.db.access.put(['client', id], record);
    return { clientId: id, clientSecret: secret, record: summary(record) };
  }

  /** Grants an external identity (the `sub` of a token from a configured issuer). */
  async grant(subject: string, admin: boolean): Promise<AccessSummary> {
    const record: AccessRecord = { kind: 'subject', id: subject, name: subject, admin, created: new Date().toISOString() };
    await this.db.access.put(['subject', subject], record);
    return summary(record);
  }

  /** Every credential, revoked ones included. */
  list(): AccessSummary[] {
    return [...this.db.access.getRange({})].map(({ value }) => summary(value as AccessRecord));
  }

  /** Revokes the credential with this id (any kind); false when there is none. */
  async revoke(id: string): Promise<boolean> {
    for (const kind of ['apikey', 'client', 'subject'] as const) {
      const rec = this.db.access.get([kind, id]) as AccessRecord | undefined;
      if (rec && !rec.revoked) {
        await this.db.access.put([kind, id], { ...rec, revoked: new Date().toISOString() });
        return true;
      }
    }
    return false;
  }

  /**
   * Removes an API key that was never handed out (the first start's, when that start failed before
   * printing it), so the next start creates and prints one again; revoke keeps the record.
   */
  async discardApiKey(id: string): Promise<void> {
    await this.db.access.remove(['apikey', id]);
  }

  /** Whether any credential was ever created (the first `serve` creates an admin key when not). */
  isEmpty(): boolean {
    for (const _ of this.db.access.getKeys({ limit: 1 })) return false;
    return true;
  }

  /** The principal of an API key, or undefined when the key is unknown, wrong or revoked. */
  verifyApiKey(key: string): Principal | undefined {
    if (!key.startsWith(KEY_PREFIX) || key.length < KEY_PREFIX.length + ID_LENGTH + 16) return undefined;
    const id = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + ID_LENGTH);
    const rec = this.active('apikey', id);
    if (!rec?.hash || !secretMatches(key.slice(KEY_PREFIX.length + ID_LENGTH), rec.hash)) return undefined;
    return { id: `apikey:${id}`, kind: 'apikey', admin: rec.admin };
  }

  /** The principal of a client whose secret matches, else undefined. */
  verifyClient(clientId: string, secret: string): Principal | undefined {
    const rec = this.active('client', clientId);
    if (!rec?.hash || !secretMatches(secret, rec.hash)) return undefined;
    return { id: `client:${clientId}`, kind: 'client', admin: rec.admin };
  }

  /** The principal of a still-active client (tokens are rechecked on every request). */
  client(clientId: string): Principal | undefined {
    const rec = this.active('client', clientId);
    return rec ? { id: `client:${clientId}`, kind: 'client', admin: rec.admin } : undefined;
  }

  /** The principal of a granted external subject. */
  subject(sub: string): Principal | undefined {
    const rec = this.active('subject', sub);
    return rec ? { id: `subject:${sub}`, kind: 'subject', admin: rec.admin } : undefined;
  }

  private active(kind: CredentialKind, id: string): AccessRecord | undefined {
    const rec = this.db.access.get([kind, id]) as AccessRecord | undefined;
    return rec && !rec.revoked ? rec : undefined;
  }
}

function summary(r: AccessRecord): AccessSummary {
  const { hash: _hash, ...rest } = r;
  return rest;
}
