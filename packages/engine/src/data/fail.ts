// Errors of insert-data conversion: a RowError inside converters, an InvalidData for the caller.
import { HaloclineError } from '../errors.js';

/**
 * Thrown by the column converters on the first bad value; the caller adds the column and the
 * row offset of the chunk, and turns it into an InvalidData error.
 */
export class RowError extends Error {
  constructor(
    /** Zero-based row within the converted chunk. */
    readonly row: number,
    message: string,
    readonly value?: unknown,
  ) {
    super(message);
  }
}

/** What the caller of `toRecordBatches` passed along to put in errors. */
export interface DataContext {
  readonly table?: string;
}

/** The InvalidData error for `column` at `row` (both optional), e.g. `row 12, column "depth": ...`. */
export function invalidData(ctx: DataContext, message: string, where: { row?: number; column?: string; value?: unknown }): HaloclineError {
  const at = [where.row === undefined ? '' : `row ${where.row}`, where.column === undefined ? '' : `column "${where.column}"`]
    .filter((s) => s !== '')
    .join(', ');
  const context: Record<string, unknown> = { ...ctx };
  if (where.row !== undefined) context.row = where.row;
  if (where.column !== undefined) context.column = where.column;
  if (where.value !== undefined) context.value = where.value;
  return new HaloclineError('InvalidData', at === '' ? message : `${at}: ${message}`, context);
}

/** `expected <type>, got <value>` for a value of the wrong JS type. */
export function expected(row: number, type: string, value: unknown, accepts?: string): RowError {
  return new RowError(row, `expected ${type}${accepts ? ` (${accepts})` : ''}, got ${describeValue(value)}`, value);
}

/** The error for a null or missing value in a non-nullable column. */
export function missing(row: number, value: unknown): RowError {
  const what = value === undefined ? 'missing value' : 'null';
  return new RowError(row, `${what} in a non-nullable column`, value);
}

/** A value as messages show it: `string "abc"`, `number 1.5`, `bigint 9007199254740993n`, `Date 2024-...`. */
export function describeValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return `string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
    case 'number':
    case 'boolean':
      return `${typeof v} ${String(v)}`;
    case 'bigint':
      return `bigint ${v}n`;
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'function';
    case 'symbol':
      return 'symbol';
    default:
      if (v === null) return 'null';
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'invalid Date' : `Date ${v.toISOString()}`;
      if (Array.isArray(v)) return `array of length ${v.length}`;
      if (ArrayBuffer.isView(v)) return `${v.constructor.name} of ${v.byteLength} bytes`;
      return (v as object).constructor?.name ? `${(v as object).constructor.name} object` : 'object';
  }
}
