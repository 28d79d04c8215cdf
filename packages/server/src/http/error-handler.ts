// The one place errors become HTTP answers: JSON {code, description} with a 4xx, or a logged 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, fromEngineError } from '../errors.js';

/** Installs the error and not-found handlers. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | Error, req, reply) => {
    const api = err instanceof ApiError ? err : fromEngineError(err) ?? fromFastify(err as FastifyError, req);
    if (api) {
      if (api.status === 401) reply.header('www-authenticate', 'Bearer, ApiKey');
      return reply.status(api.status).send({ code: api.code, description: api.message, ...api.extra });
    }
    req.log.error({ err, reqId: req.id }, 'request failed');
    return reply.status(500).send({ code: 'Internal', description: `internal error (request id ${req.id})` });
  });
  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ code: 'NotFound', description: `no route ${req.method} ${req.url.split('?')[0]}` });
  });
}

/**
 * Fastify's `frameworkErrors` option: errors its router raises before any hook runs (a path with
 * malformed percent-encoding, a path segment over `maxParamLength`), answered in the same
 * `{code, description}` shape as every other error.
 */
export function frameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', req.id);
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.status(414).send({ code: 'UriTooLong', description: `a path segment of ${req.method} ${shortPath(req.url)} is longer than ${MAX_PARAM_LENGTH} characters` });
    return;
  }
  if (err.code === 'FST_ERR_BAD_URL') {
    void reply.status(400).send({ code: 'BadRequest', description: `the path of ${req.method} ${shortPath(req.url)} holds malformed percent-encoding` });
    return;
  }
  void reply.status(400).send({ code: 'BadRequest', description: err.message });
}

/** Longest path segment (a route parameter) the router accepts. */
export const MAX_PARAM_LENGTH = 1024;

const shortPath = (url: string): string => {
  const path = url.split('?')[0]!;
  return path.length > 120 ? `${path.slice(0, 120)}…` : path;
};

/** The 413 of a body over the route's limit, naming the limit. */
export function bodyTooLarge(req: FastifyRequest): ApiError {
  const limit = req.routeOptions.bodyLimit;
  const mib = limit >= 2 ** 20 ? ` (${Number((limit / 2 ** 20).toFixed(1))} MiB)` : '';
  return new ApiError(413, 'PayloadTooLarge', `the request body is larger than the limit${limit ? ` of ${limit} bytes${mib}` : ''}`);
}

/** Fastify's own client errors (bad JSON, body too large, unsupported media type, schema validation). */
function fromFastify(err: FastifyError, req: FastifyRequest): ApiError | undefined {
  const status = err.statusCode ?? 500;
  if (status === 413) return bodyTooLarge(req);
  if (status === 415) return new ApiError(415, 'UnsupportedMediaType', err.message);
  if (status === 404) return new ApiError(404, 'NotFound', err.message);
  if (status >= 400 && status < 500) return new ApiError(400, err.code === 'FST_ERR_VALIDATION' ? 'InvalidRequest' : 'BadRequest', err.message);
  return undefined;
}
