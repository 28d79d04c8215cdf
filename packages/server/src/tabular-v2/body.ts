// The JSON bodies of select, replace and aggregate: checked field by field, 400 saying which is wrong.
import { badRequest } from '../errors.js';
import { jsonBody } from '../http/body.js';
import type { FastifyRequest } from 'fastify';

/** `{query, cols, cursor, vars, timeout}` of select and replace. */
export interface SelectBody {
  readonly query?: string;
  readonly cols?: string[];
  readonly cursor?: string;
  readonly vars?: Record<string, unknown> | unknown[];
  /** Seconds. */
  readonly timeout: number;
}

/** `{query, by, aggr, vars}` of aggregate. */
export interface AggregateBody {
  readonly query?: string;
  readonly by: string;
  readonly aggr?: Record<string, 'sum' | 'min' | 'max' | 'count' | 'mean' | 'avg'>;
  readonly vars?: Record<string, unknown> | unknown[];
}

const SCHEMA_FETCH = /^\s*(["'])fetch\1\s*={1,2}\s*(["'])schema\2\s*$/;

/** True for the schema-fetch query `"fetch" == "schema"`. */
export const isSchemaFetch = (query: string | undefined): boolean => query !== undefined && SCHEMA_FETCH.test(query);

/** The select body; absent fields are defaults (timeout 30 s). */
export function selectBody(req: FastifyRequest): SelectBody {
  const b = object(jsonBody(req));
  const cols = b.cols ?? undefined;
  if (cols !== undefined && (!Array.isArray(cols) || cols.some((c) => typeof c !== 'string'))) throw badRequest('cols must be a list of column names');
  const timeout = b.timeout ?? 30;
  if (typeof timeout !== 'number' || !(timeout >= 0)) throw badRequest(`timeout must be a non-negative number of seconds, got ${JSON.stringify(timeout)}`);
  return { query: optString(b.query, 'query'), cols: cols as string[] | undefined, cursor: optString(b.cursor, 'cursor'), vars: vars(b.vars), timeout };
}

/** The aggregate body; `by` defaults to the single group 'TOTAL', an empty `aggr` to the columns' metadata. */
export function aggregateBody(req: FastifyRequest): AggregateBody {
  const b = object(jsonBody(req));
  const by = optString(b.by, 'by');
  const aggr = b.aggr ?? undefined;
  if (aggr !== undefined && (typeof aggr !== 'object' || Array.isArray(aggr))) throw badRequest('aggr must be an object mapping a column to sum, min, max, count, mean or avg');
  const empty = aggr === undefined || Object.keys(aggr as object).length === 0;
  return {
    query: optString(b.query, 'query'),
    by: by === undefined || by.trim() === '' || by === 'TOTAL' ? "'TOTAL'" : by,
    aggr: empty ? undefined : (aggr as AggregateBody['aggr']),
    vars: vars(b.vars),
  };
}

function object(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body must be a JSON object');
  return body as Record<string, unknown>;
}

function optString(v: unknown, name: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw badRequest(`${name} must be a string, got ${JSON.stringify(v)}`);
  return v;
}

function vars(v: unknown): SelectBody['vars'] {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object') throw badRequest('vars must be an object (for $name) or a list (for ?)');
  return v as SelectBody['vars'];
}
