// FlatGeobuf ingest through the flatgeobuf package, streamed feature by feature: the geometry
// becomes a binary `class: geometry` column (WKB), the properties become columns typed by the header.
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Binary, Bool, type DataType, Field, Float32, Float64, Int8, Int16, Int32, Int64, Schema, TimestampMillisecond, Uint8, Uint16, Uint32, Uint64, Utf8 } from 'apache-arrow';
import type { HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js';
import { deserialize } from 'flatgeobuf/lib/mjs/geojson.js';
import type { StoreContext } from '../../context.js';
import { rowsToBatch } from '../../data/from-rows.js';
import { HaloclineError } from '../../errors.js';
import type { RawRecord } from '../../raw/entry.js';
import { geoJsonToWkb } from '../../geo/parse.js';
import type { FileSource, SourceBatch } from '../source.js';

/** Features per batch handed to ingest. */
const CHUNK_ROWS = 1 << 14;

/** Reads a stored FlatGeobuf file. */
export class FgbSource implements FileSource {
  private fileSchema: Promise<Schema> | undefined;

  constructor(
    private readonly ctx: StoreContext,
    private readonly file: RawRecord,
  ) {}

  async names(): Promise<string[]> {
    return (await this.schema()).fields.map((f) => f.name);
  }

  schema(): Promise<Schema> {
    this.fileSchema ??= this.readHeader();
    return this.fileSchema;
  }

  async *batches(): AsyncGenerator<SourceBatch> {
    const schema = await this.schema();
    const geometry = schema.fields[0]!.name;
    let rows: Record<string, unknown>[] = [];
    let bytes = 0;
    const input = this.ctx.blobs.stream(this.file.file);
    input.on('data', (c: Buffer) => (bytes += c.length));
    for await (const item of deserialize(Readable.toWeb(input) as unknown as ReadableStream)) {
      const feature = item as unknown as GeoJsonLike;
      const row: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(feature.properties ?? {})) row[k] = isJson(v) ? JSON.stringify(v) : v;
      row[geometry] = feature.geometry ? geoJsonToWkb(feature.geometry) : null;
      rows.push(row);
      if (rows.length >= CHUNK_ROWS) {
        yield { batch: rowsToBatch(schema, rows, {}), bytes };
        rows = [];
      }
    }
    if (rows.length > 0) yield { batch: rowsToBatch(schema, rows, {}), bytes };
  }

  async close(): Promise<void> {}

  private async readHeader(): Promise<Schema> {
    let header: HeaderMeta | undefined;
    const input = this.ctx.blobs.stream(this.file.file);
    try {
      const features = deserialize(Readable.toWeb(input) as WebReadableStream as unknown as ReadableStream, { headerMetaFn: (h: HeaderMeta) => (header = h) });
      await features.next();
      await features.return(undefined);
    } catch (e) {
      throw new HaloclineError('InvalidData', `not a readable FlatGeobuf file: ${(e as Error).message}`, { path: this.file.name });
    } finally {
      input.destroy();
    }
    if (!header) throw new HaloclineError('InvalidData', 'not a readable FlatGeobuf file: no header', { path: this.file.name });
    const columns = header.columns ?? [];
    const names = new Set(columns.map((c) => c.name));
    const geometry = names.has('geometry') ? '_geometry' : 'geometry';
    return new Schema([
      new Field(geometry, new Binary(), true, new Map([['class', 'geometry']])),
      ...columns.map((c) => new Field(c.name, columnType(c.type), true)),
    ]);
  }
}

// A feature as the geojson deserializer yields it (its `geojson` types are not a dependency).
interface GeoJsonLike {
  readonly properties?: Readonly<Record<string, unknown>> | null;
  readonly geometry?: object | null;
}

// a Json column's parsed value goes back to text
function isJson(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !(v instanceof Uint8Array);
}

// FlatGeobuf column types (ColumnType enum order) to Arrow types.
const types: readonly (() => DataType)[] = [
  () => new Int8(),
  () => new Uint8(),
  () => new Bool(),
  () => new Int16(),
  () => new Uint16(),
  () => new Int32(),
  () => new Uint32(),
  () => new Int64(),
  () => new Uint64(),
  () => new Float32(),
  () => new Float64(),
  () => new Utf8(),
  () => new Utf8(), // Json, as its text
  () => new TimestampMillisecond(), // DateTime, ISO-8601 text in the file
  () => new Binary(),
];

function columnType(type: number): DataType {
  return (types[type] ?? (() => new Utf8()))();
}
