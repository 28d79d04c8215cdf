// Frames an Arrow IPC stream pushed in arbitrary chunks: a message body that lies within one chunk (8-byte
// aligned, most of that chunk's memory) is a view of it, any other is copied once into its own buffer;
// apache-arrow's synchronous reader decodes each message once it is all there.
import { HaloclineError } from '../errors.js';
import { Message, type RecordBatch, RecordBatchReader, type RecordBatchStreamReader, type Schema } from 'apache-arrow';
import { ipcMessageProblem } from './ipc-verify.js';

/** What an IPC stream held besides its batches. */
export interface IpcEnd {
  readonly schema: Schema;
  /** Whatever followed the end-of-stream marker (the JSON trailer of a select), as text. */
  readonly trailer: string;
}

/** Options of {@link IpcFramer}. */
export interface IpcFramerOptions {
  /**
   * Bodies may be views of the pushed chunks (default true): the pusher must then never write to a chunk
   * after pushing it (a socket's fresh read buffers, node:http's body chunks). False keeps nothing pushed
   * past the push (bodies, message heads and trailer are copied), so the pusher may reuse its memory.
   */
  readonly views?: boolean;
  /** A message whose body is longer than this fails with `tooLarge` before its memory is taken (default: no limit). */
  readonly maxBody?: number;
  readonly tooLarge?: (maxBody: number) => Error;
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
  private readonly views: boolean;
  private readonly maxBody: number;
  private readonly tooLarge: (maxBody: number) => Error;

  constructor(options: IpcFramerOptions = {}) {
    this.views = options.views ?? true;
    this.maxBody = options.maxBody ?? Number.MAX_SAFE_INTEGER;
    this.tooLarge = options.tooLarge ?? ((max) => corrupt(`a message body larger than the limit of ${max} bytes`));
  }

  /** Decoded batches waiting. */
  get ready(): number {
    return this.batches.length;
  }

  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.byteLength) {
      if (this.ended) {
        this.trailer.push(this.keep(chunk.subarray(at)));
        return;
      }
      if (this.message && !this.body) {
        const length = this.message.bodyLength;
        if (this.views && viewable(chunk, at, length)) {
          this.body = chunk.subarray(at, at + length);
          this.filled = length;
          at += length;
          this.complete();
          continue;
        }
        // not zero-filled: every byte is written from the chunks
        this.body = Buffer.allocUnsafeSlow(length);
        this.filled = 0;
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
      this.head.push(this.keep(chunk.subarray(at, at + n)));
      this.headSize += n;
      at += n;
      if (this.headSize === this.need) this.step();
    }
  }

  // bytes kept past this push: a view, or (views off) a copy, so the pusher may reuse its memory
  private keep(bytes: Uint8Array): Uint8Array {
    return this.views ? bytes : Uint8Array.prototype.slice.call(bytes);
  }

  /** The batches decoded so far (and forgets them). */
  take(): RecordBatch[] {
    return this.batches.splice(0, this.batches.length);
  }

  /** The schema and trailer once the end-of-stream marker was read; `Corrupt` otherwise. */
  end(): IpcEnd {
    if (!this.reader) throw corrupt('it holds no Arrow IPC schema');
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
    // apache-arrow trusts the flatbuffer's offsets and lengths: a damaged one could make it loop or
    // allocate without bound, so the metadata is verified first
    const metadata = bytes.subarray(prefix);
    const problem = ipcMessageProblem(metadata);
    if (problem) throw corrupt(problem);
    this.message = Message.decode(metadata);
    if (this.message.bodyLength > this.maxBody) throw this.tooLarge(this.maxBody);
    this.queue.push(bytes);
    // the body is taken from the next chunk bytes in push (a view or a copy)
    if (this.message.bodyLength === 0) this.complete();
  }

  // a whole message is here: hand it to the reader
  private complete(): void {
    const message = this.message!;
    if (this.body && this.body.byteLength > 0) this.queue.push(this.body);
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

/**
 * Whether `length` body bytes at `at` can be read in place: all inside the chunk, 8-byte aligned (column
 * buffers are typed-array views), and at least a quarter of the chunk's memory, which the batch keeps alive.
 */
function viewable(chunk: Uint8Array, at: number, length: number): boolean {
  return length > 0 && chunk.byteLength - at >= length && (chunk.byteOffset + at) % 8 === 0 && length * 4 >= chunk.buffer.byteLength;
}

function corrupt(what: string): HaloclineError {
  return new HaloclineError('Corrupt', `unreadable Arrow IPC stream: ${what}`);
}
