// WriteGate: a delete cancels and waits for the writes of its dataset; none start while it runs.
import { describe, expect, it } from 'vitest';
import { WriteGate } from './write-gate.js';

describe('WriteGate', () => {
  it('a close aborts the running writes, waits until each has released, then runs its work', async () => {
    const gate = new WriteGate();
    const a = gate.enter('ds');
    const b = gate.enter('ds');
    const other = gate.enter('other');
    const steps: string[] = [];
    const closing = gate.close('ds', async () => {
      steps.push('work');
      return 7;
    });
    expect(a.signal.aborted && b.signal.aborted).toBe(true);
    expect(a.signal.reason).toMatchObject({ status: 404, message: expect.stringMatching(/^dataset ds was deleted during this request; nothing was written/) });
    expect(other.signal.aborted).toBe(false);
    await Promise.resolve();
    a.release();
    steps.push('a released');
    await Promise.resolve();
    b.release();
    b.release(); // idempotent
    steps.push('b released');
    expect(await closing).toBe(7);
    expect(steps).toEqual(['a released', 'b released', 'work']);
    other.release();
  });

  it('refuses new writes (404) and a second close (409) while a close runs; opens again after', async () => {
    const gate = new WriteGate();
    const hold = gate.enter('ds');
    let finish!: () => void;
    const closing = gate.close('ds', () => new Promise<void>((r) => (finish = r)));
    expect(gate.closing('ds')).toBe(true);
    expect(() => gate.enter('ds')).toThrow(expect.objectContaining({ status: 404, message: 'dataset ds is being deleted' }));
    await expect(gate.close('ds', async () => undefined)).rejects.toMatchObject({ status: 409 });
    hold.release();
    await new Promise((r) => setImmediate(r));
    finish();
    await closing;
    expect(gate.closing('ds')).toBe(false);
    const again = gate.enter('ds');
    expect(again.signal.aborted).toBe(false);
    expect(gate.held('ds')).toBe(1);
    again.release();
    expect(gate.held('ds')).toBe(0);
  });

  it('a close with nothing running runs at once; a failing close opens the dataset again', async () => {
    const gate = new WriteGate();
    await expect(gate.close('ds', async () => { throw new Error('disk'); })).rejects.toThrow('disk');
    expect(gate.closing('ds')).toBe(false);
    expect(gate.enter('ds').signal.aborted).toBe(false);
  });
});
