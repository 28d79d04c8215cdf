// A request body that fails with the signal's reason when the signal aborts (a write cancelled by a delete).
import { finished, PassThrough, type Readable } from 'node:stream';

/**
 * `body`'s bytes through a stream that errors with `signal.reason` once `signal` aborts. Once that
 * stream ends early, the rest of `body` is read and discarded, so the error can still be answered.
 * @example
 * await store.upload(name, abortable(req.body, writeSignal(req)))
 */
export function abortable(body: Readable, signal: AbortSignal): Readable {
  const out = new PassThrough();
  // aborted before anyone reads: the reader that comes later finds the stream errored
  out.on('error', () => undefined);
  const abort = (): void => void out.destroy(signal.reason as Error);
  // however `out` ends (abort, or its reader failing), the rest of the body is drained
  out.once('close', () => {
    body.unpipe(out);
    if (!body.readableEnded) body.resume();
  });
  body.pipe(out);
  finished(body, (err) => {
    if (err) out.destroy(err);
  });
  if (signal.aborted) abort();
  else {
    signal.addEventListener('abort', abort, { once: true });
    out.once('close', () => signal.removeEventListener('abort', abort));
  }
  return out;
}
