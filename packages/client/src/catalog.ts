// Catalog resources: create, get (UUID or kind/name), update, delete, and list as an async iterable.
import type { Http } from './http.js';

/** A catalog manifest as the service answers it. */
export interface Manifest {
  readonly kind: string;
  readonly version: string;
  readonly metadata: { readonly name: string; readonly uuid?: string; readonly [k: string]: unknown };
  readonly spec: Record<string, unknown>;
  readonly [k: string]: unknown;
}

/** One page of a list. */
export interface Page<T> {
  readonly results: T[];
  readonly next: string | null;
  readonly num_results: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `client.catalog`. */
export class Catalog {
  constructor(private readonly http: Http) {}

  /** Creates a resource; resolves with the manifest including `metadata.uuid`. */
  create(manifest: Manifest): Promise<Manifest> {
    return this.http.json({ method: 'POST', path: '/catalog', json: manifest });
  }

  /** By UUID or `kind/name` (e.g. `catalog.example.io/dataset/ctd`); ClientError 404 when missing. */
  get(ref: string): Promise<Manifest> {
    return this.http.json({ method: 'GET', path: `/catalog/${refPath(ref)}`, read: true });
  }

  /** Replaces the manifest of the resource named by `manifest.metadata.uuid` (or its name and kind). */
  update(manifest: Manifest): Promise<Manifest> {
    const id = manifest.metadata.uuid ?? manifest.metadata.name;
    return this.http.json({ method: 'PATCH', path: '/catalog', query: { either_id: id, kind: manifest.kind }, json: manifest });
  }

  async delete(ref: string): Promise<void> {
    await this.http.send({ method: 'DELETE', path: `/catalog/${refPath(ref)}` });
  }

  /** Every resource matching the OQS filter, fetched page by page as iterated. */
  async *list(oqs?: unknown, pageSize = 1000): AsyncGenerator<Manifest> {
    for await (const page of this.pages(oqs, pageSize)) yield* page.results;
  }

  /** The pages of `list`. */
  async *pages(oqs?: unknown, pageSize = 1000): AsyncGenerator<Page<Manifest>> {
    let page: string | undefined;
    do {
      const p: Page<Manifest> = await this.http.json({ method: 'POST', path: '/catalog/list', query: { page, page_size: pageSize }, json: oqs ?? {}, read: true });
      yield p;
      page = p.next ?? undefined;
    } while (page);
  }
}

function refPath(ref: string): string {
  return UUID.test(ref) ? ref : ref.split('/').map(encodeURIComponent).join('/');
}
