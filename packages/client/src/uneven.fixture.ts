// Test fixture: a response body written chunked, in uneven writes that respect backpressure.
import type { ServerResponse } from 'node:http';

/** Writes `payload` to `res` in pieces of 1–200 000 bytes (a fixed, uneven pattern), then ends it. */
export function writeUneven(res: ServerResponse, payload: Uint8Array): void {
  let at = 0;
  const step = (): void => {
    while (at < payload.byteLength) {
      const n = 1 + ((at * 7919) % 200_000);
      const ok = res.write(payload.subarray(at, at + n));
      at += n;
      if (!ok) return void res.once('drain', step);
    }
    res.end();
  };
  step();
}
