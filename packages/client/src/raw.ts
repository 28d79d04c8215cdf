// Files beside a remote table (`/api/table/v2/raw/...`): the engine's RawFilesApi over HTTP.
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { HaloclineError, type IngestOptions, type IngestResult, type ListOptions, type RawEntry, type RawFilesApi, type RawMetaPatch, type UploadBody, type UploadOptions } from '@halocline/engine';
import { errorOf } from './errors.js';
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

  // the server answers 204 with no body when the table does not exist (wire-protocol.md)
  private missing(): HaloclineError {
    return new HaloclineError('NotFound', `table "${this.tableId}" does not exist`, { table: this.tableId });
  }

  private async call<T>(r: Parameters<Http['json']>[0]): Promise<T> {
    const body = await this.http.json<T | undefined>(r);
    if (body === undefined) throw this.missing();
    return body;
  }

  async upload(name: string, body: UploadBody, options: UploadOptions = {}): Promise<string> {
    const r = await this.call<{ raw_id: string }>({
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
    return entry(await this.call<WireEntry>({ method: 'POST', path: '/api/table/v2/raw/update_meta', query: { table_id: this.tableId, id: idOrName }, json: body }));
  }

  async list(filter?: string, options: ListOptions = {}): Promise<RawEntry[]> {
    const r = await this.call<{ files: WireEntry[] }>({ method: 'POST', path: '/api/table/v2/raw/list', query: { table_id: this.tableId }, json: { query: filter ?? null, vars: options.vars ?? null }, read: true });
    return r.files.map(entry);
  }

  async download(idOrName: string): Promise<Readable> {
    const res = await this.http.send({ method: 'POST', path: '/api/table/v2/raw/download', query: { table_id: this.tableId, id: idOrName }, read: true });
    if (res.status === 204) throw this.missing();
    return Readable.fromWeb(res.body as never);
  }

  async delete(idOrName: string): Promise<void> {
    const res = await this.http.send({ method: 'POST', path: '/api/table/v2/raw/delete', query: { table_id: this.tableId, id: idOrName } });
    if (res.status === 204) throw this.missing();
  }

  /**
   * Parses a file into the table. With `onProgress` the request asks for progress lines
   * (`Accept: application/x-ndjson`) and reports each one as the server parses the file.
   */
  async ingest(idOrName: string, options: IngestOptions = {}): Promise<IngestResult> {
    const request = { method: 'POST', path: '/api/table/v2/raw/ingest', query: { table_id: this.tableId, id: idOrName, opt: options.opt } } as const;
    if (!options.onProgress) return result(await this.call<IngestResult>(request));
    const res = await this.http.stream({ ...request, headers: { accept: 'application/x-ndjson' } });
    if (res.status === 204) throw this.missing();
    for await (const line of createInterface({ input: res.body, crlfDelay: Infinity })) {
      if (line.trim() === '') continue;
      const m = JSON.parse(line) as { rows?: number; bytes?: number; total_bytes?: number; result?: IngestResult; error?: string; code?: string };
      if (m.result) return result(m.result);
      if (m.error !== undefined) throw errorOf(500, m.error, m.code ?? null, `POST ${request.path}`);
      options.onProgress({ rows: m.rows!, bytes: m.bytes!, totalBytes: m.total_bytes! });
    }
    throw new HaloclineError('Corrupt', 'the ingest answer ended without a result (connection closed early?)');
  }
}

const result = (r: IngestResult): IngestResult => ({ rows: r.rows, format: r.format, created: r.created });

function entry(w: WireEntry): RawEntry {
  return { id: w.id, name: w.name, size: w.size, sha256: w.sha256, mimetype: w['mime-type'], geometry: w.geometry, properties: w.properties, created: new Date(w.created), updated: new Date(w.updated) };
}
