// Tabular paths that are raw file paths too: /schema and /stage (files named so) and /stage/{id} (the
// file "stage/{id}", or with id "metadata" the metadata of the file "stage": files/paths decides). The
// router prefers these fixed paths to the file routes' `:name`, `:name/metadata` and `*`, so on a raw
// dataset their handlers hand the request over.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerFilePath } from '../files/routes.js';
import { roundedBody } from '../http/body.js';
import type { AppContext } from '../http/context.js';
import { datasetOf, storageClassOf } from '../http/datasets.js';

type Handler<R extends FastifyRequest> = (req: R, reply: FastifyReply) => Promise<unknown>;

/**
 * `tabular`, except on a raw dataset, where the request is answered as the file routes answer the
 * same method and path: `segments` is the path after the dataset, each segment decoded; with no file
 * route for the method, 404 as for any path without a route.
 * @example
 * app.get(`${p}/schema`, opts, fileOnRaw(ctx, () => ['schema'], readSchema))
 */
export function fileOnRaw<R extends FastifyRequest>(ctx: AppContext, segments: (req: R) => readonly string[], tabular: Handler<R>): Handler<R> {
  return async (req, reply) => {
    if (storageClassOf(ctx, datasetOf(ctx, req)) !== 'raw') return tabular(req, reply);
    return answerFilePath(ctx, roundedBody(req), reply, segments(req)); // the file routes read JSON as JSON.parse does
  };
}
