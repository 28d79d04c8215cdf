// The body of a DirectHttp answer: a flowing-stream-like emitter of views of the socket's reused read buffer.
import { EventEmitter } from 'node:events';

/**
 * An answer body, read like a flowing Node stream: `data` events, `end`, `error`, `pause()`/`resume()`,
 * `destroy()`. Each `data` chunk is a view of the socket's read buffer, valid only during the event
 * (copy what you keep). A `pause()` takes effect after the bytes of the current socket read.
 */
export class DirectBody extends EventEmitter {
  private paused = false;
  private state: 'open' | 'ended' | 'closed' = 'open';
  private endEmitted = false;
  private readonly held: Buffer[] = []; // bytes that came while no reader listened (copies)

  /** @internal */
  constructor(private readonly control: { resume(): void; destroy(): void }) {
    super();
    this.on('newListener', (event: string) => {
      if (event === 'data') queueMicrotask(() => this.pump());
    });
  }

  isPaused(): boolean {
    return this.paused;
  }

  pause(): this {
    this.paused = true;
    return this;
  }

  resume(): this {
    this.paused = false;
    this.pump();
    return this;
  }

  destroy(): this {
    if (this.state !== 'closed') {
      const was = this.state;
      this.state = 'closed';
      if (was === 'open') this.control.destroy();
      this.emit('close');
    }
    return this;
  }

  /** The whole body as text (error answers). */
  async text(): Promise<string> {
    const parts: Buffer[] = [];
    const done = new Promise<void>((resolve, reject) => this.once('end', resolve).once('error', reject));
    this.on('data', (c: Uint8Array) => parts.push(Buffer.from(c)));
    this.resume();
    await done;
    return Buffer.concat(parts).toString('utf8');
  }

  /** @internal A socket read's bytes (a view); false when the transport should stop reading for now. */
  deliver(view: Uint8Array): boolean {
    if (this.state === 'closed') return false;
    if (this.held.length === 0 && this.flowing()) {
      this.emit('data', view);
      return !this.paused;
    }
    this.held.push(Buffer.from(view));
    return false;
  }

  /** @internal The body is complete (or failed). */
  finish(error?: Error): void {
    if (this.state !== 'open') return;
    this.state = 'ended';
    if (error) {
      this.held.length = 0;
      this.emit('error', error);
      this.emit('close');
      return;
    }
    this.pump();
  }

  private flowing(): boolean {
    return !this.paused && this.listenerCount('data') > 0;
  }

  // held bytes first, then the end; reading resumes once nothing is held
  private pump(): void {
    while (this.held.length > 0 && this.flowing()) this.emit('data', this.held.shift()!);
    if (!this.flowing() || this.held.length > 0) return;
    if (this.state === 'open') this.control.resume();
    else if (this.state === 'ended' && !this.endEmitted) {
      this.endEmitted = true;
      this.emit('end');
      this.emit('close');
    }
  }
}
