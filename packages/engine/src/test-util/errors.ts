// Assertions on engine errors for tests: the error a call throws, checked for its code.
import { type ErrorCode, type HaloclineError, isHaloclineError } from '../errors.js';

/** The HaloclineError with `code` that `f` throws; anything else (or nothing) fails the test. */
export function thrown(code: ErrorCode, f: () => unknown): HaloclineError {
  try {
    f();
  } catch (e) {
    if (isHaloclineError(e, code)) return e;
    throw e;
  }
  throw new Error(`expected a ${code} error`);
}

/** The HaloclineError with `code` that `p` (or the promise `f` returns) rejects with. */
export async function rejected(code: ErrorCode, p: Promise<unknown> | (() => unknown)): Promise<HaloclineError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (isHaloclineError(e, code)) return e;
    throw e;
  }
  throw new Error(`expected a ${code} error`);
}
