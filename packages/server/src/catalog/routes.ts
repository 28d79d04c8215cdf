// Catalog routes: create, get (uuid or kind/name), update, delete and OQS list.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../auth/authenticate.js';
import { mayWrite } from '../auth/principal.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { intParam, jsonBody } from '../http/body.js';
import type { AppContext } from '../http/context.js';
import { finishStorageRemovals } from './recovery.js';
import { namesOf, referrersOf } from './references.js';
import type { Resource } from './resource.js';
import { listFilter } from './selectors.js';
import { validateManifest } from './validate/index.js';

/** Provisions and removes a dataset's storage when the catalog creates or deletes it. */
export interface DatasetStorage {
  provision(dataset: Resource): Promise<void>;
  remove(dataset: Resource): Promise<void>;
}

const tags = ['catalog'];

/** Registers the catalog routes (behind the auth hook). */
export function catalogRoutes(app: FastifyInstance, ctx: AppContext, storage: DatasetStorage): void {
  const { catalog, kinds } = ctx;
  const exists = (kind: string, name: string): boolean => catalog.getByName(kind, name) !== undefined;

  app.post('/catalog', { schema: { tags, summary: 'Create a resource' } }, async (req, reply) => {
    const { type, manifest } = validateManifest(jsonBody(req), kinds, exists);
    const uuid = manifest.metadata.uuid;
    if (uuid !== undefined && (ctx.writes.closing(uuid) || catalog.removalPending(uuid))) throw conflict(`a dataset with uuid ${manifest.metadata.uuid} is being deleted; try again once it is gone`);
    if (type !== 'dataset') return reply.status(201).send(await catalog.create(manifest, principalOf(req).id));
    // the new dataset is held while its storage is provisioned: a delete racing the create waits, so
    // it cannot remove the storage before it exists (and leave what the provisioning makes behind)
    const withUuid = { ...manifest, metadata: { ...manifest.metadata, uuid: uuid ?? randomUUID() } };
    const hold = ctx.writes.enter(withUuid.metadata.uuid);
    try {
      const created = await catalog.create(withUuid, principalOf(req).id);
      try {
        await storage.provision(created);
      } catch (e) {
        await catalog.delete(created.metadata.uuid);
        throw e;
      }
      return reply.status(201).send(created);
    } finally {
      hold.release();
    }
  });

  app.get<{ Params: { uuid: string } }>('/catalog/:uuid', { schema: { tags, summary: 'Get a resource by UUID' } }, async (req) => found(catalog.get(req.params.uuid), req.params.uuid));

  app.get<{ Params: { group: string; type: string; name: string } }>('/catalog/:group/:type/:name', { schema: { tags, summary: 'Get a resource by kind and name' } }, async (req) => {
    const { group, type, name } = req.params;
    return found(catalog.getByName(`${group}/${type}`, name), `${group}/${type}/${name}`);
  });

  app.patch<{ Querystring: { kind?: string; either_id?: string } }>('/catalog', { schema: { tags, summary: 'Update a resource' } }, async (req) => {
    const { kind, either_id: id } = req.query;
    if (!id) throw badRequest('query parameter either_id (uuid or name) is required');
    const body = jsonBody(req);
    const current = catalog.get(id) ?? (kind ? catalog.getByName(kind, id) : undefined) ?? byNameAnyKind(id, body);
    if (!current) throw notFound(`no resource ${kind ? `${kind}/` : ''}${id}`);
    if (!mayWrite(principalOf(req), current.owner)) throw forbidden(`only the owner or an admin may update ${current.kind}/${current.metadata.name}`);
    const { manifest } = validateManifest(body, kinds, exists);
    if (manifest.kind !== current.kind) throw badRequest(`kind: a ${current.kind} cannot become a ${manifest.kind}`, 'InvalidManifest');
    if (manifest.metadata.uuid !== undefined && manifest.metadata.uuid !== current.metadata.uuid) throw badRequest('metadata.uuid: the uuid of a resource cannot change', 'InvalidManifest');
    refuseRenameWhenReferred(current, manifest.metadata.name);
    if (current.kind === kinds.dataset && manifest.spec.storage_class !== current.spec.storage_class) {
      throw badRequest(`spec.storage_class: the storage class of a dataset cannot change (it is ${String(current.spec.storage_class)})`, 'InvalidManifest');
    }
    return catalog.update(current.metadata.uuid, manifest, principalOf(req).id);
  });

  const remove = async (r: Resource | undefined, ref: string, req: FastifyRequest): Promise<void> => {
    if (!r) throw notFound(`no resource ${ref}`);
    if (!mayWrite(principalOf(req), r.owner)) throw forbidden(`only the owner or an admin may delete ${r.kind}/${r.metadata.name}`);
    if (r.kind === kinds.dataset) return removeDataset(r.metadata.uuid, req);
    // a collection still named by datasets stays: deleting it would leave them pointing at nothing
    const members = referrersOf(catalog, kinds, r);
    if (members.length > 0) throw conflict(`data collection ${r.metadata.name} still has datasets (${namesOf(members)}); delete them or set their spec.data_collection to another collection first`);
    await catalog.delete(r.metadata.uuid);
  };

  /**
   * Deletes a dataset with the observables of it. Writes to it are cancelled and waited for first;
   * the dataset and its observables then leave the catalog in one transaction (a crash leaves all of
   * them or none) that also records the storage removal, done right after and, if that fails or the
   * process dies first, again at the next start (`finishStorageRemovals`).
   */
  const removeDataset = (uuid: string, req: FastifyRequest): Promise<void> =>
    ctx.writes.close(uuid, async () => {
      const ds = catalog.get(uuid);
      if (!ds) throw notFound(`no resource ${uuid} (deleted meanwhile)`);
      await catalog.deleteAll([uuid, ...referrersOf(catalog, kinds, ds).map((o) => o.metadata.uuid)], { storageOf: ds });
      await finishStorageRemovals(catalog, storage, req.log, [ds]);
    });

  app.delete<{ Params: { uuid: string } }>('/catalog/:uuid', { schema: { tags, summary: 'Delete a resource by UUID' } }, async (req, reply) => {
    await remove(catalog.get(req.params.uuid), req.params.uuid, req);
    return reply.status(204).send();
  });
  app.delete<{ Params: { group: string; type: string; name: string } }>('/catalog/:group/:type/:name', { schema: { tags, summary: 'Delete a resource by kind and name' } }, async (req, reply) => {
    const { group, type, name } = req.params;
    await remove(catalog.getByName(`${group}/${type}`, name), `${group}/${type}/${name}`, req);
    return reply.status(204).send();
  });

  app.post<{ Querystring: { page?: string; page_size?: string } }>('/catalog/list', { schema: { tags, summary: 'List resources matching an OQS filter or {selectors: [{kind}]}' } }, async (req) => {
    const filter = listFilter(jsonBody(req));
    const limit = intParam(req.query.page_size, 'page_size', 1000, 10_000);
    const after = cursorParam(req.query.page);
    const page = catalog.list(filter, { after, limit });
    return { results: page.results, next: page.next, num_results: page.results.length };
  });

  // references are by name: renaming a resource others name would leave them pointing at nothing
  function refuseRenameWhenReferred(current: Resource, name: string): void {
    if (name === current.metadata.name) return;
    const referrers = referrersOf(catalog, kinds, current);
    if (referrers.length === 0) return;
    const what = current.kind === kinds.dataset ? 'observables' : 'datasets';
    throw conflict(`metadata.name: ${current.kind}/${current.metadata.name} cannot be renamed while ${what} refer to it by name (${namesOf(referrers)}); delete them or point them elsewhere first`);
  }

  /** PATCH without `kind`: the name of the kind in the body. */
  function byNameAnyKind(id: string, body: unknown): Resource | undefined {
    const kind = (body as { kind?: unknown } | undefined)?.kind;
    return typeof kind === 'string' ? catalog.getByName(kind, id) : undefined;
  }
}

/** A page cursor: the decimal position a previous page ended at. */
export function cursorParam(v: string | undefined): string | null {
  if (v === undefined || v === '') return null;
  if (!/^[0-9]{1,15}$/.test(v)) throw badRequest(`query parameter page must be a cursor returned as "next", got ${JSON.stringify(v)}`);
  return v;
}

function found(r: Resource | undefined, ref: string): Resource {
  if (!r) throw notFound(`no resource ${ref}`);
  return r;
}
