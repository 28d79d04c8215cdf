// Writes in flight per dataset, so deleting a dataset can cancel them and wait for them to settle first.
import { conflict, notFound } from '../errors.js';

/** One write holding a dataset open: `signal` aborts when a delete of the dataset begins. */
export interface WriteHold {
  readonly dataset: string;
  readonly signal: AbortSignal;
  /** Ends the hold (idempotent). */
  release(): void;
}

interface Open {
  readonly abort: AbortController;
  readonly holds: Set<WriteHold>;
  /** Set while a delete runs: new holds are refused; resolves `drained` when the last one ends. */
  closing?: { drained: Promise<void>; done: () => void };
}

/**
 * Tracks the writes running against each dataset. A delete `close`s the dataset: new writes are
 * refused with 404, running ones see their signal abort with a 404 (an upload stops reading its body), and the
 * delete's own work runs only once every one of them has settled, so no write can land after the
 * dataset's storage was removed.
 * @example
 * const hold = gate.enter(uuid); try { await write(hold.signal) } finally { hold.release() }
 * await gate.close(uuid, async () => { await catalog.delete(uuid); await removeStorage(uuid) })
 */
export class WriteGate {
  private readonly open = new Map<string, Open>();

  /** A hold on `dataset` for one write; 404 while the dataset is being deleted. */
  enter(dataset: string): WriteHold {
    const o = this.state(dataset);
    if (o.closing) throw notFound(`dataset ${dataset} is being deleted`);
    let released = false;
    const hold: WriteHold = {
      dataset,
      signal: o.abort.signal,
      release: () => {
        if (released) return;
        released = true;
        o.holds.delete(hold);
        if (o.holds.size === 0) this.settle(dataset, o);
      },
    };
    o.holds.add(hold);
    return hold;
  }

  /** How many writes hold `dataset` now. */
  held(dataset: string): number {
    return this.open.get(dataset)?.holds.size ?? 0;
  }

  /** True while a delete of `dataset` runs. */
  closing(dataset: string): boolean {
    return this.open.get(dataset)?.closing !== undefined;
  }

  /**
   * Refuses new writes to `dataset`, aborts the running ones, waits until they have settled, then
   * runs `work` (the delete) and opens the dataset again (for a later dataset with the same uuid).
   * A second close while one runs is a 409.
   */
  async close<T>(dataset: string, work: () => Promise<T>): Promise<T> {
    const o = this.state(dataset);
    if (o.closing) throw conflict(`dataset ${dataset} is already being deleted`);
    let done!: () => void;
    o.closing = { drained: new Promise<void>((r) => (done = r)), done };
    try {
      o.abort.abort(notFound(`dataset ${dataset} was deleted during this request; nothing was written`));
      if (o.holds.size === 0) done();
      await o.closing.drained;
      return await work();
    } finally {
      if (this.open.get(dataset) === o) this.open.delete(dataset);
    }
  }

  private state(dataset: string): Open {
    let o = this.open.get(dataset);
    if (!o) this.open.set(dataset, (o = { abort: new AbortController(), holds: new Set() }));
    return o;
  }

  // the last hold ended: a waiting delete proceeds; an idle dataset needs no state
  private settle(dataset: string, o: Open): void {
    if (o.closing) o.closing.done();
    else if (this.open.get(dataset) === o) this.open.delete(dataset);
  }
}
