// `halocline admin …`: create, list, grant and revoke credentials directly in the data directory.
import { AccessStore } from '../auth/access.js';
import { openServerDb } from '../db.js';

/** Runs one admin subcommand; secrets are printed once, alone on the last line of stdout. */
export async function admin(args: readonly string[], opts: { data: string; name: string | undefined; admin: boolean }): Promise<number> {
  const db = await openServerDb(opts.data);
  const access = new AccessStore(db);
  try {
    const [sub, arg] = args;
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
