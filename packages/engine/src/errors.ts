// The engine's one error family: a stable `code` plus the context a user needs to fix the problem.

/** Stable error codes; callers (and the server) switch on these, never on messages. */
export type ErrorCode =
  | 'FileAlreadyExists'
  | 'NotFound'
  | 'InvalidSchema'
  | 'InvalidData'
  | 'InvalidArgument'
  | 'QuerySyntax'
  | 'QueryType'
  | 'Conflict'
  | 'Corrupt'
  | 'Closed';

/** What the error is about; every field optional, filled where known. */
export interface ErrorContext {
  readonly table?: string;
  readonly column?: string;
  /** Zero-based index of the offending row within the inserted data. */
  readonly row?: number;
  /** Zero-based character offset in the query string. */
  readonly position?: number;
  /** The query token at `position`. */
  readonly token?: string;
  readonly query?: string;
  readonly value?: unknown;
  readonly path?: string;
}

/**
 * An engine error with a stable `code`.
 * @example
 * try { await t.create(schema) } catch (e) { if (isHaloclineError(e, 'FileAlreadyExists')) ... }
 */
export class HaloclineError extends Error implements ErrorContext {
  override readonly name = 'HaloclineError';
  readonly code: ErrorCode;
  readonly table?: string;
  readonly column?: string;
  readonly row?: number;
  readonly position?: number;
  readonly token?: string;
  readonly query?: string;
  readonly value?: unknown;
  readonly path?: string;

  constructor(code: ErrorCode, message: string, context: ErrorContext = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.assign(this, context);
  }

  /** A copy of this error with more context (fields already set win). */
  with(context: ErrorContext): HaloclineError {
    const merged: ErrorContext = { ...context, ...ownContext(this) };
    const e = new HaloclineError(this.code, this.message, merged, { cause: this.cause });
    e.stack = this.stack;
    return e;
  }
}

/** True when `e` is a HaloclineError (optionally with the given code). */
export function isHaloclineError(e: unknown, code?: ErrorCode): e is HaloclineError {
  return e instanceof HaloclineError && (code === undefined || e.code === code);
}

const contextKeys = ['table', 'column', 'row', 'position', 'token', 'query', 'value', 'path'] as const;

/** The context fields `e` has (undefined ones left out), e.g. to send it to another thread. */
export function ownContext(e: HaloclineError): ErrorContext {
  const out: Record<string, unknown> = {};
  for (const k of contextKeys) if (e[k] !== undefined) out[k] = e[k];
  return out as ErrorContext;
}
