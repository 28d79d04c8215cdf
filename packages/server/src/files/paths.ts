// Which raw file, and which of its routes, a path after `/data/{ref}/` names. odp-sdk-python writes file
// names into paths unencoded (`f"/{name}/metadata"`), so `dir/a b.txt` arrives as several segments.

/** A raw file route: the file itself or its metadata, by method. */
export type FileRoute = 'GET :name' | 'PATCH :name' | 'DELETE :name' | 'GET :name/metadata' | 'PATCH :name/metadata';

/** A file route and the name of the file it acts on. */
export interface FileTarget {
  readonly route: FileRoute;
  readonly name: string;
}

/** What the path alone cannot tell: the request's body and the dataset's files. */
export interface FileHints {
  /** The body is bytes to store (an upload), not JSON, a form or nothing. */
  readonly bytes: boolean;
  /** Whether the dataset has a file of this name (asked only for a GET of a path ending in `/metadata`). */
  readonly exists: (name: string) => boolean;
}

/**
 * The route and file a path names, from its segments after the dataset reference, each percent-decoded
 * on its own (an encoded `%2F` stays inside its segment). The segments joined with `/` name a file. A
 * last segment `metadata` after at least one other names either that file or the metadata of the file
 * named by the segments before it:
 * - GET (HEAD): the file of the full name when one exists (an exact name wins), else the metadata;
 * - PATCH: with bytes, an upload to the full name (an upload is never JSON), else a metadata update;
 * - DELETE: the file of the full name (metadata is not deleted on its own).
 * Undefined for a method no file route has.
 * @example
 * fileTarget('GET', ['dir', 'a b.txt', 'metadata'], hints) // {route: 'GET :name/metadata', name: 'dir/a b.txt'} unless "dir/a b.txt/metadata" exists
 * fileTarget('GET', ['dir/metadata'], hints) // (the path dir%2Fmetadata) {route: 'GET :name', name: 'dir/metadata'}
 */
export function fileTarget(method: string, segments: readonly string[], hints: FileHints): FileTarget | undefined {
  const name = segments.join('/');
  const verb = method === 'HEAD' ? 'GET' : method;
  if (verb === 'DELETE') return { route: 'DELETE :name', name };
  if (verb !== 'GET' && verb !== 'PATCH') return undefined;
  const owner = segments.length > 1 && segments.at(-1) === 'metadata' ? segments.slice(0, -1).join('/') : undefined;
  const metadata = owner !== undefined && (verb === 'GET' ? !hints.exists(name) : !hints.bytes);
  return metadata ? { route: `${verb} :name/metadata`, name: owner } : { route: `${verb} :name`, name };
}
