// Test helper: a request body sent in two parts, the second only on release, to hold a request mid-body.

/** A streamed body and its controls. */
export interface GatedBody {
  /** Pass as the request body (`fetch` with `duplex: 'half'`). */
  readonly body: NonNullable<RequestInit['body']>;
  /** Resolves once the first part was written, i.e. (the part being far larger than socket buffers) the server's handler is reading the body. */
  readonly reading: Promise<void>;
  /** Sends the rest and ends the body. */
  release(): void;
}

/** `bytes[0, split)` at once, the rest on `release()`; make `split` several MiB so `reading` means what it says. */
export function gatedBody(bytes: Uint8Array, split: number): GatedBody {
  let release!: () => void;
  let reading!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const started = new Promise<void>((r) => (reading = r));
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      // with highWaterMark 0 the second pull comes only after the first part was written out
      async pull(c) {
        if (pulls++ === 0) return c.enqueue(bytes.subarray(0, split));
        reading();
        await gate;
        c.enqueue(bytes.subarray(split));
        c.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { body: body as unknown as NonNullable<RequestInit['body']>, release, reading: started };
}
