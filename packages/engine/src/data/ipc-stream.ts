// Arrow IPC streams (HTTP answers and request bodies) read message by message as the bytes arrive: each message body is copied once,
// straight from the socket's chunks into its own 8-byte aligned buffer (no growing buffer, no re-join),
// and apache-arrow's synchronous stream reader decodes a message only once all of it is there.
import type { Readable } from 'node:stream';
import { HaloclineError } from '../errors.js';
import { Message, type RecordBatch, RecordBatchReader, type RecordBatchStreamReader, type Schema } from 'apache-arrow';

/** What an IPC response held besides its batches. */
export interface IpcEnd {
  readonly schema: Schema;
  /** Whatever followed the end-of-stream marker (the JSON trailer of a select), as text. */
  readonly trailer: string;
}

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
}

/** Batches decoded but not yet taken before the response is paused. */
const AHEAD = 8;

/**
 * Yields every record batch of the IPC stream in `body` (zero-row ones too, with their metadata) as
 * soon as it has fully arrived; returns the schema and the trailer. A Node stream is read in flowing
 * mode (paused while the consumer is `AHEAD` batches behind); stopping early destroys it.
 * @example
 * const it = readIpcStream(res); for (let r = await it.next(); !r.done; r = await it.next()) use(r.value);
 */
export async function* readIpcStream(body: Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>, options: IpcReadOptions = {}): AsyncGenerator<RecordBatch, IpcEnd> {
  const framer = new IpcFramer();
  const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
  let size = 0;
  const count = (chunk: Uint8Array) => {
    size += chunk.byteLength;
    if (size > max) throw options.tooLarge?.(max) ?? new HaloclineError('InvalidArgument', `the Arrow IPC stream is larger than the limit of ${max} bytes`);
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
  body.on('data', onData).once('end', onEnd).once('error', onError).once('close', onEnd);
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
    body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onEnd);
    if (!done) {
      if (options.release === 'drain' && size <= max) body.resume();
      else body.destroy();
    }
  }
}

function isNodeStream(b: unknown): b is Readable {
  return typeof (b as Readable).on === 'function' && typeof (b as Readable).pause === 'function';
}

/**
 * Frames an IPC stream pushed in arbitrary chunks: prefix (continuation marker and metadata length,
 * or the pre-0.15 bare length), flatbuffer metadata, body. Complete record batches wait in `take()`.
 */
export class IpcFramer {
  private readonly head: Uint8Array[] = []; // prefix and metadata bytes gathered so far
  private headSize = 0;
  private need = 4; // bytes of prefix/metadata wanted before the next step
  private message: Message | undefined;
  private body: Uint8Array | undefined;
  private filled = 0;
  private reader: RecordBatchStreamReader | undefined;
  private readonly queue: Uint8Array[] = []; // whole messages for the reader
  private readonly batches: RecordBatch[] = [];
  private readonly trailer: Uint8Array[] = [];
  private ended = false;
  private starved = 0;

  /** Decoded batches waiting. */
  get ready(): number {
    return this.batches.length;
  }

  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.byteLength) {
      if (this.ended) {
        this.trailer.push(chunk.subarray(at));
        return;
      }
      if (this.body) {
        const n = Math.min(chunk.byteLength - at, this.body.byteLength - this.filled);
        this.body.set(chunk.subarray(at, at + n), this.filled);
        this.filled += n;
        at += n;
        if (this.filled === this.body.byteLength) this.complete();
        continue;
      }
      const n = Math.min(chunk.byteLength - at, this.need - this.headSize);
      this.head.push(chunk.subarray(at, at + n));
      this.headSize += n;
      at += n;
      if (this.headSize === this.need) this.step();
    }
  }

  /** The batches decoded so far (and forgets them). */
  take(): RecordBatch[] {
    return this.batches.splice(0, this.batches.length);
  }

  /** The schema and trailer once the end-of-stream marker was read; `Corrupt` otherwise. */
  end(): IpcEnd {
    if (!this.reader) throw corrupt('the answer holds no Arrow IPC schema');
    if (!this.ended) throw corrupt('the Arrow IPC stream ended in the middle of a message (connection closed early?)');
    return { schema: this.reader.schema, trailer: Buffer.concat(this.trailer).toString('utf8') };
  }

  // the head holds `need` bytes: read the length, or the metadata
  private step(): void {
    const bytes = this.headBytes();
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength === 4 || (bytes.byteLength === 8 && view.getInt32(0, true) === -1)) {
      const length = view.getInt32(bytes.byteLength - 4, true);
      if (length === -1 && bytes.byteLength === 4) return void (this.need = 8);
      if (length === 0) return void (this.ended = true);
      if (length < 0) throw corrupt(`a negative metadata length ${length}`);
      this.need = bytes.byteLength + length;
      return;
    }
    const prefix = view.getInt32(0, true) === -1 ? 8 : 4;
    this.message = Message.decode(bytes.subarray(prefix));
    this.queue.push(bytes);
    // not zero-filled: every byte is written from the chunks
    this.body = Buffer.allocUnsafeSlow(this.message.bodyLength);
    this.filled = 0;
    if (this.message.bodyLength === 0) this.complete();
  }

  // a whole message is here: hand it to the reader
  private complete(): void {
    const message = this.message!;
    if (this.body!.byteLength > 0) this.queue.push(this.body!);
    this.body = undefined;
    this.message = undefined;
    this.head.length = 0;
    this.headSize = 0;
    this.need = 4;
    if (message.isSchema()) {
      if (this.reader) throw corrupt('a second schema message inside one stream');
      this.reader = RecordBatchReader.from(this.source()) as RecordBatchStreamReader;
      this.reader.open();
    } else if (message.isRecordBatch()) {
      if (!this.reader) throw corrupt('a record batch before the schema');
      const r = this.reader.next();
      if (r.done) throw corrupt('the reader ended before a buffered record batch');
      this.batches.push(r.value);
    } // a dictionary batch stays queued: the reader takes it with the record batch that follows
  }

  private headBytes(): Uint8Array {
    if (this.head.length === 1) return this.head[0]!;
    const out = Buffer.concat(this.head);
    this.head.length = 0;
    this.head.push(out);
    return out;
  }

  // what the reader pulls from, synchronously; apache-arrow's adapter also probes with a size of 0,
  // which an empty chunk answers: only a reader starved for real (ruled out by the framing) sees the end
  private source(): IterableIterator<Uint8Array> {
    const self = this;
    return {
      [Symbol.iterator]() {
        return this;
      },
      next() {
        if (self.queue.length > 0) {
          self.starved = 0;
          return { done: false, value: self.queue.shift()! };
        }
        return ++self.starved > 16 ? { done: true, value: undefined } : { done: false, value: EMPTY };
      },
    };
  }
}

const EMPTY = new Uint8Array(0);

function corrupt(what: string): HaloclineError {
  return new HaloclineError('Corrupt', `unreadable Arrow IPC answer: ${what}`);
}
