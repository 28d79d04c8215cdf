// Background work waits for a pause in scan tasks, but not forever.
import { describe, expect, it } from 'vitest';
import { ReadActivity } from './activity.js';

describe('read activity', () => {
  it('lets background work through when reads pause, and after the longest wait while they do not', async () => {
    const reads = new ReadActivity();
    await reads.quiet(5, 10_000); // nothing ran: immediately
    const end = reads.begin();
    expect(reads.busy(5)).toBe(true);
    const order: string[] = [];
    const waiting = reads.quiet(5, 10_000).then(() => order.push('background'));
    await new Promise((r) => setTimeout(r, 30));
    order.push('read ends');
    end();
    end(); // twice is once
    await waiting;
    expect(order).toEqual(['read ends', 'background']);
    expect(reads.busy(10_000)).toBe(true); // ended just now
    const stuck = reads.begin();
    await reads.quiet(5, 20); // a read that never ends delays it by at most maxMs
    stuck();
  });
});
