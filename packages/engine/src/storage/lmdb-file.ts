// Checks an LMDB data file before lmdb-js maps it: what would crash the process on open is refused.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { HaloclineError } from '../errors.js';

/**
 * lmdb maps the data file and trusts it: a file of garbage, zeros or cut short (a partial copy, a
 * damaged disk) crashed the whole process on open (SIGSEGV, SIGBUS). An existing, non-empty file
 * must hold two meta pages with the LMDB magic, and every page the trees of the newer meta page
 * (the one LMDB opens) reach must lie inside the file: a page the map reaches past the file's end
 * is a SIGBUS when read. Throws `Corrupt` naming the file. This does not catch damage inside the
 * pages (LMDB keeps no checksums of them).
 *
 * A healthy file may end before the meta page's last page in use (`mm_last_pg`): pages a commit
 * took from the end of the file and freed again in the same commit are listed free but never
 * written (LMDB says so beside `mm_last_pg`). Only then are the trees walked, so the check stays a
 * few reads in the usual case.
 */
export function checkDataFile(file: string): void {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    // another process may be writing a new environment's two meta pages right now (LMDB does that
    // under its lock file, which this check does not take): a file too short or without the magic
    // is looked at again a few times, a few milliseconds apart, before it is refused
    let first: Meta | undefined;
    for (let look = 1; ; look++) {
      const { size } = fstatSync(fd);
      if (size === 0) return; // created, not yet written: LMDB initialises it
      first = metaAt(fd, 0);
      if (size >= MIN_FILE && first) break;
      if (look < LOOKS) {
        Atomics.wait(pause, 0, 0, LOOK_MS);
        continue;
      }
      const why = size < MIN_FILE ? `${size} bytes, shorter than two pages` : 'no LMDB magic in its first page';
      throw corrupt(file, `is not an LMDB environment (${why})`);
    }
    // the second meta page starts at the page size the first records; LMDB opens the newer one
    if (!VALID_PAGE.has(first.pageSize)) return; // LMDB refuses it itself (an error, not a crash)
    for (let attempt = 1; ; attempt++) {
      const meta = newerMeta(fd, first);
      // the size after the meta pages were read: another process writes its pages before its meta page
      const now = fstatSync(fd).size;
      if (now >= (meta.lastPage + 1) * first.pageSize) return;
      const past = pagePastEnd(fd, first.pageSize, meta.roots, Math.floor(now / first.pageSize));
      if (past === undefined) return;
      // another process's commits may have reused the walked pages meanwhile: then walk the new trees
      if (attempt < WALKS && newerMeta(fd, first).txnid !== meta.txnid) continue;
      throw corrupt(file, `is cut short: ${now} bytes, but page ${past} (the file's bytes ${past * first.pageSize}–${(past + 1) * first.pageSize}), in use as of transaction ${meta.txnid}, lies past its end`);
    }
  } finally {
    closeSync(fd);
  }
}

// mm_magic of an LMDB meta page, as it is on disk (little-endian 0xBEEFC0DE)
const MAGIC = Buffer.from([0xde, 0xc0, 0xef, 0xbe]);
// LMDB pages are at least 4 KiB here (the OS page size) and a file starts with two meta pages
const MIN_FILE = 2 * 4096;
// page sizes LMDB uses (the OS page size, or a power of two the caller set)
const VALID_PAGE = new Set([512, 1024, 2048, 4096, 8192, 16384, 32768, 65536]);
// walks of the trees while other processes keep committing, before a page past the end is believed
const WALKS = 5;
// looks at a file that is not (yet) an environment, and the pause between them
const LOOKS = 10;
const LOOK_MS = 10;
const pause = new Int32Array(new SharedArrayBuffer(4));

interface Meta {
  pageSize: number;
  lastPage: number;
  txnid: bigint;
  /** The root pages of the free-page tree and the main tree (undefined: empty). */
  roots: (number | undefined)[];
}

/**
 * The fields of the meta page at `offset` this check needs (lmdb's `MDB_meta`, after the page
 * header, whose size differs between LMDB versions: found by the magic): mm_magic, mm_version,
 * mm_address, mm_mapsize, then mm_dbs[0] (the free-page tree, whose first field, md_pad, holds the
 * page size) and mm_dbs[1] (the main tree; `MDB_db` is 48 bytes, md_root its last 8), then
 * mm_last_pg and mm_txnid. Undefined without the magic.
 */
function metaAt(fd: number, offset: number): Meta | undefined {
  const head = Buffer.alloc(256);
  const n = readSync(fd, head, 0, head.length, offset);
  const at = head.subarray(0, Math.min(n, 64)).indexOf(MAGIC);
  if (at < 0 || n < at + 136) return undefined;
  return {
    pageSize: head.readUInt32LE(at + 24),
    lastPage: Number(head.readBigUInt64LE(at + 120)),
    txnid: head.readBigUInt64LE(at + 128),
    roots: [pageNumber(head.readBigUInt64LE(at + 64)), pageNumber(head.readBigUInt64LE(at + 112))],
  };
}

/** The meta page LMDB opens: the one of the two with the higher transaction id. */
function newerMeta(fd: number, first: Meta): Meta {
  const again = metaAt(fd, 0) ?? first;
  const second = metaAt(fd, first.pageSize);
  return second && second.txnid > again.txnid ? second : again;
}

// P_INVALID, the root of an empty tree
const NO_PAGE = 0xffff_ffff_ffff_ffffn;
const pageNumber = (n: bigint): number | undefined => (n === NO_PAGE ? undefined : n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n));

// lmdb-js's LMDB page header: mp_pgno (8), mp_txnid (8), mp_pad (2), mp_flags (2), mp_lower (2),
// mp_upper (2) or, on the first page of an overflow run, mp_pages (4); then the node offsets
const HEADER = 24;
const P_BRANCH = 0x01;
const P_LEAF = 0x02;
const P_LEAF2 = 0x20;
// node header: mn_lo, mn_hi (a branch's child page, or a leaf's data size), mn_flags (the child's
// top 16 bits in a branch), mn_ksize; then the key and the data
const NODE = 8;
const F_BIGDATA = 0x01; // a leaf's data is the number of its first overflow page
const F_SUBDATA = 0x02; // a leaf's data is an MDB_db: a named database or a sorted-duplicates tree

/**
 * The first page the trees from `roots` reach that starts at or past page `pages` (the file's
 * whole pages), or undefined when all lie inside. Reads every page reached: branch pages give
 * their children, leaves their overflow runs (all of a run's pages are read with its value) and
 * the roots of nested trees. A damaged page gives what its bytes say, within the page.
 */
function pagePastEnd(fd: number, pageSize: number, roots: (number | undefined)[], pages: number): number | undefined {
  const page = Buffer.alloc(pageSize);
  const seen = new Set<number>();
  const todo = roots.filter((r): r is number => r !== undefined);
  const readPage = (n: number) => readSync(fd, page, 0, pageSize, n * pageSize) === pageSize;
  while (todo.length > 0) {
    const n = todo.pop()!;
    if (n >= pages) return n;
    if (seen.has(n)) continue;
    seen.add(n);
    if (!readPage(n)) return n;
    const flags = page.readUInt16LE(18);
    if (flags & P_LEAF2 || !(flags & (P_BRANCH | P_LEAF))) continue; // fixed-size keys only, or not a tree page
    const keys = Math.min(page.readUInt16LE(20) >> 1, (pageSize - HEADER) >> 1);
    const runs: number[] = [];
    for (let i = 0; i < keys; i++) {
      const node = HEADER + page.readUInt16LE(HEADER + 2 * i);
      if (node + NODE > pageSize) continue;
      const lo = page.readUInt16LE(node);
      const hi = page.readUInt16LE(node + 2);
      const nodeFlags = page.readUInt16LE(node + 4);
      if (flags & P_BRANCH) {
        todo.push(lo + hi * 0x1_0000 + nodeFlags * 0x1_0000_0000);
        continue;
      }
      const data = node + NODE + page.readUInt16LE(node + 6);
      if (nodeFlags & F_BIGDATA && data + 8 <= pageSize) runs.push(pageNumber(page.readBigUInt64LE(data)) ?? Number.MAX_SAFE_INTEGER);
      else if (nodeFlags & F_SUBDATA && data + 48 <= pageSize) {
        const root = pageNumber(page.readBigUInt64LE(data + 40));
        if (root !== undefined) todo.push(root);
      }
    }
    // an overflow run: its first page's header holds its length in pages
    for (const first of runs) {
      if (first >= pages || !readPage(first)) return first;
      const length = page.readUInt32LE(20);
      if (first + length > pages) return Math.max(first, pages);
    }
  }
  return undefined;
}

const corrupt = (file: string, what: string) => new HaloclineError('Corrupt', `${file} ${what}; the store's metadata is damaged`, { path: file });
