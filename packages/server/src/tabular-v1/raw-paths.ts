// Tabular paths that are raw file paths too: /schema (a file named "schema") and /stage/{id} (with id
// "metadata": the metadata of a file named "stage"). The router prefers these fixed paths to the file
// routes' `:name` and `:name/metadata`, so on a raw dataset their handlers hand the request over.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors.js';
import { fileOps } from '../files/routes.js';
import { roundedBody } from '../http/body.js';
import type { AppContext } from '../http/context.js';
import { datasetOf, storageClassOf } from '../http/datasets.js';

type Handler<R extends FastifyRequest> = (req: R, reply: FastifyReply) => Promise<unknown>;

/**
 * `tabular`, except on a raw dataset, where the request is answered as the file routes answer the
 * same method and path: `segments` (the path after the dataset) is `[name]` or `[name, 'metadata']`;
 * with no file route for the method and path, 404 as for any path without a route.
 * @example
 * app.get(`${p}/schema`, opts, fileOnRaw(ctx, () => ['schema'], readSchema))
 */
export function fileOnRaw<R extends FastifyRequest>(ctx: AppContext, segments: (req: R) => readonly string[], tabular: Handler<R>): Handler<R> {
  return async (req, reply) => {
    if (storageClassOf(ctx, datasetOf(ctx, req)) !== 'raw') return tabular(req, reply);
    const [name, sub, ...rest] = segments(req);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const route = rest.length > 0 || (sub !== undefined && sub !== 'metadata') ? undefined : `${method} :name${sub === undefined ? '' : '/metadata'}`;
    const op = route !== undefined && Object.hasOwn(fileOps, route) ? fileOps[route as keyof typeof fileOps] : undefined;
    if (op === undefined || name === undefined) throw notFound(`no route ${req.method} ${req.url.split('?')[0]}`);
    return op(ctx, roundedBody(req), reply, name); // the file routes read JSON as JSON.parse does
  };
}
