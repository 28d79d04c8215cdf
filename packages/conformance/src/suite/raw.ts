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

    it('ingest reports progress through onProgress: rows and bytes grow to the result and the file size', async () => {
      const t = await open();
      const big = `station,depth,temp\n${Array.from({ length: 20_000 }, (_, i) => `S${i % 50},${i},${(i % 300) / 10}`).join('\n')}\n`;
      const id = await t.raw.upload('big.csv', new TextEncoder().encode(big));
      const seen: { rows: number; bytes: number; totalBytes: number }[] = [];
      const result = await t.raw.ingest(id, { onProgress: (p) => seen.push(p) });
      expect(result).toMatchObject({ rows: 20_000, created: true });
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.at(-1)).toEqual({ rows: 20_000, bytes: big.length, totalBytes: big.length });
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.rows).toBeGreaterThan(seen[i - 1]!.rows);
      const bad = await t.raw.upload('bad.csv', new TextEncoder().encode('station,depth,temp\nA,deep,1\n'));
      await expect(t.raw.ingest(bad, { onProgress: () => undefined })).rejects.toMatchObject({ code: 'InvalidData' });
      expect(await t.select().count()).toBe(20_000);
    });
  });
}
