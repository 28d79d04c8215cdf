// Which reader a file needs: by magic bytes (Parquet, FlatGeobuf), else CSV.
import type { StoreContext } from '../context.js';
import type { RawRecord } from '../raw/entry.js';
import { CsvSource } from './csv/source.js';
import { FgbSource } from './fgb/source.js';
import { ParquetSource } from './parquet/source.js';
import type { FileSource } from './source.js';

/** The formats ingest reads. */
export type FileFormat = 'parquet' | 'csv' | 'flatgeobuf';

/** The format of a stored file from its first bytes (CSV when no magic number matches). */
export async function detectFormat(ctx: StoreContext, file: RawRecord): Promise<FileFormat> {
  const head = new Uint8Array(Math.min(8, file.size));
  await ctx.blobs.read(file.file, 0, head);
  if (startsWith(head, PAR1) && file.size >= 12) return 'parquet';
  if (startsWith(head, FGB)) return 'flatgeobuf';
  return 'csv';
}

/** A reader of `file` in `format`. */
export function openSource(ctx: StoreContext, file: RawRecord, format: FileFormat): FileSource {
  switch (format) {
    case 'parquet':
      return new ParquetSource(ctx, file);
    case 'flatgeobuf':
      return new FgbSource(ctx, file);
    case 'csv':
      return new CsvSource(ctx, file);
  }
}

const PAR1 = [0x50, 0x41, 0x52, 0x31]; // "PAR1"
const FGB = [0x66, 0x67, 0x62, 0x03]; // "fgb" + major version 3

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}
