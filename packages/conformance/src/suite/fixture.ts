// The suite's table: every kind of column the behaviours touch, and rows with known answers.
import type { TableApi } from '@halocline/engine';
import { Bool, Field, Float64, Int32, Int64, Schema, TimestampMillisecond, Utf8 } from 'apache-arrow';
import { expect } from 'vitest';

const m = (entries: [string, string][]) => new Map(entries);

/** id, name, depth, temp (aggr mean), big, time, flag, lat/lon, geom (WKT). */
export const fixtureSchema = new Schema([
  new Field('id', new Int32(), false, m([['description', 'cast id']])),
  new Field('name', new Utf8(), true),
  new Field('depth', new Float64(), false, m([['unit', 'm']])),
  new Field('temp', new Float64(), true, m([['aggr', 'mean']])),
  new Field('big', new Int64(), true),
  new Field('time', new TimestampMillisecond(), true),
  new Field('flag', new Bool(), true),
  new Field('lat', new Float64(), true, m([['class', 'latitude']])),
  new Field('lon', new Float64(), true, m([['class', 'longitude']])),
  new Field('geom', new Utf8(), true, m([['class', 'geometry']])),
]);

const t0 = Date.UTC(2024, 0, 1);

/** Six rows; row i has id i+1. */
export const fixtureRows = [
  { id: 1, name: 'a', depth: 10, temp: 20, big: 1n, time: new Date(t0), flag: true, lat: 5, lon: 5, geom: 'POINT(5 5)' },
  { id: 2, name: 'b', depth: 150, temp: 8, big: 2n, time: new Date(t0 + 3600_000), flag: false, lat: 20, lon: 20, geom: 'POINT(20 20)' },
  { id: 3, name: 'c', depth: 600, temp: 4, big: 9007199254740993n, time: new Date(t0 + 7200_000), flag: true, lat: 1, lon: -5, geom: 'LINESTRING(-5 1, 1 1)' },
  { id: 4, name: 'a', depth: 1200, temp: 3, big: null, time: null, flag: null, lat: 10, lon: 10, geom: 'POLYGON((8 8, 12 8, 12 12, 8 12, 8 8))' },
  { id: 5, name: null, depth: 50, temp: null, big: -4n, time: new Date(t0 + 86400_000), flag: false, lat: null, lon: null, geom: null },
  { id: 6, name: 'b', depth: 3000, temp: 2, big: 6n, time: new Date(t0 + 2 * 86400_000), flag: true, lat: 1, lon: 9, geom: 'POINT(9 1)' },
];

/** A fresh table with the fixture schema and rows. */
export async function filled(open: () => Promise<TableApi>): Promise<TableApi> {
  const t = await open();
  await t.create(fixtureSchema);
  await t.insert(fixtureRows);
  return t;
}

/** The ids the select returns, sorted. */
export async function ids(t: { select: TableApi['select'] }, filter?: string, vars?: Record<string, unknown> | unknown[]): Promise<number[]> {
  const rows = await t.select(filter, { cols: ['id'], ...(vars ? { vars } : {}) }).all();
  return rows.map((r) => r.id as number).sort((a, b) => a - b);
}

/** Awaits a rejection and checks its engine error code; returns the error. */
export async function rejects(code: string, fn: () => Promise<unknown>): Promise<Error & { code: string }> {
  let error: unknown;
  try {
    await fn();
  } catch (e) {
    error = e;
  }
  expect(error, `expected a ${code} error`).toBeInstanceOf(Error);
  expect((error as { code?: string }).code, (error as Error).message).toBe(code);
  return error as Error & { code: string };
}
