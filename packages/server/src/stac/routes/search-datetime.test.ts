// The datetime parameter over HTTP: RFC 3339 instants and intervals accepted, everything else a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, get, post, stacApp, type TestApp } from '../../test-util/app.js';
import { dataset, timeCoverage } from '../../test-util/catalog.js';

const VALID = [
  '2020-01-01T00:00:00Z', '2020-01-01T00:00:00z', '2020-01-01t00:00:00Z', '2020-01-01T00:00:00.1Z', '2020-01-01T00:00:00.12Z',
  '2020-01-01T00:00:00.123Z', '2020-01-01T00:00:00.1234Z', '2020-01-01T00:00:00.123456Z', '2020-01-01T00:00:00.123456789Z',
  '2020-01-01T00:00:00+01:00', '2020-01-01T00:00:00-05:30', '2020-01-01T00:00:00.5+14:00', '2020-02-29T12:00:00Z',
  '2000-02-29T00:00:00Z', '1970-01-01T00:00:00Z', '1900-06-30T23:59:59Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999Z',
  '2020-01-01T00:00:00Z/2020-12-31T23:59:59Z', '2020-01-01T00:00:00Z/..', '../2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z/',
  '/2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z/2020-01-01T00:00:00Z', '2020-01-01T00:00:00.000000001Z/2020-01-01T00:00:00.000000002Z',
  '2020-01-01T01:00:00+01:00/2020-01-01T00:00:00Z', '2020-01-01T03:00:00+02:00/2020-01-01T01:30:00Z',
  '2020-06-15T10:20:30.4Z/2021-06-15T10:20:30.4+00:00', '1999-01-01T00:00:00Z/2030-01-01T00:00:00Z', '2024-02-29T23:59:59.999Z/..',
];

const INVALID = [
  '', '/', '../..', '..', '2020', '2020-01-01', '2020-01-01T00:00:00', '2020-01-01T00:00Z', '2020-01-01 00:00:00Z',
  '2020-13-01T00:00:00Z', '2020-00-10T00:00:00Z', '2021-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2020-04-31T00:00:00Z',
  '2020-01-32T00:00:00Z', '2020-01-01T24:00:00Z', '2020-01-01T00:60:00Z', '2020-01-01T00:00:61Z', '2020-01-01T00:00:00.Z',
  '2020-01-01T00:00:00.1234567890Z', '2020-01-01T00:00:00+24:00', '2020-01-01T00:00:00+0100', '2020-01-01T00:00:00Z/2019-01-01T00:00:00Z',
  '2020-01-01T00:00:00.000000002Z/2020-01-01T00:00:00.000000001Z', '2020-01-01T00:00:00Z/2020-02-01T00:00:00Z/2020-03-01T00:00:00Z',
  'yesterday', '2020-1-01T00:00:00Z', '20200101T000000Z', '2020-01-01T00:00:00Z/now', ' 2020-01-01T00:00:00Z',
  '2020-01-01T00:00:00UTC', '+2020-01-01T00:00:00Z',
];

let t: TestApp;
beforeAll(async () => {
  // a: coverage through 2020 H1; b: an instant coverage; c: no coverage, created 2024-02-01T00:00:02Z
  t = await stacApp([
    dataset(0), timeCoverage(0, 'dataset-0', '2020-01-01T00:00:00Z', '2020-06-30T23:59:59.999Z'),
    dataset(1), timeCoverage(1, 'dataset-1', '2021-03-01T12:00:00.000Z', '2021-03-01T12:00:00.000Z'),
    dataset(2),
  ]);
});
afterAll(async () => { await t.app.close(); });

const ids = (r: { body: { features: { properties: { title: string } }[] } }) => r.body.features.map((f) => f.properties.title).sort();

describe('datetime', () => {
  it.each(VALID)('accepts %j by GET and POST', async (dt) => {
    await get(t.app, `/api/stac/search?datetime=${encodeURIComponent(dt)}`, 'itemCollection');
    await post(t.app, '/api/stac/search', { datetime: dt }, 'itemCollection');
  });

  it.each(INVALID)('rejects %j with a 400 that names datetime', async (dt) => {
    expectError(await get(t.app, `/api/stac/search?datetime=${encodeURIComponent(dt)}`), 400, /^datetime: /);
    expectError(await post(t.app, '/api/stac/search', { datetime: dt }), 400, /^datetime: /);
  });

  it('rejects a non-string datetime in a POST body', async () => {
    expectError(await post(t.app, '/api/stac/search', { datetime: 2020 }), 400, /datetime: must be a string/);
  });

  it('selects datasets whose time coverage (or creation instant) meets the range', async () => {
    const q = async (dt: string) => ids(await get(t.app, `/api/stac/search?datetime=${encodeURIComponent(dt)}`, 'itemCollection'));
    expect(await q('2020-03-01T00:00:00Z')).toEqual(['Dataset 0']);
    expect(await q('2020-06-30T23:59:59.999Z')).toEqual(['Dataset 0']);
    expect(await q('2020-06-30T23:59:59.9991Z/..')).toEqual(['Dataset 1', 'Dataset 2']);
    expect(await q('../2019-12-31T23:59:59.999999999Z')).toEqual([]);
    expect(await q('../2020-01-01T00:00:00Z')).toEqual(['Dataset 0']);
    expect(await q('2021-03-01T12:00:00Z')).toEqual(['Dataset 1']);
    expect(await q('2021-03-01T12:00:00.0000001Z')).toEqual([]);
    expect(await q('2021-03-01T13:00:00+01:00')).toEqual(['Dataset 1']);
    expect(await q('2024-02-01T00:00:02Z')).toEqual(['Dataset 2']);
    expect(await q('2019-01-01T00:00:00Z/2030-01-01T00:00:00Z')).toEqual(['Dataset 0', 'Dataset 1', 'Dataset 2']);
  });

  it('maps coverage to start/end datetimes and an instant to datetime', async () => {
    const r = await get(t.app, '/api/stac/search?limit=3', 'itemCollection');
    const byTitle = Object.fromEntries(r.body.features.map((f: { properties: { title: string } }) => [f.properties.title, f.properties]));
    expect(byTitle['Dataset 0']).toMatchObject({ datetime: null, start_datetime: '2020-01-01T00:00:00.000Z', end_datetime: '2020-06-30T23:59:59.999Z' });
    expect(byTitle['Dataset 1']).toMatchObject({ datetime: '2021-03-01T12:00:00.000Z' });
    expect(byTitle['Dataset 2']).toMatchObject({ datetime: '2024-02-01T00:00:02.000Z' });
    expect(byTitle['Dataset 2'].start_datetime).toBeUndefined();
  });
});
