// installJsonParser: which integers are read again exactly (bigints), and what stays JSON.parse's reading;
// boolParam: the spellings of a boolean query parameter the clients send.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandler } from './error-handler.js';
import { boolParam, installJsonParser } from './body.js';

let app: FastifyInstance;
// each route answers what its parser read, bigints as {bigint: digits}
const echo = async (req: { body: unknown }) => JSON.parse(JSON.stringify(req.body ?? null, (_k, v) => (typeof v === 'bigint' ? { bigint: String(v) } : v)));

beforeAll(async () => {
  app = Fastify();
  installErrorHandler(app);
  installJsonParser(app);
  app.post('/plain', echo);
  await app.register(async (scope) => {
    installJsonParser(scope, 'body');
    scope.post('/body', echo);
  });
  await app.register(async (scope) => {
    installJsonParser(scope, ['vars']);
    scope.post('/vars', echo);
  });
  await app.ready();
});
afterAll(() => app.close());

const post = async (url: string, payload: string) => {
  const r = await app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
  return { status: r.statusCode, body: r.json() as unknown };
};
const big = (digits: string) => ({ bigint: digits });

describe("installJsonParser(scope, 'body')", () => {
  it('reads an integer beyond 2^53 exactly wherever it stands in the body', async () => {
    expect((await post('/body', '9007199254740993')).body).toEqual(big('9007199254740993'));
    expect((await post('/body', ' [ 9007199254740993 ,-9223372036854775808]\n')).body).toEqual([big('9007199254740993'), big('-9223372036854775808')]);
    expect((await post('/body', '{"a":{"b":[18446744073709551615]},"c":\t9007199254740993}')).body).toEqual({ a: { b: [big('18446744073709551615')] }, c: big('9007199254740993') });
  });

  it('leaves safe integers, floats, exponents and strings as JSON.parse reads them', async () => {
    const text = '{"safe": 1000000000000000, "max": 9007199254740991, "f": 9007199254740993.0, "e": 1e16, "d": 0.30000000000000004, "s": "9007199254740993", "n": 12345678901234567}';
    const { n: _n, ...rest } = JSON.parse(text) as Record<string, unknown>;
    expect((await post('/body', text)).body).toEqual({ ...rest, n: big('12345678901234567') });
    expect((await post('/body', '{"f": 9007199254740993.0, "s": "9007199254740993"}')).body).toEqual({ f: 9007199254740992, s: '9007199254740993' });
  });

  it('a key repeated in a body it reads again is a 400 saying so; bad JSON stays the syntax error', async () => {
    const twice = await post('/body', '{"a": 9007199254740993, "a": 1}');
    expect(twice.status).toBe(400);
    expect((twice.body as { description: string }).description).toBe("the JSON body could not be read exactly: Duplicate key 'a' encountered at position 25; send each key of an object once");
    expect((await post('/plain', '{"a": 9007199254740993, "a": 1}')).body).toEqual({ a: 1 });
    expect((await post('/body', '{"a": 9007199254740993,}')).status).toBe(400);
  });
});

describe('the other parsers', () => {
  it("the app's reads JSON as JSON.parse does; a fields list reads only those fields exactly", async () => {
    expect((await post('/plain', '{"a": 9007199254740993}')).body).toEqual({ a: 9007199254740992 });
    expect((await post('/vars', '{"vars": [9007199254740993], "a": 9007199254740993}')).body).toEqual({ vars: [big('9007199254740993')], a: 9007199254740992 });
  });
});

describe('boolParam', () => {
  it('reads true/false in any case (Python writes True/False, R TRUE/FALSE) and 1/0', () => {
    for (const v of ['true', 'True', 'TRUE', 'tRuE', '1', true]) expect(boolParam(v, 'overwrite', false), String(v)).toBe(true);
    for (const v of ['false', 'False', 'FALSE', 'fAlSe', '0', false]) expect(boolParam(v, 'overwrite', true), String(v)).toBe(false);
  });

  it('gives the fallback when the parameter is absent or empty', () => {
    expect(boolParam(undefined, 'overwrite', true)).toBe(true);
    expect(boolParam('', 'overwrite', false)).toBe(false);
  });

  it('refuses anything else with a 400 naming the parameter and the value', () => {
    for (const v of ['yes', 'no', 'on', '2', '01', ' true', 'true ', 'truee', 'None', ['true', 'false'], 1]) {
      expect(() => boolParam(v, 'delete_data', false), JSON.stringify(v)).toThrow(expect.objectContaining({ status: 400, code: 'BadRequest', message: expect.stringMatching(/^query parameter delete_data must be true or false .*, got /) }));
    }
    expect(() => boolParam('yes', 'force_delete', false)).toThrow('got "yes"');
  });
});
