// Raw file routes (v1): create entry, upload (streamed), download (Range, ETag), metadata, delete, list.
// A file name may hold `/`, sent encoded (`dir%2Fa.txt`) or as path segments (`dir/a.txt`): see paths.ts.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, badRequest, notFound } from '../errors.js';
import { boolParam, intParam, jsonBody } from '../http/body.js';
import type { AppContext } from '../http/context.js';
import { abortable } from '../http/abortable.js';
import { checkWrite, dataPrefixes, datasetOf, datasetWithClass, storageClassOf } from '../http/datasets.js';
import { writeSignal } from '../http/request-writes.js';
import { parseOqs } from '../oqs/index.js';
import { fileName, isMimeType, validateFilePatch } from './entry.js';
import { type FileRoute, fileTarget } from './paths.js';
import { parseRange } from './range.js';

type FileReq = FastifyRequest<{ Params: { ds: string; name: string }; Querystring: { overwrite?: string } }>;
const tags = ['raw files'];

/** A raw file operation on file `name` of the request's dataset, as its route answers it. */
type FileOp = (ctx: AppContext, req: FastifyRequest, reply: FastifyReply, name: string) => Promise<unknown>;

/** The raw file operations by route: `:name` and `:name/metadata` under a dataset prefix. */
const fileOps = {
  'GET :name': (ctx, req, reply, name) => download(ctx, req, reply, name),
  'PATCH :name': (ctx, req, reply, name) => upload(ctx, req as FileReq, reply, name),
  'DELETE :name': async (ctx, req, reply, name) => {
    const ds = datasetWithClass(ctx, req, 'raw', 'deleting a file');
    checkWrite(ctx, req, ds);
    await ctx.files.delete(ds.metadata.uuid, fileName(name));
    return reply.status(204).send();
  },
  'GET :name/metadata': async (ctx, req, _reply, name) => {
    const ds = datasetWithClass(ctx, req, 'raw', 'reading file metadata');
    return ctx.files.get(ds.metadata.uuid, fileName(name)).meta;
  },
  'PATCH :name/metadata': async (ctx, req, _reply, name) => {
    const ds = datasetWithClass(ctx, req, 'raw', 'updating file metadata');
    checkWrite(ctx, req, ds);
    return ctx.files.update(ds.metadata.uuid, fileName(name), validateFilePatch(jsonBody(req), false));
  },
} as const satisfies Record<FileRoute, FileOp>;

/**
 * Registers the raw routes under both dataset reference forms: `:name` and `:name/metadata`, and a
 * wildcard for names sent as several path segments. POST /data/{ref} and /list are shared with tabular
 * (see data-routes); the tabular paths (/schema, /stage/...) win over these and hand a raw dataset's
 * requests back (tabular-v1/raw-paths).
 */
export function fileRoutes(app: FastifyInstance, ctx: AppContext): void {
  const summaries: Record<FileRoute, string> = {
    'GET :name': 'Download file content (Range, ETag)',
    'PATCH :name': 'Upload file content (streamed)',
    'DELETE :name': 'Delete a file',
    'GET :name/metadata': 'File metadata',
    'PATCH :name/metadata': 'Update file metadata',
  };
  const many = 'a file whose name holds "/" sent as path segments; a last segment "metadata" is its metadata unless a file of the full name exists (GET) or the body is bytes (PATCH)';
  for (const p of dataPrefixes(ctx)) {
    for (const route of Object.keys(fileOps) as FileRoute[]) {
      const [method, path] = route.split(' ') as ['GET' | 'PATCH' | 'DELETE', string];
      app.route({
        method,
        url: `${p}/${path}`,
        schema: { tags, summary: summaries[route] },
        handler: (req, reply) => {
          const { name } = (req as FileReq).params;
          return answerFilePath(ctx, req, reply, path === ':name' ? [name] : [name, 'metadata']);
        },
      });
    }
    // the segments after the reference, each decoded on its own (the prefix has `depth` of them)
    const depth = p.split('/').length - 1;
    const stray = p === '/data/:ds' ? `catalog.${ctx.kinds.domain}` : undefined;
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      app.route({
        method,
        url: `${p}/*`,
        schema: { tags, summary: `${method === 'GET' ? 'Download' : method === 'PATCH' ? 'Upload' : 'Delete'} ${many}` },
        handler: (req, reply) => {
          // GET /data/catalog.<domain>/dataset/<name> (no file) lands here as dataset "catalog.<domain>"
          if ((req.params as { ds: string }).ds === stray) throw notFound(`no route ${req.method} ${req.url.split('?')[0]}`);
          return answerFilePath(ctx, req, reply, pathSegments(req, depth));
        },
      });
    }
  }
}

/**
 * Answers a request for the file path `segments` (after the dataset reference) as the file routes do:
 * which file and which of its routes by {@link fileTarget}'s rule; 404 for a method no file route has.
 * Used by the tabular paths too, on a raw dataset.
 */
export async function answerFilePath(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, segments: readonly string[]): Promise<unknown> {
  const exists = (name: string): boolean => {
    const ds = datasetOf(ctx, req);
    return storageClassOf(ctx, ds) === 'raw' && ctx.files.has(ds.metadata.uuid, name);
  };
  const t = fileTarget(req.method, segments, { bytes: req.body instanceof Readable, exists });
  if (t === undefined) throw notFound(`no route ${req.method} ${req.url.split('?')[0]}`);
  return fileOps[t.route](ctx, req, reply, t.name);
}

/** POST /data/{ref} on a raw dataset: the file entry. */
export async function createFile(ctx: AppContext, req: FastifyRequest): Promise<unknown> {
  const ds = datasetWithClass(ctx, req, 'raw', 'creating a file');
  checkWrite(ctx, req, ds);
  const patch = validateFilePatch(jsonBody(req), true);
  return ctx.files.create(ds.metadata.uuid, { ...patch, name: patch.name! });
}

/** POST /data/{ref}/list on a raw dataset. */
export async function listFiles(ctx: AppContext, req: FastifyRequest<{ Querystring: { page?: string; page_size?: string } }>): Promise<unknown> {
  const ds = datasetWithClass(ctx, req, 'raw', 'listing files');
  const filter = parseOqs(jsonBody(req));
  const page = req.query.page;
  if (page !== undefined && page !== '' && !/^[0-9]{1,15}$/.test(page)) throw badRequest(`query parameter page must be a cursor returned as "next", got ${JSON.stringify(page)}`);
  const limit = intParam(req.query.page_size, 'page_size', 1000, 10_000);
  const { results, next } = ctx.files.list(ds.metadata.uuid, filter, page ? Number(page) : 0, limit);
  return { results, next, num_results: results.length };
}

async function upload(ctx: AppContext, req: FileReq, reply: FastifyReply, name: string): Promise<unknown> {
  const ds = datasetWithClass(ctx, req, 'raw', 'uploading a file');
  checkWrite(ctx, req, ds);
  if (!(req.body instanceof Readable)) {
    throw new ApiError(415, 'UnsupportedMediaType', `upload the bytes with Content-Type application/octet-stream, got ${req.headers['content-type'] ?? 'none'}`);
  }
  const limit = ctx.config.uploadLimit;
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limit) throw new ApiError(413, 'PayloadTooLarge', `the upload of ${declared} bytes is larger than the limit of ${limit} bytes`);
  const overwrite = boolParam(req.query.overwrite, 'overwrite', false);
  const meta = await ctx.files.upload(ds.metadata.uuid, fileName(name), abortable(req.body, writeSignal(req)), { overwrite, limit });
  return reply.send(meta);
}

async function download(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, fileNamed: string): Promise<unknown> {
  const ds = datasetWithClass(ctx, req, 'raw', 'downloading a file');
  const name = fileName(fileNamed);
  const rec = ctx.files.get(ds.metadata.uuid, name);
  const etag = `"${rec.meta.checksum ?? 'empty'}"`;
  reply.header('etag', etag).header('accept-ranges', 'bytes');
  // an entry stored before mime types were checked may hold one that cannot be a header
  reply.header('content-type', isMimeType(rec.meta.mime_type) ? rec.meta.mime_type : 'application/octet-stream');
  reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);
  if (req.headers['if-none-match'] === etag) return reply.status(304).send();
  const size = rec.meta.size_bytes;
  const ifRange = req.headers['if-range'];
  let range;
  try {
    range = ifRange && ifRange !== etag ? undefined : parseRange(req.headers.range, size);
  } catch (e) {
    reply.header('content-range', `bytes */${size}`);
    throw e;
  }
  const { stream } = await ctx.files.open(ds.metadata.uuid, name, range);
  if (range) {
    reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`).header('content-length', range.end - range.start + 1);
  } else {
    reply.header('content-length', size);
  }
  return reply.send(stream);
}

// the percent-decoded segments of the request path after its first `depth`
function pathSegments(req: FastifyRequest, depth: number): string[] {
  const path = req.url.split('?', 1)[0]!;
  const raw = path.split('/').slice(depth + 1);
  try {
    return raw.map(decodeURIComponent);
  } catch {
    throw badRequest(`the path of ${req.method} ${path.slice(0, 120)} holds malformed percent-encoding`);
  }
}
