// abortable: a body cut off by its signal, the rest drained so the answer can still be sent.
import { PassThrough, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { abortable } from './abortable.js';

describe('abortable', () => {
  it('passes every byte through when the signal does not abort', async () => {
    const body = new PassThrough();
    const out = abortable(body, new AbortController().signal);
    body.end(Buffer.from('hello'));
    const chunks: Buffer[] = [];
    for await (const c of out) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello');
  });

  it('fails its reader with the signal reason on abort, and drains the rest of the body', async () => {
    const body = new PassThrough();
    const ctl = new AbortController();
    const out = abortable(body, ctl.signal);
    let got = 0;
    const sink = new Writable({
      write(chunk: Buffer, _e, done) {
        got += chunk.length;
        if (got === 3) ctl.abort(new Error('dataset deleted'));
        done();
      },
    });
    const piped = pipeline(out, sink);
    body.write(Buffer.from('abc'));
    await expect(piped).rejects.toThrow('dataset deleted');
    // the rest is read and discarded: the body ends although nobody consumes `out`
    const ended = new Promise((r) => body.once('end', r));
    body.end(Buffer.alloc(1 << 20));
    await ended;
  });

  it('a body that fails fails the reader', async () => {
    const body = new PassThrough();
    const out = abortable(body, new AbortController().signal);
    const read = (async () => {
      for await (const _ of out) void _;
    })();
    body.destroy(new Error('client went away'));
    await expect(read).rejects.toThrow('client went away');
  });

  it('an already aborted signal fails at once', async () => {
    const ctl = new AbortController();
    ctl.abort(new Error('gone'));
    const out = abortable(new PassThrough(), ctl.signal);
    await expect((async () => { for await (const _ of out) void _; })()).rejects.toThrow('gone');
  });
});
