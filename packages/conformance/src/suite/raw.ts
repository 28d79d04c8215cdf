// The raw controller: upload, list, update_meta, download, ingest (creates, then appends), delete.
import type { TableApi } from '@halocline/engine';
import { describe, expect, it } from 'vitest';

const csv = 'station,depth,temp\nA,10,4.5\nB,20,3.25\nC,30,\n';

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

export function rawSuite(open: () => Promise<TableApi>): void {
  describe('raw files and ingest', () => {
    it('uploads, lists, updates metadata, downloads and deletes files by id or unique name', async () => {
      const t = await open();
      const id = await t.raw.upload('casts.csv', new TextEncoder().encode(csv));
      let list = await t.raw.list();
      expect(list.map((e) => [e.id, e.name, e.size])).toEqual([[id, 'casts.csv', csv.length]]);
      const e = await t.raw.updateMeta(id, { properties: { cruise: 'PS-42' }, geometry: 'POINT(1 2)' });
      expect(e.properties).toEqual({ cruise: 'PS-42' });
      expect(e.geometry).toMatch(/^POINT/);
      expect(await text(await t.raw.download('casts.csv'))).toBe(csv);
      list = await t.raw.list('name == $n', { vars: { n: 'casts.csv' } });
      expect(list).toHaveLength(1);
      await t.raw.delete(id);
      expect(await t.raw.list()).toEqual([]);
      await expect(t.raw.download(id)).rejects.toMatchObject({ code: 'NotFound' });
    });

    it('ingest creates the table from a CSV, then appends; the original names are kept as ingest_name', async () => {
      const t = await open();
      const id = await t.raw.upload('casts.csv', new TextEncoder().encode(csv));
      const first = await t.raw.ingest(id);
      expect(first).toMatchObject({ rows: 3, created: true });
      expect((await t.schema())!.fields.map((f) => f.name)).toEqual(['station', 'depth', 'temp']);
      await t.raw.ingest(id, { opt: 'append' });
      expect(await t.select('depth > 15').count()).toBe(4);
      await t.raw.ingest(id, { opt: 'truncate' });
      expect(await t.select().count()).toBe(3);
    });
  });
}
