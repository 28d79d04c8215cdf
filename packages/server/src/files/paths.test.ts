// fileTarget: the file and route a path after /data/{ref}/ names, the trailing "metadata" rule included.
import { describe, expect, it } from 'vitest';
import { type FileHints, fileTarget } from './paths.js';

const files = (...names: string[]): FileHints['exists'] => (n) => names.includes(n);
const hints = (over: Partial<FileHints> = {}): FileHints => ({ bytes: false, exists: files(), ...over });

describe('fileTarget', () => {
  it('joins the segments with "/" into the file name, for every method', () => {
    expect(fileTarget('GET', ['dir', 'a b.txt'], hints())).toEqual({ route: 'GET :name', name: 'dir/a b.txt' });
    expect(fileTarget('HEAD', ['a', 'b', 'c.csv'], hints())).toEqual({ route: 'GET :name', name: 'a/b/c.csv' });
    expect(fileTarget('PATCH', ['dir', 'a.txt'], hints({ bytes: true }))).toEqual({ route: 'PATCH :name', name: 'dir/a.txt' });
    expect(fileTarget('PATCH', ['dir', 'a.txt'], hints())).toEqual({ route: 'PATCH :name', name: 'dir/a.txt' });
    expect(fileTarget('DELETE', ['dir', 'a.txt'], hints())).toEqual({ route: 'DELETE :name', name: 'dir/a.txt' });
  });

  it('one segment is the file of that name, "metadata" and names holding "/" (sent encoded) included', () => {
    expect(fileTarget('GET', ['cast.csv'], hints())).toEqual({ route: 'GET :name', name: 'cast.csv' });
    expect(fileTarget('GET', ['metadata'], hints())).toEqual({ route: 'GET :name', name: 'metadata' });
    expect(fileTarget('GET', ['dir/metadata'], hints())).toEqual({ route: 'GET :name', name: 'dir/metadata' });
    expect(fileTarget('PATCH', ['dir/metadata'], hints())).toEqual({ route: 'PATCH :name', name: 'dir/metadata' });
  });

  it('a last segment "metadata" is the metadata of the file named by the rest', () => {
    expect(fileTarget('GET', ['cast.csv', 'metadata'], hints())).toEqual({ route: 'GET :name/metadata', name: 'cast.csv' });
    expect(fileTarget('GET', ['dir', 'a b.txt', 'metadata'], hints())).toEqual({ route: 'GET :name/metadata', name: 'dir/a b.txt' });
    expect(fileTarget('HEAD', ['dir/a', 'metadata'], hints())).toEqual({ route: 'GET :name/metadata', name: 'dir/a' });
    expect(fileTarget('PATCH', ['dir', 'a b.txt', 'metadata'], hints())).toEqual({ route: 'PATCH :name/metadata', name: 'dir/a b.txt' });
    // "metadata" inside a segment (an encoded slash) is part of the name
    expect(fileTarget('GET', ['dir', 'x/metadata'], hints())).toEqual({ route: 'GET :name', name: 'dir/x/metadata' });
  });

  it('GET: an existing file whose full name ends in /metadata wins over the metadata of the rest', () => {
    const both = hints({ exists: files('x', 'x/metadata', 'd/x/metadata') });
    expect(fileTarget('GET', ['x', 'metadata'], both)).toEqual({ route: 'GET :name', name: 'x/metadata' });
    expect(fileTarget('HEAD', ['d', 'x', 'metadata'], both)).toEqual({ route: 'GET :name', name: 'd/x/metadata' });
    // its own metadata is one "metadata" further
    expect(fileTarget('GET', ['x', 'metadata', 'metadata'], both)).toEqual({ route: 'GET :name/metadata', name: 'x/metadata' });
    expect(fileTarget('GET', ['y', 'metadata'], both)).toEqual({ route: 'GET :name/metadata', name: 'y' });
  });

  it('PATCH: bytes upload to the full name, anything else updates the metadata of the rest; no lookup', () => {
    const lookups: string[] = [];
    const exists = (n: string) => (lookups.push(n), true);
    expect(fileTarget('PATCH', ['x', 'metadata'], { bytes: true, exists })).toEqual({ route: 'PATCH :name', name: 'x/metadata' });
    expect(fileTarget('PATCH', ['x', 'metadata'], { bytes: false, exists })).toEqual({ route: 'PATCH :name/metadata', name: 'x' });
    expect(lookups).toEqual([]);
  });

  it('DELETE always names the file of the full name; other methods have no file route', () => {
    expect(fileTarget('DELETE', ['x', 'metadata'], hints({ exists: files() }))).toEqual({ route: 'DELETE :name', name: 'x/metadata' });
    expect(fileTarget('POST', ['x'], hints())).toBeUndefined();
    expect(fileTarget('PUT', ['x', 'metadata'], hints())).toBeUndefined();
  });

  it('asks whether a file exists only for a GET that could be either', () => {
    const lookups: string[] = [];
    const exists = (n: string) => (lookups.push(n), false);
    fileTarget('GET', ['a', 'b'], { bytes: false, exists });
    fileTarget('GET', ['metadata'], { bytes: false, exists });
    fileTarget('DELETE', ['a', 'metadata'], { bytes: false, exists });
    expect(lookups).toEqual([]);
    fileTarget('GET', ['a', 'b', 'metadata'], { bytes: false, exists });
    expect(lookups).toEqual(['a/b/metadata']);
  });
});
