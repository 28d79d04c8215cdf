// The validators themselves: they accept a known-good item and reject broken ones (so they can fail).
import { describe, expect, it } from 'vitest';
import { assertValid } from './validate.js';

const item = {
  type: 'Feature', stac_version: '1.0.0', id: 'a', geometry: { type: 'Point', coordinates: [1, 2] }, bbox: [1, 2, 1, 2],
  properties: { datetime: '2020-01-01T00:00:00Z' }, links: [{ rel: 'self', href: 'https://x.example/a' }], assets: {},
};

describe('offline STAC validators', () => {
  it('accepts a minimal valid item and item collection', () => {
    assertValid('item', item);
    assertValid('itemCollection', { type: 'FeatureCollection', features: [item], links: [] });
  });
  it('rejects an item without datetime, with a bad geometry, or with a bad link', () => {
    expect(() => assertValid('item', { ...item, properties: {} })).toThrow(/invalid/);
    expect(() => assertValid('item', { ...item, geometry: { type: 'Point', coordinates: 'x' } })).toThrow(/invalid/);
    expect(() => assertValid('item', { ...item, links: [{ rel: 'self' }] })).toThrow(/invalid/);
    expect(() => assertValid('itemCollection', { type: 'FeatureCollection', features: [{ ...item, id: 5 }] })).toThrow(/invalid/);
  });
  it('rejects a collection with an invalid extent and a landing page without conformsTo', () => {
    expect(() => assertValid('collection', { type: 'Collection', stac_version: '1.0.0', id: 'c', description: 'd', license: 'MIT', links: [], extent: { spatial: { bbox: [[1]] }, temporal: { interval: [[null, null]] } } })).toThrow(/invalid/);
    expect(() => assertValid('landing', { type: 'Catalog', stac_version: '1.0.0', id: 'x', description: 'd', links: [] })).toThrow(/invalid/);
  });
});
