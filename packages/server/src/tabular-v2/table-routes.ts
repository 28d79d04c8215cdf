// Tabular v2 table lifecycle: create and alter from Arrow IPC, drop, truncate, stats.
import { Field, Schema } from 'apache-arrow';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.js';
import type { AppContext } from '../http/context.js';
import { readIpc } from './ipc.js';
import { jsonSafe } from './stream.js';
import { NoTable, schemaOrNoTable, target } from './target.js';

const tags = ['tabular v2'];

/** create, alter, drop, truncate, stats. */
export function tableRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/table/v2/sdk/create', { schema: { tags, summary: 'Create the table from an Arrow IPC schema' } }, async (req) => {
    const t = target(ctx, req, true);
    const { schema } = await readIpc(req.body, ctx.config.ipcBodyLimit, 'InvalidSchema', false);
    await t.table.create(schema);
    return { table_id: t.tableId };
  });

  app.post('/api/table/v2/sdk/alter', { schema: { tags, summary: 'Replace the schema (rename through batch metadata `rename`)' } }, async (req) => {
    const t = target(ctx, req, true);
    await schemaOrNoTable(t.table);
    const { schema, metadata } = await readIpc(req.body, ctx.config.ipcBodyLimit, 'InvalidSchema', false);
    await t.table.alter(withRenames(schema, renamesOf(metadata)));
    return { table_id: t.tableId };
  });

  app.post('/api/table/v2/drop', { schema: { tags, summary: 'Remove the schema and all rows' } }, async (req) => {
    const t = target(ctx, req, true);
    await schemaOrNoTable(t.table);
    await t.table.drop();
    return { table_id: t.tableId };
  });

  app.post('/api/table/v2/truncate', { schema: { tags, summary: 'Remove every row' } }, async (req) => {
    const t = target(ctx, req, true);
    await schemaOrNoTable(t.table);
    await t.table.truncate();
    return { table_id: t.tableId };
  });

  app.post('/api/table/v2/stats', { schema: { tags, summary: 'Rows, bytes and per-column statistics' } }, async (req, reply) => {
    const t = target(ctx, req, false);
    await schemaOrNoTable(t.table);
    reply.type('application/json');
    return JSON.stringify(await t.table.stats(), jsonSafe);
  });
}

/** `{new_name: old_name}` from the `rename` metadata of the alter body's batches. */
function renamesOf(metadata: ReadonlyMap<string, string>[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of metadata) {
    const text = m.get('rename');
    if (text === undefined) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw badRequest(`batch metadata rename must be a JSON object {new_name: old_name}, got ${text.slice(0, 200)}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'string')) {
      throw badRequest('batch metadata rename must map new column names to old column names (strings)');
    }
    for (const [k, v] of Object.entries(parsed as Record<string, string>)) out.set(k, v);
  }
  return out;
}

/** The schema with `prev_name` metadata on each renamed field (the engine's rename form). */
function withRenames(schema: Schema, renames: Map<string, string>): Schema {
  if (renames.size === 0) return schema;
  for (const name of renames.keys()) {
    if (!schema.fields.some((f) => f.name === name)) throw badRequest(`rename names column "${name}", which the new schema does not have`);
  }
  const fields = schema.fields.map((f) => {
    const old = renames.get(f.name);
    return old === undefined ? f : new Field(f.name, f.type, f.nullable, new Map([...f.metadata, ['prev_name', old]]));
  });
  return new Schema(fields, schema.metadata);
}

export { NoTable };
