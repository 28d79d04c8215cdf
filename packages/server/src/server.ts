// Running the service: open the data directory, build the app, listen, and shut down gracefully.
import { openStore, type Store, warnBackgroundError } from '@halocline/engine';
import { type HaloclineApp, createApp } from './app.js';
import { AccessStore } from './auth/access.js';
import type { ServerConfig } from './config.js';
import { openServerDb } from './db.js';

/** Options of `startServer`. */
export interface StartOptions {
  readonly port: number;
  readonly host: string;
  readonly config: Partial<ServerConfig> & { readonly dataDir: string };
  /** Scan workers of the engine store (default: one per core). */
  readonly workers?: number;
}

/** A running server. */
export interface RunningServer {
  readonly app: HaloclineApp;
  readonly store: Store;
  /** The address it listens on, e.g. http://127.0.0.1:8080. */
  readonly url: string;
  /** On the very first start: the admin API key created (print it once). */
  readonly firstAdminKey?: string;
  /** Stops accepting, lets in-flight requests finish, closes the app and the store. */
  close(): Promise<void>;
}

/** Opens the store in `config.dataDir` and listens. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const first = await bootstrapAdmin(options.config.dataDir);
  try {
    return await listen(options, first?.key);
  } catch (e) {
    // a start that fails (the port taken …) has printed nothing: its key must not use up the first start's
    if (first) await discardKey(options.config.dataDir, first.id);
    throw e;
  }
}

async function listen(options: StartOptions, firstAdminKey: string | undefined): Promise<RunningServer> {
  // the engine's background failures (compaction, garbage collection) go to the app's log once it
  // exists; before that (and with logging off), to the engine's default process warning
  let logError: ((error: Error, task: string) => void) | undefined;
  const store = await openStore({
    path: options.config.dataDir,
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    onBackgroundError: (error, task) => (logError ?? warnBackgroundError)(error, task),
  });
  let app: HaloclineApp;
  try {
    app = await createApp({ store, config: options.config });
  } catch (e) {
    await store.close();
    throw e;
  }
  if (options.config.logger !== false) logError = (error, task) => app.log.error({ err: error, task }, 'engine background work failed');
  let url: string;
  try {
    url = await app.listen({ port: options.port, host: options.host });
  } catch (e) {
    await app.close();
    await store.close();
    throw e;
  }
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // keep-alive connections that finish their request while closing would otherwise linger
      // until the keep-alive timeout: close each as soon as it is idle
      const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
      }
      await store.close();
    })();
    return closing;
  };
  return { app, store, url, close, ...(firstAdminKey ? { firstAdminKey } : {}) };
}

/** Creates an admin API key when the data directory has no credentials at all yet. */
async function bootstrapAdmin(dataDir: string): Promise<{ key: string; id: string } | undefined> {
  const db = await openServerDb(dataDir);
  try {
    const access = new AccessStore(db);
    if (!access.isEmpty()) return undefined;
    const { key, record } = await access.createApiKey('first admin', true);
    return { key, id: record.id };
  } finally {
    await db.close();
  }
}

async function discardKey(dataDir: string, id: string): Promise<void> {
  const db = await openServerDb(dataDir);
  try {
    await new AccessStore(db).discardApiKey(id);
  } finally {
    await db.close();
  }
}
