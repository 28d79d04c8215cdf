// Claims on part writer tasks: a write cancelled before the thread takes it never happens; a started one cannot be cancelled.
import { Field, Float64, Schema, tableFromArrays } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { StoreContext } from '../context.js';
import { rejected } from '../test-util/errors.js';
import { freshStore } from '../test-util/store.js';
import { Claim } from './part-writer.js';
import { writeParts } from './partition.js';

const schema = new Schema([new Field('v', new Float64(), false)]);
const batch = () => tableFromArrays({ v: Float64Array.from({ length: 100 }, (_, i) => i) }).batches[0]!;

describe('part writer claims', () => {
  it('cancel a queued write (it fails, no file) but not a started one', async () => {
    const store = await freshStore({ workers: 1 });
    const ctx = (store as unknown as { ctx: StoreContext }).ctx;
    const cancelled = Claim.make();
    expect(Claim.cancel(cancelled)).toBe(true);
    expect(Claim.cancel(cancelled)).toBe(true); // still cancelled
    await rejected('Closed', writeParts(ctx, 't', schema, [batch()], true, cancelled));
    expect(await ctx.blobs.list('parts')).toEqual([]);

    const started = Claim.make();
    const [part] = await writeParts(ctx, 't', schema, [batch()], true, started);
    expect(Claim.cancel(started)).toBe(false); // the thread took it
    expect(await ctx.blobs.list('parts')).toEqual([part!.file]);
    expect(Claim.start(Claim.make())).toBe(true);
  });
});
