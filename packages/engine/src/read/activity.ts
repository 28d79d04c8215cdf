// Scan tasks in flight in this process, so background work (compaction) can wait for a pause in reads.

/** Counts scan tasks in flight; `quiet` lets background work yield to them. */
export class ReadActivity {
  private active = 0;
  private lastEnd = Number.NEGATIVE_INFINITY;

  /** Marks a scan task started; call the returned function once when it ends. */
  begin(): () => void {
    this.active++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.active--;
      this.lastEnd = performance.now();
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
  async quiet(quietMs: number, maxMs: number): Promise<void> {
    const start = performance.now();
    while (this.busy(quietMs) && performance.now() - start < maxMs) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs, maxMs - (performance.now() - start))));
    }
  }
}
