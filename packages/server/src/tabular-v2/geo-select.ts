// Select answers for GIS tools: GeoJSON and FlatGeobuf, with the same time budget and continuation as Arrow.
import { Readable } from 'node:stream';
import { flatgeobufChunks, geojsonFeatures } from '@halocline/engine';
import type { FastifyReply } from 'fastify';
import { budgeted, type Cut, jsonSafe, type Pinned, unpin } from './stream.js';

/** The HTTP trailer that carries a FlatGeobuf answer's continuation cursor. */
export const CURSOR_TRAILER = 'x-halocline-cursor';

/**
 * A FeatureCollection of the rows within the time budget. When rows remain, its foreign member
 * `cursor` (RFC 7946 §6.1) names the continuation; it is null once the result is complete. An error
 * after the answer began closes the collection with a member `error` (the message).
 */
export async function geojsonAnswer(reply: FastifyReply, p: Pinned, deadline: number, park: (p: Pinned) => string, table: string): Promise<FastifyReply> {
  const cut: Cut = { cursor: null };
  const features = geojsonFeatures(p.schema, budgeted(p, deadline, park, cut), table);
  const first = await opening(features, p);
  async function* collection(): AsyncGenerator<string> {
    yield '{"type":"FeatureCollection","features":[';
    let error: string | undefined;
    try {
      if (!first.done) yield JSON.stringify(first.value, jsonSafe);
      for await (const f of features) yield `,${JSON.stringify(f, jsonSafe)}`;
    } catch (e) {
      error = (e as Error).message;
    }
    yield `],"cursor":${JSON.stringify(cut.cursor)}${error === undefined ? '' : `,"error":${JSON.stringify(error)}`}}`;
  }
  return reply.type('application/geo+json').send(Readable.from(collection()));
}

/**
 * A FlatGeobuf file of the rows within the time budget (header first, no spatial index). The format
 * has no place for a value decided at the end, so the continuation goes into the HTTP trailer
 * `x-halocline-cursor` (empty when the result is complete); each continuation answer is again a whole
 * FlatGeobuf file holding the next rows.
 */
export async function flatgeobufAnswer(reply: FastifyReply, p: Pinned, deadline: number, park: (p: Pinned) => string, table: string): Promise<FastifyReply> {
  const cut: Cut = { cursor: null };
  const chunks = flatgeobufChunks(p.schema, budgeted(p, deadline, park, cut), table);
  const first = await opening(chunks, p);
  async function* file(): AsyncGenerator<Uint8Array> {
    if (!first.done) yield first.value;
    yield* chunks;
  }
  reply.trailer(CURSOR_TRAILER, async () => cut.cursor ?? '');
  return reply.type('application/flatgeobuf').send(Readable.from(file()));
}

// the first item, before the answer starts: a result without geometry fails here, as a 400 (and is released)
async function opening<T>(items: AsyncGenerator<T>, p: Pinned): Promise<IteratorResult<T>> {
  try {
    return await items.next();
  } catch (e) {
    unpin(p);
    throw e;
  }
}
