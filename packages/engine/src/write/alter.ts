// Alter: a new schema for a table, its data re-written under it; the old data goes only if all of it converts.
import { type Data, Field, RecordBatch, Schema, Struct, makeData } from 'apache-arrow';
import type { StoreContext } from '../context.js';
import { castData } from '../data/cast/cast.js';
import { castText } from '../data/cast/text.js';
import { type FieldCast, conformBatch } from '../data/from-batch.js';
import { castGeometry } from '../geo/cast.js';
import { checkSpatial } from '../geo/validate.js';
import { HaloclineError, isHaloclineError } from '../errors.js';
import { loadColumn } from '../read/load.js';
import { scanBatches } from '../read/execute.js';
import { plan } from '../read/plan.js';
import { type Snapshot, liveRows, openSnapshot } from '../read/snapshot.js';
import { type PartRecord, type TableRecord, tableKey } from '../storage/records.js';
import { encodeSchema } from '../schema/serialize.js';
import { normalizeSchema } from '../schema/validate.js';
import { commit } from './commit.js';
import { type WrittenPart, removeParts, sliceColumns, writePart } from './partition.js';

/** The schema to store and, per new column, the old column it is read from (null: a new column). */
export interface AlterPlan {
  readonly schema: Schema;
  readonly sources: readonly (string | null)[];
}

/** Attempts of an alter whose table changed (new rows, compaction) while it rewrote it, schema unchanged. */
const ALTER_ATTEMPTS = 5;

/**
 * Re-writes every partition of table `name` under `schema` and commits schema and data in one
 * version. Fails with InvalidSchema (bad mapping), InvalidData (a value that does not convert: the
 * row counts across the table in row order) or Conflict (another alter changed the schema
 * meanwhile, or the table kept changing); on failure the table is exactly as it was. When other
 * commits (inserts, deletes, the background compaction of earlier inserts) changed the table but
 * not its schema while it was rewritten, the alter starts again from the table as it is then.
 */
export async function alterTable(ctx: StoreContext, name: string, schema: Schema): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const schemaVersion = await alterOnce(ctx, name, schema);
    if (schemaVersion === null) return;
    const now = ctx.meta.get<TableRecord>(tableKey(name));
    if (attempt === ALTER_ATTEMPTS || (now?.schemaVersion ?? 0) !== schemaVersion) {
      throw new HaloclineError('Conflict', `table "${name}" changed during alter; retry the alter`, { table: name });
    }
  }
}

// one attempt: null when committed, else (the table changed meanwhile) the schema version it started from
async function alterOnce(ctx: StoreContext, name: string, schema: Schema): Promise<number | null> {
  const started = performance.now();
  const snap = openSnapshot(ctx, name);
  const written: (WrittenPart & { seq: number })[] = [];
  const schemaVersion = snap.record.schemaVersion ?? 0;
  try {
    const empty = snap.parts.every((p) => liveRows(snap, p) === 0);
    const plan = planAlter(snap.schema, normalizeSchema(schema, { table: name }), name, empty);
    let firstRow = 0;
    for (const part of snap.parts) {
      const present = plan.schema.fields.flatMap((f, i) => (plan.sources[i] ? [{ name: f.name, source: plan.sources[i]! }] : []));
      const { data, rows } = await liveColumns(ctx, snap, part, present.map((c) => c.source));
      if (rows === 0) continue;
      const source = batchOf(present.map((c, i) => new Field(c.name, data[i]!.type, true)), data, rows);
      const converted = conformBatch(plan.schema, source, { table: name }, firstRow, alterCast);
      checkSpatial(plan.schema, [converted], { table: name }, firstRow);
      written.push({ ...(await writePart(ctx, snap.record.id, plan.schema, converted.data.children)), seq: part.seq });
      firstRow += rows;
    }
    const encoded = Buffer.from(encodeSchema(plan.schema)).toString('base64');
    await commit(ctx, name, snap.record.id, { add: written, remove: snap.parts, schemaVersion, alter: { schema: encoded, baseVersion: snap.record.version }, trace: { kind: 'alter', started } });
    return null;
  } catch (e) {
    await removeParts(ctx, written);
    if (isHaloclineError(e, 'Conflict')) return schemaVersion;
    throw e;
  } finally {
    snap.release();
  }
}

/**
 * Maps the new schema's columns to the old ones: through `prev_name` (a rename), else by name; a
 * column with neither is new and must be nullable unless the table has no rows (`empty`).
 * `prev_name` is consumed; a renamed column keeps (or gains) `ingest_name` = its old name, so files
 * ingested before still land in it.
 */
export function planAlter(old: Schema, next: Schema, table: string, empty = false): AlterPlan {
  const used = new Map<string, string>();
  const sources = next.fields.map((f) => {
    const prev = f.metadata.get('prev_name');
    const source = prev ?? (old.fields.some((o) => o.name === f.name) ? f.name : null);
    if (prev !== undefined && !old.fields.some((o) => o.name === prev)) {
      throw new HaloclineError('InvalidSchema', `column "${f.name}" has prev_name "${prev}", but the table has no column "${prev}"`, { table, column: f.name });
    }
    if (source === null && !f.nullable && !empty) {
      throw new HaloclineError('InvalidSchema', `new column "${f.name}" must be nullable: existing rows have no value for it`, { table, column: f.name });
    }
    if (source !== null) {
      const other = used.get(source);
      if (other) throw new HaloclineError('InvalidSchema', `columns "${other}" and "${f.name}" both come from column "${source}"`, { table, column: f.name });
      used.set(source, f.name);
    }
    return source;
  });
  const fields = next.fields.map((f, i) => {
    const metadata = new Map(f.metadata);
    metadata.delete('prev_name');
    const source = sources[i];
    if (source && source !== f.name && !metadata.has('ingest_name')) {
      metadata.set('ingest_name', old.fields.find((o) => o.name === source)!.metadata.get('ingest_name') ?? source);
    }
    return new Field(f.name, f.type, f.nullable, metadata);
  });
  return { schema: new Schema(fields, next.metadata), sources };
}

// geometry re-encoded (WKT ↔ WKB), else the insert path's casts, then text parsed or formatted (an
// ingested CSV column of ISO strings becomes a timestamp)
const alterCast: FieldCast = (data, to) => castGeometry(data, to) ?? castData(data, to.type) ?? castText(data, to.type);

// the named columns of a partition without its deleted rows
async function liveColumns(ctx: StoreContext, snap: Snapshot, part: PartRecord, names: readonly string[]): Promise<{ data: Data[]; rows: number }> {
  if (!snap.deleted.has(part.id)) return { data: await Promise.all(names.map((n) => loadColumn(ctx, part, n, false))), rows: part.rows };
  const batches: RecordBatch[] = [];
  const cols = [...new Set(names)];
  for await (const b of scanBatches(ctx, { ...snap, parts: [part] }, plan(snap.schema, snap.record.name, undefined, { cols }))) batches.push(b);
  const rows = batches.reduce((n, b) => n + b.numRows, 0);
  const sliced = sliceColumns(new Schema(cols.map((c) => snap.schema.fields.find((f) => f.name === c)!)), batches, 0, rows);
  return { data: names.map((n) => sliced[cols.indexOf(n)]!), rows };
}

function batchOf(fields: Field[], children: Data[], length: number): RecordBatch {
  const schema = new Schema(fields);
  return new RecordBatch(schema, makeData({ type: new Struct(fields), length, nullCount: 0, children }));
}
