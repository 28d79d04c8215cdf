// createApp: the Fastify application over an engine store and a data directory.
import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { Store } from '@halocline/engine';
import Fastify, { type FastifyInstance } from 'fastify';
import { AccessStore } from './auth/access.js';
import { authenticator } from './auth/authenticate.js';
import { authRoutes } from './auth/routes.js';
import { loadSigningKey } from './auth/signing.js';
import { Tokens } from './auth/tokens.js';
import { kindsFor } from './catalog/kinds.js';
import { finishStorageRemovals, removeOrphanObservables } from './catalog/recovery.js';
import { catalogRoutes } from './catalog/routes.js';
import { CatalogStore } from './catalog/store.js';
import { type ServerConfig, resolveConfig } from './config.js';
import { openServerDb } from './db.js';
import { fileRoutes } from './files/routes.js';
import { RawFileStore } from './files/store.js';
import { installBodyParsers, installJsonParser } from './http/body.js';
import type { AppContext } from './http/context.js';
import { dataRoutes } from './http/data-routes.js';
import { datasetStorage } from './http/dataset-storage.js';
import { releasingWrites } from './http/request-writes.js';
import { WriteGate } from './http/write-gate.js';
import { MAX_PARAM_LENGTH, frameworkError, installErrorHandler } from './http/error-handler.js';
import { mountStac } from './http/stac.js';
import { closeList, type ListScan } from './tabular-v1/list.js';
import { tabularRoutes } from './tabular-v1/routes.js';
import { type Stage, stageLeaseLimits, stageRoutes } from './tabular-v1/stages.js';
import { transactionRoutes } from './tabular-v1/transactions.js';
import { Leases } from './tabular-v2/leases.js';
import { tabularV2Routes } from './tabular-v2/index.js';
import { type Pinned, unpin } from './tabular-v2/stream.js';
import type { TxHandle } from './tabular-v2/tx-routes.js';

/** What `createApp` needs: an open engine store and the configuration (at least `dataDir`). */
export interface AppOptions {
  readonly store: Store;
  readonly config: Partial<ServerConfig> & { readonly dataDir: string };
}

/** The app plus the services routes use (the STAC plugin reads `catalog`). */
export type HaloclineApp = FastifyInstance & { readonly halocline: AppContext };

/**
 * Builds the HTTP application; the caller owns `store` and closes it after `app.close()`.
 * @example
 * const app = await createApp({ store, config: { dataDir: './data' } }); await app.listen({ port: 8080 })
 */
export async function createApp(options: AppOptions): Promise<HaloclineApp> {
  const config = resolveConfig(options.config);
  const db = await openServerDb(config.dataDir);
  const access = new AccessStore(db);
  const key = await loadSigningKey(db);
  const tokens = new Tokens(config, key, access);
  const ctx: AppContext = {
    config,
    kinds: kindsFor(config.domain),
    store: options.store,
    db,
    catalog: new CatalogStore(db),
    access,
    files: new RawFileStore(db, config.dataDir),
    authenticate: authenticator(access, tokens),
    listCursors: new Leases<ListScan>(config.cursorTtlMs, closeList, 1000, { what: 'parked list cursors', evictOwn: true }),
    stages: new Leases<Stage>(config.txIdleMs, (s) => void s.tx.rollback().catch(() => undefined), 1000, stageLeaseLimits),
    txs: new Leases<TxHandle>(config.txIdleMs, (h) => void h.tx.rollback().catch(() => undefined), 10_000, { what: 'open transactions' }),
    selectCursors: new Leases<Pinned>(config.cursorTtlMs, unpin, 1000, { what: 'parked select cursors', evictOwn: true }),
    writes: new WriteGate(),
  };

  await ctx.files.removeLeftovers();
  const storage = datasetStorage(ctx);
  const app = Fastify({
    logger: config.logger === false ? false : { ...(config.logger === true ? {} : config.logger), redact: ['req.headers.authorization', 'req.headers.cookie'] },
    bodyLimit: config.bodyLimit,
    requestTimeout: config.requestTimeout,
    connectionTimeout: config.requestTimeout,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkError,
  });
  app.decorate('halocline', ctx);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // an answer sent before the request's body was read (an upload refused: 409, 404, 400) leaves the body
  // piped into a reader that never reads it; Node then neither drains it nor parses the connection's next
  // request, which waits until the keep-alive timeout. Whatever is left of it is read and discarded
  app.addHook('onResponse', async (req) => {
    const raw = req.raw;
    if (!raw.readableEnded && !raw.destroyed) {
      raw.unpipe();
      raw.resume();
    }
  });
  app.addHook('onClose', async () => {
    ctx.listCursors.close();
    ctx.stages.close();
    ctx.txs.close();
    ctx.selectCursors.close();
    db.close();
  });
  installErrorHandler(app);
  installBodyParsers(app);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Halocline', version: '0.1.0', description: 'Ocean-data catalog and storage service' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, apiKey: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
      security: [{ bearer: [] }, { apiKey: [] }],
    },
  });

  app.get('/health', { schema: { tags: ['service'], summary: 'Readiness (no credentials needed)' } }, async () => ({ status: 'ok' }));
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  authRoutes(app, access, tokens, key);
  await mountStac(app, ctx);
  await app.register(async (api) => {
    api.addHook('onRequest', async (req) => {
      req.principal = await ctx.authenticate(req);
    });
    // a data write holds its dataset until the handler settles (see checkWrite)
    api.addHook('onRoute', (route) => {
      route.handler = releasingWrites(route.handler as never);
    });
    catalogRoutes(api, ctx, storage);
    fileRoutes(api, ctx);
    // tabular v1, with the POST /data routes it shares with raw datasets: integers beyond 2^53 in a
    // body are read exactly, as bigints (the raw handlers get JSON.parse's reading: roundedBody)
    await api.register(async (v1) => {
      installJsonParser(v1, 'body');
      dataRoutes(v1, ctx);
      tabularRoutes(v1, ctx);
      transactionRoutes(v1, ctx);
      stageRoutes(v1, ctx);
    });
    await tabularV2Routes(api, ctx);
  });
  // what earlier deletes left: storage removals a crash or failure interrupted, orphaned observables
  await finishStorageRemovals(ctx.catalog, storage, app.log);
  await removeOrphanObservables(ctx.catalog, ctx.kinds, app.log);
  return app as unknown as HaloclineApp;
}
