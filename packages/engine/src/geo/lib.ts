// The geometry libraries, loaded on first use: jsts and h3-js take seconds of module loading under
// load, which every process importing the engine (workers, CLI children) would otherwise pay.
import { createRequire } from 'node:module';
import type * as H3 from 'h3-js';

const require = createRequire(import.meta.url);

/** A jsts class by its path under `org/locationtech/jts/` (jsts is ESM: Node ≥ 20.19 requires it). */
export function jsts<T>(path: string): T {
  return (require(`jsts/org/locationtech/jts/${path}`) as { default: T }).default;
}

let h3lib: typeof H3 | undefined;

/** h3-js (CommonJS). */
export function h3(): typeof H3 {
  return (h3lib ??= require('h3-js') as typeof H3);
}
