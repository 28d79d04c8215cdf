// Copies one property of a block of row objects into a staging array, with code generated per
// property name so each copy loop has its own monomorphic inline cache.

/** Copies `rows[i][name]` of rows lo..hi-1 into its staging array (`stage[i - lo]`) and returns it; valid until the next call. */
export type Gather = (rows: readonly unknown[], lo: number, hi: number) => readonly unknown[];

/**
 * A new gather of one property name. A loop over `row[name]` with the name in a variable shares
 * one inline cache across all columns and goes megamorphic: every double read then allocates a
 * HeapNumber, and the copy takes about three times as long. The generated loop reads a constant
 * name, so it stays monomorphic for rows of one shape; its staging array comes from an array
 * literal of the generated code, so V8 learns that name's elements kind (doubles stay unboxed).
 * Names that plain objects inherit (`constructor`, `toString`, `__proto__`...) are read as own
 * properties only.
 * @example
 * gatherOf('depth')(rows, 0, 2048) // [rows[0].depth, rows[1].depth, ...]
 */
export function gatherOf(name: string): Gather {
  let make = factories.get(name);
  if (make === undefined) {
    if (factories.size >= MAX_CACHED) factories.clear();
    const body = `const stage = []; return (rows, lo, hi) => { for (let i = lo; i < hi; i++) stage[i - lo] = ${readExpression('rows[i]', name)}; return stage; };`;
    make = new Function(body) as () => Gather;
    factories.set(name, make);
  }
  return make();
}

/**
 * The JS expression reading property `name` of the object `target` (an expression), own
 * properties only for names that plain objects inherit.
 */
export function readExpression(target: string, name: string): string {
  const key = JSON.stringify(name);
  return inherited.has(name) ? `(Object.hasOwn(${target}, ${key}) ? ${target}[${key}] : undefined)` : `${target}[${key}]`;
}

const factories = new Map<string, () => Gather>();
const MAX_CACHED = 10_000;
const inherited = new Set(Object.getOwnPropertyNames(Object.prototype));
