// A few parsing workers for one CSV ingest: requests go round robin, replies come back by id.
import { Worker } from 'node:worker_threads';
import type { Schema } from 'apache-arrow';
import { HaloclineError } from '../../errors.js';
import { encodeSchema } from '../../schema/serialize.js';
import { workerEntry } from '../worker-entry.js';
import type { ParseReply, ParseRequest, ParseWorkerData } from './protocol.js';

interface Waiting {
  resolve(r: ParseReply): void;
  reject(e: Error): void;
}

/** Parsing workers started for one schema; `close` ends them. */
export class ParsePool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, Waiting>();
  private next = 0;
  private failure: Error | undefined;

  constructor(schema: Schema, size: number) {
    const { filename, eval: inline } = workerEntry('csv/worker');
    const workerData: ParseWorkerData = { schema: encodeSchema(schema) };
    this.workers = Array.from({ length: size }, () => {
      const w = new Worker(filename, { workerData, eval: inline });
      w.on('message', (r: ParseReply) => {
        this.waiting.get(r.id)?.resolve(r);
        this.waiting.delete(r.id);
      });
      w.on('error', (e) => this.fail(e.message));
      w.on('exit', () => this.fail('a CSV parsing worker stopped'));
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
    this.failure ??= new HaloclineError('Closed', 'the CSV parsing workers were closed');
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private fail(message: string): void {
    if (this.failure) return;
    // not the file's fault (a worker died): an engine failure, not InvalidData
    this.failure = new Error(`CSV parsing failed: ${message}`);
    for (const w of this.waiting.values()) w.reject(this.failure);
    this.waiting.clear();
  }
}
