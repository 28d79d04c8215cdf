// Raw file datasets (`/data/{ref}/...`): create an entry, upload and download bytes, metadata, list, delete.
import type { Page } from './catalog.js';
import type { Http } from './http.js';

/** A file's metadata as the service keeps it. */
export interface FileMeta {
  readonly name: string;
  readonly mime_type?: string | null;
  readonly metadata?: Record<string, unknown>;
  readonly geo_location?: unknown;
  readonly size_bytes?: number;
  readonly checksum?: string;
  readonly [k: string]: unknown;
}

/** `client.files(datasetRef)`: the dataset UUID or `catalog.<domain>/dataset/<name>`. */
export class Files {
  constructor(
    private readonly http: Http,
    private readonly ref: string,
  ) {}

  /** Creates the entry (ClientError 409 when the file exists). */
  create(meta: FileMeta): Promise<FileMeta> {
    return this.http.json({ method: 'POST', path: this.base(), json: meta });
  }

  /** Uploads the content (bytes or a stream), replacing it when `overwrite`. */
  async upload(name: string, body: Uint8Array | ReadableStream<Uint8Array> | NodeJS.ReadableStream, overwrite = false): Promise<FileMeta> {
    return this.http.json({ method: 'PATCH', path: this.file(name), query: { overwrite: String(overwrite) }, body });
  }

  /** The content as bytes. */
  async download(name: string): Promise<Uint8Array> {
    const res = await this.http.send({ method: 'GET', path: this.file(name), read: true });
    return new Uint8Array(await res.arrayBuffer());
  }

  metadata(name: string): Promise<FileMeta> {
    return this.http.json({ method: 'GET', path: `${this.file(name)}/metadata`, read: true });
  }

  updateMetadata(name: string, patch: Partial<FileMeta>): Promise<FileMeta> {
    return this.http.json({ method: 'PATCH', path: `${this.file(name)}/metadata`, json: patch });
  }

  /** Every file entry (optionally filtered), page by page as iterated. */
  async *list(filter?: unknown, pageSize = 1000): AsyncGenerator<FileMeta> {
    let page: string | undefined;
    do {
      const p: Page<FileMeta> = await this.http.json({ method: 'POST', path: `${this.base()}/list`, query: { page, page_size: pageSize }, json: filter ?? {}, read: true });
      yield* p.results;
      page = p.next ?? undefined;
    } while (page);
  }

  async delete(name: string): Promise<void> {
    await this.http.send({ method: 'DELETE', path: this.file(name) });
  }

  private base(): string {
    return `/data/${this.ref.split('/').map(encodeURIComponent).join('/')}`;
  }

  private file(name: string): string {
    return `${this.base()}/${encodeURIComponent(name)}`;
  }
}
