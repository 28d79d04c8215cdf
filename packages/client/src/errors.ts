// HTTP answers that are errors: engine error codes come back as HaloclineError, the rest as ClientError.
import { HaloclineError, type ErrorCode } from '@halocline/engine';

/** An HTTP error that is not one of the engine's (auth, missing dataset, expired transaction...). */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const engineCodes = new Set<string>(['FileAlreadyExists', 'NotFound', 'InvalidSchema', 'InvalidData', 'InvalidArgument', 'QuerySyntax', 'QueryType', 'Conflict', 'Corrupt', 'Closed']);

/** The error for a failed response (its body already read as `text`). */
export function errorOf(status: number, text: string, codeHeader: string | null, what: string): Error {
  let code = codeHeader ?? '';
  let message = text;
  if (!codeHeader && text.startsWith('{')) {
    try {
      const body = JSON.parse(text) as { code?: string; description?: string };
      code = body.code ?? '';
      message = body.description ?? text;
    } catch {
      // plain text after all
    }
  }
  if (engineCodes.has(code)) return new HaloclineError(code as ErrorCode, message);
  if (status === 400 && !code) return new HaloclineError('InvalidArgument', message);
  return new ClientError(status, code || `HTTP${status}`, `${what}: ${status} ${message}`);
}
