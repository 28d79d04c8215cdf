// Files beside a remote table (`/api/table/v2/raw/...`): the engine's RawFilesApi over HTTP.
import { Readable } from 'node:stream';
import type { IngestOptions, IngestResult, ListOptions, RawEntry, RawFilesApi, RawMetaPatch, UploadBody, UploadOptions } from '@halocline/engine';
import type { Http } from './http.js';

/** A file entry as the server answers it. */
interface WireEntry {
  id: string;
  name: string;
  size: number;
  sha256: string;
  'mime-type': string | null;
  geometry: string | null;
  properties: Record<string, string>;
  created: string;
  updated: string;
}

export class RemoteRaw implements RawFilesApi {
  constructor(
    private readonly http: Http,
    readonly tableId: string,
  ) {}

  async upload(name: string, body: UploadBody, options: UploadOptions = {}): Promise<string> {
    const r = await this.http.json<{ raw_id: string }>({
      method: 'POST', path: '/api/table/v2/raw/upload', query: { table_id: this.tableId, name, mime_type: options.mimetype }, body: body as Uint8Array,
    });
    return r.raw_id;
  }

  async updateMeta(idOrName: string, patch: RawMetaPatch): Promise<RawEntry> {
    const body: Record<string, unknown> = { ...patch };
    if ('mimetype' in body) {
      body['mime-type'] = body.mimetype;
      delete body.mimetype;
    }
    if (patch.geometry instanceof Uint8Array) body.geometry = Buffer.from(patch.geometry).toString('hex');
    return entry(await this.http.json<WireEntry>({ method: 'POST', path: '/api/table/v2/raw/update_meta', query: { table_id: this.tableId, id: idOrName }, json: body }));
  }

  async list(filter?: string, options: ListOptions = {}): Promise<RawEntry[]> {
    const r = await this.http.json<{ files: WireEntry[] }>({ method: 'POST', path: '/api/table/v2/raw/list', query: { table_id: this.tableId }, json: { query: filter ?? null, vars: options.vars ?? null }, read: true });
    return r.files.map(entry);
  }

  async download(idOrName: string): Promise<Readable> {
    const res = await this.http.send({ method: 'POST', path: '/api/table/v2/raw/download', query: { table_id: this.tableId, id: idOrName }, read: true });
    return Readable.fromWeb(res.body as never);
  }

  async delete(idOrName: string): Promise<void> {
    await this.http.send({ method: 'POST', path: '/api/table/v2/raw/delete', query: { table_id: this.tableId, id: idOrName } });
  }

  /** `onProgress` is not reported over HTTP; the promise resolves when the ingest committed. */
  async ingest(idOrName: string, options: IngestOptions = {}): Promise<IngestResult> {
    const r = await this.http.json<IngestResult>({ method: 'POST', path: '/api/table/v2/raw/ingest', query: { table_id: this.tableId, id: idOrName, opt: options.opt } });
    return { rows: r.rows, format: r.format, created: r.created };
  }
}

function entry(w: WireEntry): RawEntry {
  return { id: w.id, name: w.name, size: w.size, sha256: w.sha256, mimetype: w['mime-type'], geometry: w.geometry, properties: w.properties, created: new Date(w.created), updated: new Date(w.updated) };
}
