// Body parsing: JSON (empty body = undefined), form bodies, and raw streams passed through for uploads.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isInteger, isSafeNumber, parse as parseLossless } from 'lossless-json';
import { ApiError } from '../errors.js';
import { roundedJson } from '../exact-json.js';
import { MAX_JSON_DEPTH, deeperThan } from './json-depth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes an application/x-www-form-urlencoded body (up to 64 KiB), as URLSearchParams. */
    formBody?: boolean;
  }
}

/** Largest form body read (the OAuth token endpoint's few fields). */
const FORM_LIMIT = 64 * 1024;

/** The body of a form sent to a route that takes none: not read. */
const UNREAD_FORM: unique symbol = Symbol('unread form body');

/** Installs the content-type parsers. */
export function installBodyParsers(app: FastifyInstance): void {
  installJsonParser(app);
  // a form body is read only for a route that takes one; any other route gets it unread and refuses it
  // like any body it does not take (its own 415, whatever the size)
  app.addContentTypeParser('application/x-www-form-urlencoded', (req, payload, done) => {
    if (req.routeOptions.config.formBody === true) return readForm(req, payload, done);
    payload.resume();
    done(null, UNREAD_FORM);
  });
  // uploads (application/octet-stream and anything else) reach the route as the request stream
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
}

/**
 * Parses application/json bodies (empty = undefined; nesting bounded; a 400 saying where the text is
 * wrong). JSON.parse reads an integer beyond 2^53 as the nearest double, which is another integer: the
 * top-level fields named in `exact`, or with `'body'` the whole body, are read again without that
 * rounding, such integers as bigints (only when the text has an integer of 16 digits or more, as every
 * such integer has). Called again in a scope, it replaces the parser there.
 * @example
 * installJsonParser(scope, ['vars']); // {"vars": {"id": 9007199254740993}} → vars.id === 9007199254740993n
 * installJsonParser(scope, 'body'); // {"data": [{"id": 9007199254740993}]} → data[0].id === 9007199254740993n
 */
export function installJsonParser(app: FastifyInstance, exact: readonly string[] | 'body' = []): void {
  const json = app.getDefaultJsonParser('error', 'error');
  if (app.hasContentTypeParser('application/json')) app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    // every walk over the parsed value (validation, messages, LMDB's encoder) recurses
    const deep = deeperThan(text, MAX_JSON_DEPTH);
    if (deep >= 0) return done(new ApiError(400, 'BadRequest', `the JSON body nests deeper than ${MAX_JSON_DEPTH} arrays and objects (at character ${deep})`), undefined);
    return json(req, text, (err, value) => {
      if (err) return done(invalidJson(text), undefined);
      if (exact.length === 0 || !LONG_INTEGER.test(text)) return done(null, value);
      let read: unknown;
      try {
        read = exactly(value, text, exact);
      } catch (e) {
        // JSON.parse takes the last of a repeated key; lossless-json refuses the object
        return done(new ApiError(400, 'BadRequest', `the JSON body could not be read exactly: ${(e as Error).message}; send each key of an object once`), undefined);
      }
      return done(null, read);
    });
  });
}

// `value` (JSON.parse's reading of `text`, already checked) with its fields `names` (or all of it) read without rounding
function exactly(value: unknown, text: string, names: readonly string[] | 'body'): unknown {
  if (names === 'body') return parseLossless(text, undefined, exactNumber);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const own = value as Record<string, unknown>;
  if (!names.some((n) => Object.hasOwn(own, n))) return value;
  const lossless = parseLossless(text, undefined, exactNumber) as Record<string, unknown>;
  for (const n of names) if (Object.hasOwn(own, n)) own[n] = lossless[n];
  return own;
}

// an integer token of 16 digits or more (a number stands after `[`, `:`, `,` or white space, and
// before `,`, `]`, `}` or white space; fractions and exponents do not match): floats' long digit runs
// do not cost a second, lossless reading
const LONG_INTEGER = /(?:^|[\s:,[])-?\d{16,}(?=$|[\s,\]}])/;

// an integer a double cannot hold as a bigint, any other number as JSON.parse reads it
function exactNumber(text: string): number | bigint {
  return isInteger(text) && !isSafeNumber(text) ? BigInt(text) : Number(text);
}

// the body of a form route as URLSearchParams; a 413 past FORM_LIMIT (the rest is not read)
function readForm(req: FastifyRequest, payload: Readable, done: (err: Error | null, body?: unknown) => void): void {
  if (Number(req.headers['content-length']) > FORM_LIMIT) return done(formTooLarge());
  const chunks: Buffer[] = [];
  let size = 0;
  const finish = (err: Error | null, body?: unknown): void => {
    payload.off('data', onData).off('end', onEnd).off('error', onError);
    done(err, body);
  };
  const onData = (chunk: Buffer | string): void => {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += b.length;
    if (size > FORM_LIMIT) return finish(formTooLarge());
    chunks.push(b);
  };
  const onEnd = (): void => finish(null, new URLSearchParams(Buffer.concat(chunks, size).toString('utf8')));
  const onError = (e: Error): void => finish(new ApiError(400, 'BadRequest', `the form body could not be read: ${e.message}`));
  payload.on('data', onData).on('end', onEnd).on('error', onError);
}

function formTooLarge(): ApiError {
  return new ApiError(413, 'PayloadTooLarge', `the form body is larger than the limit of ${FORM_LIMIT} bytes`);
}

// why Fastify's parser refused a body: a syntax error (JSON.parse says where), else a prototype-poisoning key
function invalidJson(text: string): ApiError {
  try {
    JSON.parse(text);
  } catch (e) {
    return new ApiError(400, 'BadRequest', `the body is not valid JSON: ${(e as Error).message}`);
  }
  return new ApiError(400, 'BadRequest', 'the JSON body has a "__proto__" or "constructor": {"prototype": …} key, which is refused');
}

/** The parsed JSON body of a request; 415 when the client sent something that is not JSON. */
export function jsonBody(req: FastifyRequest): unknown {
  const type = req.headers['content-type'];
  // media types are case-insensitive (RFC 9110 §8.3.1): Fastify parsed APPLICATION/JSON as JSON
  if (req.body instanceof Readable || (req.body !== undefined && !/json/i.test(type ?? ''))) {
    if (req.body instanceof Readable) req.body.resume();
    throw new ApiError(415, 'UnsupportedMediaType', `expected Content-Type application/json, got ${req.headers['content-type'] ?? 'none'}`);
  }
  return req.body;
}

/**
 * `req` with its JSON body as JSON.parse reads it: every bigint an exact parser made
 * (`installJsonParser(scope, 'body')`) is the nearest double. For handlers written for that reading in
 * such a scope (raw datasets' routes on the paths they share with tabular v1).
 */
export function roundedBody<R extends FastifyRequest>(req: R): R {
  req.body = roundedJson(req.body);
  return req;
}

/** A positive integer query parameter, or `fallback` when absent; 400 when malformed or out of range. */
export function intParam(v: unknown, name: string, fallback: number, max = 100_000): number {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new ApiError(400, 'BadRequest', `query parameter ${name} must be an integer from 1 to ${max}, got ${JSON.stringify(v)}`);
  return n;
}

/**
 * A boolean query parameter, or `fallback` when absent or empty: `true`/`false` in any case (Python's
 * `requests` writes `True`/`False`, R's httr2 `TRUE`/`FALSE`) or `1`/`0`; 400 for anything else.
 * @example
 * boolParam(req.query.overwrite, 'overwrite', false) // ?overwrite=False → false, ?overwrite=1 → true
 */
export function boolParam(v: unknown, name: string, fallback: boolean): boolean {
  if (v === undefined || v === '') return fallback;
  if (typeof v === 'boolean') return v;
  const word = typeof v === 'string' ? v.toLowerCase() : undefined;
  if (word === 'true' || word === '1') return true;
  if (word === 'false' || word === '0') return false;
  throw new ApiError(400, 'BadRequest', `query parameter ${name} must be true or false (any case) or 1 or 0, got ${JSON.stringify(v)}`);
}
