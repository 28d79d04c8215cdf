// Scan tasks in flight in this process, so background work (compaction) can wait for a pause in reads.

/** One caller of `quiet`: resolved once no task has run for `quietMs`, or by its deadline. */
interface Waiter {
  readonly quietMs: number;
  readonly resolve: () => void;
  readonly deadline: ReturnType<typeof setTimeout>;
}

/**
 * Counts scan tasks in flight; `quiet` lets background work yield to them. Event-driven: a waiter
 * is woken when the last task ends and its quiet period passes with none begun, or at its deadline,
 * never to poll (a busy reader's thread would wake every few milliseconds to find reads still
 * running; on a virtual machine each wake-up costs the thread ~0.1 ms).
 */
export class ReadActivity {
  private active = 0;
  private lastEnd = Number.NEGATIVE_INFINITY;
  private readonly waiters = new Set<Waiter>();
  /** Armed while no task runs and someone waits: fires when the shortest quiet period has passed. */
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** Marks a scan task started; call the returned function once when it ends. */
  begin(): () => void {
    this.active++;
    this.disarm(); // the pause is over before it was long enough
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.active--;
      this.lastEnd = performance.now();
      if (this.active === 0) this.arm();
    };
  }

  /** True while a scan task runs or one ended less than `quietMs` ago. */
  busy(quietMs: number): boolean {
    return this.active > 0 || performance.now() - this.lastEnd < quietMs;
  }

  /**
   * Resolves once no scan task has run for `quietMs`, or after `maxMs` at the latest (so background
   * work under a steady stream of reads is slowed, never starved).
   */
  quiet(quietMs: number, maxMs: number): Promise<void> {
    if (!this.busy(quietMs)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter: Waiter = {
        quietMs,
        resolve,
        deadline: setTimeout(() => this.release(waiter), maxMs),
      };
      this.waiters.add(waiter);
      if (this.active === 0) this.arm(); // the last task ended less than quietMs ago
    });
  }

  // wakes the waiters whose quiet period has passed, then waits for the next one's
  private check(): void {
    this.timer = undefined;
    if (this.active > 0) return;
    for (const w of [...this.waiters]) if (!this.busy(w.quietMs)) this.release(w);
    this.arm();
  }

  private release(w: Waiter): void {
    if (!this.waiters.delete(w)) return;
    clearTimeout(w.deadline);
    w.resolve();
    if (this.waiters.size === 0) this.disarm();
  }

  private arm(): void {
    if (this.timer !== undefined || this.waiters.size === 0) return;
    const quietMs = Math.min(...[...this.waiters].map((w) => w.quietMs));
    const left = Math.max(0, quietMs - (performance.now() - this.lastEnd));
    this.timer = setTimeout(() => this.check(), left);
  }

  private disarm(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
