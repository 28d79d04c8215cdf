// `halocline admin …`: create, list, grant and revoke credentials directly in the data directory.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AccessStore } from '../auth/access.js';
import { openServerDb } from '../db.js';

// how many arguments each subcommand takes after its name
const ARGUMENTS: Readonly<Record<string, 0 | 1>> = { 'create-api-key': 0, 'create-client': 0, grant: 1, list: 0, revoke: 1 };

/** Runs one admin subcommand; secrets are printed once, alone on the last line of stdout. */
export async function admin(args: readonly string[], opts: { data: string; name: string | undefined; admin: boolean }): Promise<number> {
  const [sub, arg, ...extra] = args;
  const takes = ARGUMENTS[sub ?? ''];
  if (takes === undefined) throw new Error(`unknown admin command ${JSON.stringify(sub ?? '')}; use create-api-key, create-client, grant, list or revoke`);
  if (extra.length > 0 || (takes === 0 && arg !== undefined)) {
    throw new Error(`halocline admin ${sub} takes ${takes === 0 ? 'no argument' : 'one argument'}; got ${[arg, ...extra].filter((a) => a !== undefined).map((a) => JSON.stringify(a)).join(' ')}`);
  }
  // a mistyped --data would otherwise become a new, empty data directory that no server reads
  if (!existsSync(join(opts.data, 'server', 'data.mdb'))) {
    throw new Error(`no Halocline data directory at ${resolve(opts.data)} (no server/data.mdb); start the server on it once (halocline serve --data ${opts.data}) or pass the right --data`);
  }
  const db = await openServerDb(opts.data);
  const access = new AccessStore(db);
  try {
    switch (sub) {
      case 'create-api-key': {
        const { key, record } = await access.createApiKey(opts.name ?? 'api key', opts.admin);
        console.log(`created API key ${record.id} (${record.admin ? 'admin' : 'user'}); it is shown only once:`);
        console.log(key);
        return 0;
      }
      case 'create-client': {
        const { clientId, clientSecret, record } = await access.createClient(opts.name ?? 'client', opts.admin);
        console.log(`created OAuth client ${clientId} (${record.admin ? 'admin' : 'user'}); the secret is shown only once:`);
        console.log(JSON.stringify({ client_id: clientId, client_secret: clientSecret }));
        return 0;
      }
      case 'grant': {
        if (!arg) throw new Error('usage: halocline admin grant <subject> [--admin]');
        const r = await access.grant(arg, opts.admin);
        console.log(`granted ${r.id} (${r.admin ? 'admin' : 'user'})`);
        return 0;
      }
      case 'list':
        for (const r of access.list()) console.log(JSON.stringify(r));
        return 0;
      case 'revoke': {
        if (!arg) throw new Error('usage: halocline admin revoke <id>');
        const ok = await access.revoke(arg.replace(/^(apikey|client|subject):/, ''));
        console.log(ok ? `revoked ${arg}` : `no active credential ${arg}`);
        return ok ? 0 : 1;
      }
      default:
        throw new Error(`unknown admin command ${JSON.stringify(sub ?? '')}; use create-api-key, create-client, grant, list or revoke`);
    }
  } finally {
    await db.close();
  }
}
