// `halocline serve`: run the service until SIGTERM/SIGINT, then shut down gracefully.
import { configFromEnv, externalIssuerFromEnv } from '../config.js';
import { startServer } from '../server.js';

/** Starts the server; resolves to -1 (the process stays up until a signal). */
export async function serve(opts: { port: number; host: string; data: string }): Promise<number> {
  const server = await startServer({
    port: opts.port,
    host: opts.host,
    config: {
      dataDir: opts.data,
      externalIssuers: externalIssuerFromEnv(process.env),
      ...configFromEnv(process.env),
    },
  });
  if (server.firstAdminKey) {
    process.stdout.write(`\nFirst start: created an admin API key. It is shown only this once; keep it safe:\n\n${server.firstAdminKey}\n\nUse it as: Authorization: ApiKey <key>\n\n`);
  }
  process.stdout.write(`Halocline listening on ${server.url} (data in ${opts.data})\n`);
  let signals = 0;
  const stop = (signal: string): void => {
    if (++signals > 1) process.exit(1);
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    server.close().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return -1;
}
