// JSON values with integers beyond 2^53 read exactly (bigints, see `installJsonParser`) meeting code
// written for JSON.parse's values: rounding them back, and writing them into messages.
import { stringify } from 'lossless-json';

/**
 * `v` with every bigint in it (in arrays and plain objects, at any depth) as the nearest double, which
 * is what JSON.parse reads for that integer; `v` itself when it holds none (nothing is copied then).
 * @example
 * roundedJson({ a: [9007199254740993n] }) // { a: [9007199254740992] }
 */
export function roundedJson(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    v.forEach((x, i) => {
      const y = roundedJson(x);
      if (y !== x) (out ??= [...v])[i] = y;
    });
    return out ?? v;
  }
  // parsed JSON objects only: a stream, a Buffer or URLSearchParams stays as it is
  if (Object.getPrototypeOf(v) !== Object.prototype) return v;
  let out: Record<string, unknown> | undefined;
  for (const [k, x] of Object.entries(v)) {
    const y = roundedJson(x);
    if (y !== x) (out ??= { ...v })[k] = y;
  }
  return out ?? v;
}

/**
 * JSON text of a request value for a message, bigints written as the integers they are (JSON.stringify
 * throws on them); undefined for undefined.
 * @example
 * jsonText({ id: 9007199254740993n }) // '{"id":9007199254740993}'
 */
export function jsonText(v: unknown): string | undefined {
  return stringify(v);
}
