// How an HTTP/1.1 answer's body is delimited (RFC 9112 §6): chunked, a content length, or the connection's end.
import { HaloclineError } from '@halocline/engine';

/** Takes the body's bytes as they arrive and hands on the payload (views of what it was given). */
export interface BodyFraming {
  /** Consumes from `view` (up to the body's end) and returns how many bytes it took. */
  feed(view: Uint8Array, emit: (payload: Uint8Array) => void): number;
  /** The body ended (the connection may carry the next answer when `exact`). */
  readonly done: boolean;
  /** False when the body lasts until the connection closes. */
  readonly exact: boolean;
}

/** The framing of an answer with `status` and `headers` (lower-case names) to a request that was not HEAD. */
export function framingOf(status: number, headers: ReadonlyMap<string, string>): BodyFraming {
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) return new Fixed(0);
  const te = headers.get('transfer-encoding');
  if (te !== undefined) {
    if (!/(^|,)\s*chunked\s*$/i.test(te)) return new UntilClose();
    return new Chunked();
  }
  const cl = headers.get('content-length');
  if (cl === undefined) return new UntilClose();
  if (!/^\d+$/.test(cl.trim()) || !Number.isSafeInteger(Number(cl))) throw corrupt(`an invalid content-length ${JSON.stringify(cl)}`);
  return new Fixed(Number(cl));
}

class Fixed implements BodyFraming {
  readonly exact = true;
  constructor(private left: number) {}
  get done(): boolean {
    return this.left === 0;
  }
  feed(view: Uint8Array, emit: (payload: Uint8Array) => void): number {
    const n = Math.min(view.byteLength, this.left);
    if (n > 0) emit(view.subarray(0, n));
    this.left -= n;
    return n;
  }
}

class UntilClose implements BodyFraming {
  readonly exact = false;
  readonly done = false;
  feed(view: Uint8Array, emit: (payload: Uint8Array) => void): number {
    if (view.byteLength > 0) emit(view);
    return view.byteLength;
  }
}

/** Longest chunk-size or trailer line accepted. */
const LINE_LIMIT = 8 << 10;
const CR = 13;
const LF = 10;

/** `size[;ext] CRLF data CRLF` … `0 CRLF [trailer lines] CRLF`. */
class Chunked implements BodyFraming {
  readonly exact = true;
  done = false;
  private phase: 'size' | 'data' | 'data-end' | 'trailer' = 'size';
  private line: number[] = [];
  private left = 0;

  feed(view: Uint8Array, emit: (payload: Uint8Array) => void): number {
    let at = 0;
    while (at < view.byteLength && !this.done) {
      if (this.phase === 'data') {
        const n = Math.min(view.byteLength - at, this.left);
        emit(view.subarray(at, at + n));
        at += n;
        this.left -= n;
        if (this.left === 0) this.phase = 'data-end';
        continue;
      }
      const b = view[at++]!;
      if (b !== LF) {
        if (this.line.length >= LINE_LIMIT) throw corrupt('a chunk-size or trailer line is too long');
        this.line.push(b);
        continue;
      }
      const text = String.fromCharCode(...(this.line.at(-1) === CR ? this.line.slice(0, -1) : this.line));
      this.line = [];
      this.lineEnd(text);
    }
    return at;
  }

  private lineEnd(text: string): void {
    if (this.phase === 'data-end') {
      if (text !== '') throw corrupt('chunk data longer than its size');
      this.phase = 'size';
    } else if (this.phase === 'size') {
      const hex = text.split(';', 1)[0]!.trim();
      if (!/^[0-9a-fA-F]{1,12}$/.test(hex)) throw corrupt(`an invalid chunk size ${JSON.stringify(text.slice(0, 40))}`);
      this.left = Number.parseInt(hex, 16);
      this.phase = this.left === 0 ? 'trailer' : 'data';
    } else if (text === '') this.done = true; // trailer fields are not used by this client
  }
}

function corrupt(what: string): HaloclineError {
  return new HaloclineError('Corrupt', `unreadable HTTP answer: ${what}`);
}
