// Mounts the STAC API (src/stac) on the app: the catalog store is its source; a token only when configured.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { stacPlugin } from '../stac/index.js';
import type { AppContext } from './context.js';

/** Registers `/api/stac` over `ctx.catalog`; public unless `config.stacRequiresAuth`. */
export async function mountStac(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const authenticate = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    try {
      req.principal = await ctx.authenticate(req);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      await reply.status(err.status).send({ code: err.code, description: err.message });
    }
  };
  await app.register(stacPlugin, {
    source: ctx.catalog,
    domain: ctx.config.domain,
    ...(ctx.config.stacRequiresAuth ? { authenticate } : {}),
  });
}
