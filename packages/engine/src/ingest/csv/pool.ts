// A few parsing workers for one CSV ingest (warm ones reused, see workers.ts): the schema is sent
// first, requests go round robin, replies come back by id.
import type { Worker } from 'node:worker_threads';
import type { Schema } from 'apache-arrow';
import { HaloclineError } from '../../errors.js';
import { encodeSchema } from '../../schema/serialize.js';
import type { ParseReply, ParseRequest, SchemaMessage } from './protocol.js';
import { csvParsers } from './workers.js';

interface Waiting {
  resolve(r: ParseReply): void;
  reject(e: Error): void;
}

/** Parsing workers for one schema; `close` hands them back (or ends those still owing replies). */
export class ParsePool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, Waiting>();
  private next = 0;
  private failure: Error | undefined;
  private readonly onMessage = (r: ParseReply) => {
    this.waiting.get(r.id)?.resolve(r);
    this.waiting.delete(r.id);
  };
  private readonly onError = (e: Error) => this.fail(e.message);
  private readonly onExit = () => this.fail('a CSV parsing worker stopped');

  constructor(schema: Schema, size: number) {
    const message: SchemaMessage = { schema: encodeSchema(schema) };
    this.workers = Array.from({ length: size }, () => {
      const w = csvParsers.acquire();
      w.on('message', this.onMessage);
      w.on('error', this.onError);
      w.on('exit', this.onExit);
      w.postMessage(message);
      return w;
    });
  }

  /** Parses a block in the next worker. */
  parse(request: Omit<ParseRequest, 'id'>): Promise<ParseReply> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.workers[id % this.workers.length]!.postMessage({ ...request, id } satisfies ParseRequest);
    });
  }

  async close(): Promise<void> {
    const reusable = !this.failure && this.waiting.size === 0;
    this.failure ??= new HaloclineError('Closed', 'the CSV parsing workers were closed');
    for (const w of this.workers) {
      w.off('message', this.onMessage);
      w.off('error', this.onError);
      w.off('exit', this.onExit);
    }
    if (reusable) for (const w of this.workers) csvParsers.release(w);
    else await Promise.all(this.workers.map((w) => w.terminate()));
    for (const w of this.waiting.values()) w.reject(this.failure);
    this.waiting.clear();
  }

  private fail(message: string): void {
    if (this.failure) return;
    // not the file's fault (a worker died): an engine failure, not InvalidData
    this.failure = new Error(`CSV parsing failed: ${message}`);
    for (const w of this.waiting.values()) w.reject(this.failure);
    this.waiting.clear();
  }
}
