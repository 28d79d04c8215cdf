// The STAC API's errors: a stable code, the HTTP status it maps to, and a description saying what to fix.

/** Stable codes; the body of every STAC error response is `{code, description}`. */
export type StacErrorCode = 'InvalidParameter' | 'InvalidRequest' | 'NotFound' | 'UnsupportedMediaType';

const STATUS: Record<StacErrorCode, number> = {
  InvalidParameter: 400,
  InvalidRequest: 400,
  NotFound: 404,
  UnsupportedMediaType: 415,
};

/**
 * A client error of the STAC API.
 * @example
 * throw new StacError('InvalidParameter', 'limit must be an integer ≥ 1, got 0', { parameter: 'limit' });
 */
export class StacError extends Error {
  override readonly name = 'StacError';
  readonly code: StacErrorCode;
  /** The request parameter (query or body field) at fault, when there is one. */
  readonly parameter?: string;

  constructor(code: StacErrorCode, description: string, context: { parameter?: string } = {}) {
    super(description);
    this.code = code;
    if (context.parameter !== undefined) this.parameter = context.parameter;
  }

  get status(): number {
    return STATUS[this.code];
  }
}

/** A 400 about one parameter; the message is prefixed with the parameter's name. */
export function invalid(parameter: string, message: string): StacError {
  return new StacError('InvalidParameter', `${parameter}: ${message}`, { parameter });
}
