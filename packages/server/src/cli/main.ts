// The `halocline` command line: `serve` and `admin` (credentials of the closed release); each loads only what it needs.
import { parseArgs } from 'node:util';

const USAGE = `usage:
  halocline serve [--port 8080] [--host 127.0.0.1] [--data ./data]     (env HALOCLINE_PORT, HALOCLINE_HOST, HALOCLINE_DATA)
  halocline admin create-api-key [--data DIR] [--name NAME] [--admin]
  halocline admin create-client [--data DIR] [--name NAME] [--admin]
  halocline admin grant <subject> [--data DIR] [--admin]             (a token subject of a configured external issuer)
  halocline admin list [--data DIR]
  halocline admin revoke <id> [--data DIR]`;

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      name: { type: 'string' },
      admin: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const data = values.data ?? process.env.HALOCLINE_DATA ?? './data';
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command || values.help ? 0 : 1;
  }
  if (command === 'serve') {
    // an empty value (HALOCLINE_PORT= in an env file) is unset, not port 0 (any free port)
    const given = values.port !== undefined && values.port !== '' ? { from: '--port', text: values.port } : process.env.HALOCLINE_PORT ? { from: 'HALOCLINE_PORT', text: process.env.HALOCLINE_PORT } : undefined;
    const port = given ? (/^\s*\d+\s*$/.test(given.text) ? Number(given.text) : NaN) : 8080;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${given?.from ?? '--port'} must be a port number (0-65535), got ${JSON.stringify(given?.text)}`);
    const { serve } = await import('./serve.js');
    return serve({ port, host: values.host ?? process.env.HALOCLINE_HOST ?? '127.0.0.1', data });
  }
  if (command === 'admin') return (await import('./admin.js')).admin(rest, { data, name: values.name, admin: values.admin });
  console.error(`unknown command ${JSON.stringify(command)}\n${USAGE}`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== -1) process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`halocline: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
