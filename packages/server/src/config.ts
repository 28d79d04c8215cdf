// The server's configuration: defaults, and what the CLI reads from flags and the environment.

/** A configured external OAuth 2.0 / OIDC issuer whose JWTs the server accepts. */
export interface ExternalIssuer {
  /** The `iss` claim; also the base of OIDC discovery when `jwksUrl` is not given. */
  readonly issuer: string;
  /** JWKS address; default: `jwks_uri` from `<issuer>/.well-known/openid-configuration`. */
  readonly jwksUrl?: string;
  /** Required `aud` claim. */
  readonly audience: string;
  /** A scope the token must carry (in `scope` or `scp`), if any. */
  readonly scope?: string;
}

/** Everything `createApp` needs to know besides the store. */
export interface ServerConfig {
  /** Directory holding the engine store, the server's LMDB environment and raw files. */
  readonly dataDir: string;
  /** Group domain in kinds and references: `catalog.<domain>/dataset`. */
  readonly domain: string;
  /** Largest JSON body in bytes (catalog manifests, tabular rows). */
  readonly bodyLimit: number;
  /** Largest raw file upload in bytes. */
  readonly uploadLimit: number;
  /** Whole-request timeout in milliseconds (0 = none). */
  readonly requestTimeout: number;
  /** Processing budget of one tabular list request in milliseconds. */
  readonly listBudgetMs: number;
  /** Tabular v1: about the most bytes of row values one JSON (`{data, next}`) list answer holds; then `next` continues. */
  readonly listJsonBytes: number;
  /** Tabular v2: a transaction idle longer than this (ms) is rolled back. */
  readonly txIdleMs: number;
  /** Tabular v2: how long (ms) a select continuation cursor keeps its snapshot pinned. */
  readonly cursorTtlMs: number;
  /** Tabular v2: largest Arrow IPC request body in bytes (create, alter, insert). */
  readonly ipcBodyLimit: number;
  /** Lifetime of tokens the server issues, in seconds. */
  readonly tokenTtlSeconds: number;
  /** `iss` and `aud` of the server's own tokens. */
  readonly issuer: string;
  readonly audience: string;
  /** External issuers accepted besides the server's own. */
  readonly externalIssuers: readonly ExternalIssuer[];
  /** pino logger options (level, and a destination stream: default stdout), or false for none. */
  readonly logger: boolean | { readonly level: string; readonly stream?: { write(line: string): void } };
  /** Whether `/api/stac` needs credentials like every other route (default false: public, as the spec's examples). */
  readonly stacRequiresAuth: boolean;
}

/** Defaults for everything but `dataDir`. */
export const defaultConfig: Omit<ServerConfig, 'dataDir'> = {
  domain: 'example.io',
  bodyLimit: 32 * 1024 * 1024,
  uploadLimit: 16 * 1024 * 1024 * 1024,
  requestTimeout: 15 * 60_000,
  listBudgetMs: 30_000,
  listJsonBytes: 64 * 1024 * 1024,
  txIdleMs: 5 * 60_000,
  cursorTtlMs: 5 * 60_000,
  ipcBodyLimit: 1024 * 1024 * 1024,
  tokenTtlSeconds: 3600,
  issuer: 'halocline',
  audience: 'halocline',
  externalIssuers: [],
  logger: { level: 'info' },
  stacRequiresAuth: false,
};

/** A full configuration from partial settings. */
export function resolveConfig(partial: Partial<ServerConfig> & { dataDir: string }): ServerConfig {
  return { ...defaultConfig, ...partial };
}

/** External issuer from `HALOCLINE_OIDC_ISSUER`, `_JWKS_URL`, `_AUDIENCE`, `_SCOPE`, if set. */
export function externalIssuerFromEnv(env: NodeJS.ProcessEnv): ExternalIssuer[] {
  const issuer = env.HALOCLINE_OIDC_ISSUER;
  if (!issuer) return [];
  const audience = env.HALOCLINE_OIDC_AUDIENCE ?? 'halocline';
  return [{
    issuer,
    audience,
    ...(env.HALOCLINE_OIDC_JWKS_URL ? { jwksUrl: env.HALOCLINE_OIDC_JWKS_URL } : {}),
    ...(env.HALOCLINE_OIDC_SCOPE ? { scope: env.HALOCLINE_OIDC_SCOPE } : {}),
  }];
}

/**
 * Settings from `HALOCLINE_DOMAIN`, `HALOCLINE_UPLOAD_LIMIT` (bytes), `HALOCLINE_BODY_LIMIT` (bytes),
 * `HALOCLINE_LIST_BUDGET_MS`, `HALOCLINE_REQUEST_TIMEOUT_MS`, `HALOCLINE_LOG_LEVEL`, `HALOCLINE_STAC_AUTH`
 * (`true`/`1`: the STAC API needs credentials).
 */
export function configFromEnv(env: NodeJS.ProcessEnv): Partial<ServerConfig> {
  const num = (name: string): number | undefined => {
    const v = env[name];
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
    return n;
  };
  const out: { -readonly [K in keyof ServerConfig]?: ServerConfig[K] } = {};
  if (env.HALOCLINE_DOMAIN) out.domain = env.HALOCLINE_DOMAIN;
  if (env.HALOCLINE_LOG_LEVEL) out.logger = { level: env.HALOCLINE_LOG_LEVEL };
  if (env.HALOCLINE_STAC_AUTH) out.stacRequiresAuth = ['1', 'true', 'yes'].includes(env.HALOCLINE_STAC_AUTH.toLowerCase());
  const upload = num('HALOCLINE_UPLOAD_LIMIT');
  if (upload !== undefined) out.uploadLimit = upload;
  const body = num('HALOCLINE_BODY_LIMIT');
  if (body !== undefined) out.bodyLimit = body;
  const budget = num('HALOCLINE_LIST_BUDGET_MS');
  if (budget !== undefined) out.listBudgetMs = budget;
  const timeout = num('HALOCLINE_REQUEST_TIMEOUT_MS');
  if (timeout !== undefined) out.requestTimeout = timeout;
  return out;
}
