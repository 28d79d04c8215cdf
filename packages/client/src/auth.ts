// Credentials: an API key, a fixed token, or OAuth 2.0 client credentials refreshed before they expire.

/** How the client authenticates. */
export type Credentials =
  | { readonly apiKey: string }
  | { readonly token: string }
  | { readonly clientId: string; readonly clientSecret: string; readonly tokenUrl?: string; readonly scope?: string };

/** Refresh a client-credentials token this long before it expires. */
const REFRESH_MARGIN_MS = 60_000;

/** Produces the Authorization header value, fetching and caching tokens as needed. */
export class Authorizer {
  private token: { value: string; expires: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly creds: Credentials,
    private readonly fetchFn: typeof fetch,
  ) {}

  async header(): Promise<string> {
    if ('apiKey' in this.creds) return `ApiKey ${this.creds.apiKey}`;
    if ('token' in this.creds) return `Bearer ${this.creds.token}`;
    if (this.token && Date.now() < this.token.expires - REFRESH_MARGIN_MS) return `Bearer ${this.token.value}`;
    this.pending ??= this.fetchToken().finally(() => (this.pending = undefined));
    return `Bearer ${await this.pending}`;
  }

  /** Forgets a cached token (after a 401), so the next request fetches a fresh one. */
  invalidate(): boolean {
    if (!('clientId' in this.creds)) return false;
    this.token = undefined;
    return true;
  }

  private async fetchToken(): Promise<string> {
    const c = this.creds as Extract<Credentials, { clientId: string }>;
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, ...(c.scope ? { scope: c.scope } : {}) });
    const res = await this.fetchFn(c.tokenUrl ?? `${this.baseUrl}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    const body = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error_description?: string };
    if (!res.ok || !body.access_token) throw new Error(`token request failed: ${res.status} ${body.error_description ?? ''}`.trim());
    this.token = { value: body.access_token, expires: Date.now() + (body.expires_in ?? 3600) * 1000 };
    return body.access_token;
  }
}
