// Small field checks that throw a 400 naming the field.
import { badRequest } from '../../errors.js';

/** Thrown for an invalid manifest: 400 `InvalidManifest` with the field path in the message. */
export function invalid(field: string, message: string): Error {
  return badRequest(`${field}: ${message}`, 'InvalidManifest');
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function object(v: unknown, field: string): Record<string, unknown> {
  if (!isObject(v)) throw invalid(field, `expected an object, got ${show(v)}`);
  return v;
}

export function string(v: unknown, field: string, opts: { pattern?: RegExp; hint?: string; max?: number } = {}): string {
  if (typeof v !== 'string') throw invalid(field, `expected a string, got ${show(v)}`);
  if (v.length > (opts.max ?? 10_000)) throw invalid(field, `longer than ${opts.max ?? 10_000} characters`);
  if (opts.pattern && !opts.pattern.test(v)) throw invalid(field, `${show(v)} does not match ${opts.hint ?? opts.pattern.source}`);
  return v;
}

export function optionalString(v: unknown, field: string): string | undefined {
  return v === undefined || v === null ? undefined : string(v, field);
}

export function stringArray(v: unknown, field: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw invalid(field, `expected an array of strings, got ${show(v)}`);
  v.forEach((x, i) => string(x, `${field}[${i}]`));
  return v as string[];
}

export function stringMap(v: unknown, field: string): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  const o = object(v, field);
  for (const [k, x] of Object.entries(o)) string(x, `${field}.${k}`);
  return o as Record<string, string>;
}

export function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
