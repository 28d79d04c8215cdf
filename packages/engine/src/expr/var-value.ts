// Turns one bind-variable value (plain JSON, bigint, Date, or a typed {type, value}) into a literal.
import type { Literal } from './ast.js';
import { type Where, typeError } from './fail.js';
import { dateToNs, parseDatetime, parseTime } from './temporal.js';

type TypedVarType = 'string' | 'integer' | 'float' | 'boolean' | 'datetime' | 'date' | 'time';

/**
 * The literal for a bind value. Plain values map by their JS type (an integral safe number is an
 * integer); typed objects `{type, value}` follow the clients' wire form, including one client's
 * `{type: 'integer', value: true}` for booleans. Temporal values become nanoseconds since the epoch.
 */
export function literalOf(value: unknown, where: Where, query: string): Literal {
  const fail = (why: string): never => {
    throw typeError(query, where, `bind variable ${where.token} at ${where.pos}: ${why}`);
  };
  if (isTypedVar(value)) return value.value === null ? { type: 'null', value: null } : typed(value.type, value.value, fail);
  return plain(value, fail);
}

function plain(value: unknown, fail: (why: string) => never): Literal {
  if (value === null) return { type: 'null', value: null };
  switch (typeof value) {
    case 'boolean':
      return { type: 'bool', value };
    case 'bigint':
      return { type: 'int', value };
    case 'number':
      return Number.isSafeInteger(value) ? { type: 'int', value: BigInt(value) } : { type: 'float', value };
    case 'string':
      return { type: 'string', value };
    default:
      if (value instanceof Date) return { type: 'datetime', value: dateToNs(value) ?? fail('invalid Date') };
      return fail(`unsupported value ${describe(value)}; use a number, string, boolean, null or {type, value}`);
  }
}

const TYPED: Readonly<Record<TypedVarType, (v: unknown, fail: (why: string) => never) => Literal>> = {
  string: (v, fail) => (typeof v === 'string' ? { type: 'string', value: v } : fail(`expected a string value, got ${describe(v)}`)),
  integer: (v, fail) => {
    if (typeof v === 'boolean') return { type: 'bool', value: v };
    if (typeof v === 'bigint') return { type: 'int', value: v };
    if (typeof v === 'number' && Number.isInteger(v)) return { type: 'int', value: BigInt(v) };
    if (typeof v === 'string' && /^[+-]?\d+$/.test(v.trim())) return { type: 'int', value: BigInt(v.trim()) };
    return fail(`expected an integer value, got ${describe(v)}`);
  },
  float: (v, fail) => {
    if (typeof v === 'number' || typeof v === 'bigint') return { type: 'float', value: Number(v) };
    const text = typeof v === 'string' ? v.trim() : '';
    const n = Number(text);
    return text !== '' && (!Number.isNaN(n) || text === 'NaN') ? { type: 'float', value: n } : fail(`expected a float value, got ${describe(v)}`);
  },
  boolean: (v, fail) => {
    if (typeof v === 'boolean') return { type: 'bool', value: v };
    if (v === 'true' || v === 'false') return { type: 'bool', value: v === 'true' };
    return fail(`expected a boolean value, got ${describe(v)}`);
  },
  datetime: (v, fail) => ({ type: 'datetime', value: instant(v, false) ?? fail(`expected an ISO 8601 date-time, got ${describe(v)}`) }),
  date: (v, fail) => ({ type: 'datetime', value: instant(v, true) ?? fail(`expected an ISO 8601 date, got ${describe(v)}`) }),
  time: (v, fail) => ({ type: 'time', value: (typeof v === 'string' ? parseTime(v) : null) ?? fail(`expected an ISO 8601 time, got ${describe(v)}`) }),
};

function typed(type: string, value: unknown, fail: (why: string) => never): Literal {
  const convert = Object.hasOwn(TYPED, type) ? TYPED[type as TypedVarType] : undefined;
  if (convert === undefined) return fail(`unknown type '${type}'; expected one of ${Object.keys(TYPED).join(', ')}`);
  return convert(value, fail);
}

function instant(v: unknown, dateOnly: boolean): bigint | null {
  if (v instanceof Date) return dateToNs(v);
  if (typeof v !== 'string') return null;
  if (dateOnly && !/^\s*\d{4}-\d{2}-\d{2}\s*$/.test(v)) return null;
  return parseDatetime(v);
}

function isTypedVar(v: unknown): v is { type: string; value: unknown } {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Date) return false;
  return Object.hasOwn(v, 'value') && typeof (v as { type?: unknown }).type === 'string';
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'object' && v !== null) return Array.isArray(v) ? 'an array' : 'an object';
  return String(v);
}
