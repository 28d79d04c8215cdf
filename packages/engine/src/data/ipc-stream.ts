// Arrow IPC streams (HTTP answers and request bodies) read message by message as the bytes arrive, through
// IpcFramer; a Node stream in flowing mode, paused while the consumer lags.
import type { Readable } from 'node:stream';
import type { RecordBatch } from 'apache-arrow';
import { HaloclineError } from '../errors.js';
import { type IpcEnd, IpcFramer, type IpcFramerOptions } from './ipc-framer.js';

export { type IpcEnd, IpcFramer, type IpcFramerOptions };

/** Options of {@link readIpcStream}. */
export interface IpcReadOptions {
  /** At most this many bytes are read; then the read fails with `tooLarge(maxBytes)` and the stream is destroyed. */
  readonly maxBytes?: number;
  readonly tooLarge?: (maxBytes: number) => Error;
  /**
   * What happens to a Node stream not read to its end (early stop, error): `destroy` (default; an
   * HTTP answer's socket is closed), or `drain` (the rest is read and discarded, so a server can still
   * answer the request; a stream over `maxBytes` is destroyed all the same).
   */
  readonly release?: 'destroy' | 'drain';
  /** What the framer keeps may be views of the chunks read (default true; false copies it all; see {@link IpcFramerOptions}). */
  readonly views?: boolean;
}

/**
 * What {@link readIpcStream} needs of a Node stream: a `Readable`, or any body that emits `data`,
 * `end`, `error` and `close` the same way (with `views: false` when its chunks are reused after the event).
 */
export interface ChunkEmitter {
  on(event: string, listener: Listener): unknown;
  once(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
  pause(): unknown;
  resume(): unknown;
  isPaused(): boolean;
  destroy(): unknown;
}

type Listener = (...args: any[]) => void; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Batches decoded but not yet taken before the response is paused. */
const AHEAD = 8;

/**
 * Yields every record batch of the IPC stream in `body` (zero-row ones too, with their metadata) as
 * soon as it has fully arrived; returns the schema and the trailer. A Node stream is read in flowing
 * mode (paused while the consumer is `AHEAD` batches behind); stopping early destroys it.
 * @example
 * const it = readIpcStream(res); for (let r = await it.next(); !r.done; r = await it.next()) use(r.value);
 */
export async function* readIpcStream(body: Readable | ChunkEmitter | AsyncIterable<Uint8Array> | Iterable<Uint8Array>, options: IpcReadOptions = {}): AsyncGenerator<RecordBatch, IpcEnd> {
  const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const tooLarge = (limit: number) => options.tooLarge?.(limit) ?? new HaloclineError('InvalidArgument', `the Arrow IPC stream is larger than the limit of ${limit} bytes`);
  // a body claimed longer than the whole limit fails before its memory is taken
  const framer = new IpcFramer({ views: options.views ?? true, ...(Number.isFinite(max) ? { maxBody: max, tooLarge } : {}) });
  let size = 0;
  const count = (chunk: Uint8Array) => {
    size += chunk.byteLength;
    if (size > max) throw tooLarge(max);
  };
  if (!isNodeStream(body)) {
    for await (const chunk of body) {
      count(chunk);
      framer.push(chunk);
      yield* framer.take();
    }
    return framer.end();
  }
  let wake: (() => void) | undefined;
  let failed: Error | undefined;
  let done = false;
  const signal = () => {
    wake?.();
    wake = undefined;
  };
  const onData = (chunk: Uint8Array) => {
    if (failed) return;
    try {
      count(chunk);
      framer.push(chunk);
      if (framer.ready > AHEAD) body.pause();
    } catch (e) {
      failed = e as Error;
      body.pause();
    }
    if (framer.ready > 0 || failed) signal();
  };
  const onEnd = () => {
    done = true;
    signal();
  };
  const onError = (e: Error) => {
    failed ??= e;
    signal();
  };
  body.on('data', onData);
  body.once('end', onEnd);
  body.once('error', onError);
  body.once('close', onEnd);
  try {
    for (;;) {
      if (framer.ready > 0) {
        yield* framer.take();
        if (body.isPaused()) body.resume();
        continue;
      }
      if (failed) throw failed;
      if (done) return framer.end();
      await new Promise<void>((r) => (wake = r));
    }
  } finally {
    body.off('data', onData);
    body.off('end', onEnd);
    body.off('error', onError);
    body.off('close', onEnd);
    if (!done) {
      if (options.release === 'drain' && size <= max) drain(body, max - size);
      else body.destroy();
    }
  }
}

// reads the rest of `body` and drops it; past `left` more bytes the stream is destroyed instead
function drain(body: ChunkEmitter, left: number): void {
  const count = (chunk: Uint8Array) => {
    left -= chunk.byteLength;
    if (left < 0) {
      body.off('data', count);
      body.destroy();
    }
  };
  body.on('data', count);
  body.resume();
}

function isNodeStream(b: unknown): b is ChunkEmitter {
  return typeof (b as ChunkEmitter).on === 'function' && typeof (b as ChunkEmitter).pause === 'function';
}
