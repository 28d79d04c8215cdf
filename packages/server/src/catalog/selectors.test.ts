// The catalog list body: an OQS filter, or {selectors: [{kind}]} (any selector's kind matches).
import { describe, expect, it } from 'vitest';
import { compileOqs } from '../oqs/index.js';
import { listFilter } from './selectors.js';

const DATASET = 'catalog.example.io/dataset';
const COLLECTION = 'catalog.example.io/dataCollection';
const resources = [DATASET, COLLECTION, 'catalog.example.io/observable'].map((kind) => ({ kind, metadata: { name: kind.split('/')[1] } }));
const kindsListed = (body: unknown) => resources.filter(compileOqs(listFilter(body))).map((r) => r.kind);
const refusal = (body: unknown): unknown => {
  try {
    listFilter(body);
  } catch (e) {
    return e;
  }
  throw new Error('accepted');
};

describe('listFilter', () => {
  it('{selectors: [{kind}]} lists the resources of that kind; several selectors, of any of them', () => {
    expect(kindsListed({ selectors: [{ kind: DATASET }] })).toEqual([DATASET]);
    expect(kindsListed({ selectors: [{ kind: DATASET }, { kind: COLLECTION }] })).toEqual([DATASET, COLLECTION]);
    expect(kindsListed({ selectors: [{ kind: 'catalog.example.io/other' }] })).toEqual([]);
  });

  it('any other body is an OQS filter, as before', () => {
    expect(kindsListed(undefined)).toHaveLength(3);
    expect(kindsListed({ '#EQUALS': ['$kind', COLLECTION] })).toEqual([COLLECTION]);
    expect(kindsListed({ metadata: { name: 'dataset' } })).toEqual([DATASET]);
  });

  it.each([
    [{ selectors: { kind: DATASET } }, 'at selectors: expected a non-empty array'],
    [{ selectors: [] }, 'at selectors: expected a non-empty array'],
    [{ selectors: [{ kind: DATASET }, { name: 'x' }] }, 'at selectors[1]: unknown selector field "name"'],
    [{ selectors: [{}] }, 'at selectors[0]: a selector needs "kind"'],
    [{ selectors: [{ kind: 5 }] }, 'at selectors[0].kind: expected a kind <group>/<type>'],
    [{ selectors: ['dataset'] }, 'at selectors[0]: a selector is {"kind": "<group>/<type>"}'],
    [{ selectors: [{ kind: DATASET }], '#AND': [] }, 'has no other keys, got "#AND"'],
  ])('a malformed selectors body %j is a 400 saying what is wrong', (body, message) => {
    expect(refusal(body)).toMatchObject({ status: 400, code: 'InvalidQuery', message: expect.stringContaining(message) });
  });
});
