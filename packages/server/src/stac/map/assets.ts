// Assets of a dataset item: the data endpoints that serve its files or its table, with media types.
import type { Urls } from '../urls.js';

/** A STAC asset; `method` is set for endpoints read with POST. */
export interface Asset {
  readonly href: string;
  readonly type: string;
  readonly title: string;
  readonly description: string;
  readonly roles: readonly string[];
  readonly 'halocline:method'?: 'POST';
}

/** Assets by key for a dataset of `storageClass` (`raw` or `tabular`); relative to the service base. */
export function assetsFor(uuid: string, storageClass: string | undefined): Record<string, Asset> {
  const id = encodeURIComponent(uuid);
  if (storageClass === 'tabular') {
    return {
      table: {
        href: `/api/table/v2/sdk/select?table_id=${id}`, type: 'application/vnd.apache.arrow.stream', title: 'Table (tabular v2)',
        description: 'POST {"query", "cols"} to read rows as an Arrow IPC stream', roles: ['data'], 'halocline:method': 'POST',
      },
      'table-stats': {
        href: `/api/table/v2/stats?table_id=${id}`, type: 'application/json', title: 'Table statistics',
        description: 'POST for row count, size and per-column statistics', roles: ['metadata'], 'halocline:method': 'POST',
      },
      rows: {
        href: `/data/${id}/list`, type: 'application/x-ndjson', title: 'Rows (tabular v1)',
        description: 'POST an optional OQS filter to read rows as NDJSON', roles: ['data'], 'halocline:method': 'POST',
      },
      schema: { href: `/data/${id}/schema`, type: 'application/json', title: 'Table schema', description: 'The table schema', roles: ['metadata'] },
    };
  }
  return {
    files: {
      href: `/data/${id}/list`, type: 'application/json', title: 'Files',
      description: `POST an optional metadata filter to list the files; GET /data/${id}/{file name} downloads one`,
      roles: ['data'], 'halocline:method': 'POST',
    },
  };
}

/** The assets with absolute hrefs under `urls.base`. */
export function absoluteAssets(assets: Record<string, Asset>, urls: Urls): Record<string, Asset> {
  const out: Record<string, Asset> = {};
  for (const [k, a] of Object.entries(assets)) out[k] = { ...a, href: `${urls.base}${a.href}` };
  return out;
}
