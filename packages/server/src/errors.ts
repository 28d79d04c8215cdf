// The server's error family: a stable `code`, an HTTP status and a description saying what to fix.
import { isHaloclineError, type ErrorCode } from '@halocline/engine';

/** HTTP statuses the server answers errors with. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 416 | 500 | 503;

/**
 * An error a client caused or may act on; the error handler sends `{code, description}` with `status`.
 * @example
 * throw new ApiError(404, 'NotFound', `no dataset "${name}"`)
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    description: string,
    /** Extra body fields (e.g. OAuth's `error`). */
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(description);
  }
}

/** 400 with `code` BadRequest (or a more specific one). */
export const badRequest = (description: string, code = 'BadRequest'): ApiError => new ApiError(400, code, description);
export const notFound = (description: string): ApiError => new ApiError(404, 'NotFound', description);
export const conflict = (description: string): ApiError => new ApiError(409, 'Conflict', description);
export const forbidden = (description: string): ApiError => new ApiError(403, 'Forbidden', description);
export const unauthorized = (description: string): ApiError => new ApiError(401, 'Unauthorized', description);

const engineStatus: Record<ErrorCode, ErrorStatus> = {
  FileAlreadyExists: 409,
  NotFound: 404,
  InvalidSchema: 400,
  InvalidData: 400,
  InvalidArgument: 400,
  QuerySyntax: 400,
  QueryType: 400,
  Conflict: 409,
  Corrupt: 500,
  Closed: 500,
};

/** The ApiError for an engine error, or undefined for anything else. */
export function fromEngineError(e: unknown): ApiError | undefined {
  if (!isHaloclineError(e)) return undefined;
  const status = engineStatus[e.code];
  if (status === 500) return undefined;
  return new ApiError(status, e.code, e.message);
}
