// Keeps one instance of each class on the row-form hot path alive for the life of the process (V8 hidden classes survive full GCs).

/**
 * Optimised code is specialised to the hidden classes (maps) of the objects it handles. The map of
 * a class instance is reached from the class through transitions (one per field), which V8 holds
 * weakly: when no instance is alive at a full GC (between two transactions, after an idle
 * period's memory-reducing GC, or the bench's `gc()` before each run), the maps die, every
 * function optimised for them is thrown away, and the next transaction runs them unoptimised
 * while TurboFan compiles them again on another core (measured on a 100k-row replace in the row
 * form: ~100 ms of compiler CPU and ~15 ms more on the main thread, each time). One instance kept
 * here holds its class's maps, so the next transaction finds its code still optimised.
 * @example
 * keepShape(new Marker(new Int32Array(0), { bits: new Uint8Array(0), count: 0 }, []));
 */
export function keepShape(instance: object): void {
  kept.push(instance);
}

const kept: object[] = [];
