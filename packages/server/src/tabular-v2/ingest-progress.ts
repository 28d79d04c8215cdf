// Raw ingest with progress: by default one JSON answer (the Python and R clients' shape); with
// `Accept: application/x-ndjson` a line per progress step while the file is parsed, then the result.
import { Readable } from 'node:stream';
import type { IngestProgress } from '@halocline/engine';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, fromEngineError } from '../errors.js';

/** True when the request asks for progress lines. */
export const wantsProgress = (req: FastifyRequest): boolean => /application\/(x-)?ndjson/.test(req.headers.accept ?? '');

/**
 * Answers `run` as NDJSON: `{"rows","bytes","total_bytes"}` per progress step (only the newest while
 * the client is slower than the ingest), then `{"result": {...}}`, or `{"error", "code"}` when the
 * ingest failed after the first line. A failure before any progress is an ordinary error answer.
 */
export async function progressAnswer(reply: FastifyReply, run: (onProgress: (p: IngestProgress) => void) => Promise<unknown>): Promise<FastifyReply> {
  let latest: IngestProgress | null = null;
  let end: { result: unknown } | { error: unknown } | null = null;
  let wake: (() => void) | undefined;
  const signal = () => {
    wake?.();
    wake = undefined;
  };
  void run((p) => {
    latest = p;
    signal();
  }).then((result) => (end = { result }), (error: unknown) => (end = { error })).finally(signal);
  if (latest === null && end === null) await new Promise<void>((r) => (wake = r));
  if (latest === null && end !== null && 'error' in end) throw (end as { error: unknown }).error;
  async function* lines(): AsyncGenerator<string> {
    for (;;) {
      const p = latest as IngestProgress | null;
      latest = null;
      if (p) yield `${JSON.stringify({ rows: p.rows, bytes: p.bytes, total_bytes: p.totalBytes })}\n`;
      const e = end as { result: unknown } | { error: unknown } | null;
      if (e && latest === null) {
        if ('result' in e) yield `${JSON.stringify({ result: e.result })}\n`;
        else {
          const api = e.error instanceof ApiError ? e.error : fromEngineError(e.error);
          yield `${JSON.stringify({ error: api?.message ?? 'internal error', code: api?.code ?? 'Internal' })}\n`;
        }
        return;
      }
      if (latest === null) await new Promise<void>((r) => (wake = r));
    }
  }
  return reply.type('application/x-ndjson').send(Readable.from(lines()));
}
