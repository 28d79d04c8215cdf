// Checks an LMDB data file before lmdb-js maps it: what would crash the process on open is refused.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { HaloclineError } from '../errors.js';

/**
 * lmdb maps the data file and trusts it: a file of garbage, zeros or cut short (a partial copy, a
 * damaged disk) crashed the whole process on open (SIGSEGV, SIGBUS). An existing, non-empty file
 * must hold two meta pages with the LMDB magic, and reach the end of the last page the newer meta
 * page (the one LMDB opens) says is in use: a page the map reaches past the file's end is a SIGBUS
 * when read. Throws `Corrupt` naming the file. This does not catch damage inside the pages (LMDB
 * keeps no checksums of them).
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
    const { size } = fstatSync(fd);
    if (size === 0) return; // created, not yet written: LMDB initialises it
    const first = metaAt(fd, 0);
    if (size < MIN_FILE || !first) {
      const why = size < MIN_FILE ? `${size} bytes, shorter than two pages` : 'no LMDB magic in its first page';
      throw corrupt(file, `is not an LMDB environment (${why})`);
    }
    // the second meta page starts at the page size the first records; LMDB opens the newer one
    if (!VALID_PAGE.has(first.pageSize)) return; // LMDB refuses it itself (an error, not a crash)
    const second = metaAt(fd, first.pageSize);
    const meta = second && second.txnid > first.txnid ? second : first;
    const end = (meta.lastPage + 1) * first.pageSize;
    // the size after the meta pages were read: another process commits its pages before its meta page
    const now = fstatSync(fd).size;
    if (now < end) throw corrupt(file, `is cut short: ${now} bytes, but its pages in use reach ${end} (transaction ${meta.txnid})`);
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

/**
 * The fields of the meta page at `offset` this check needs (lmdb's `MDB_meta`, after the page
 * header, whose size differs between LMDB versions: found by the magic): mm_magic, mm_version,
 * mm_address, mm_mapsize, then mm_dbs[0] (whose first field, md_pad, holds the page size) and
 * mm_dbs[1] (48 bytes each), then mm_last_pg and mm_txnid. Undefined without the magic.
 */
function metaAt(fd: number, offset: number): { pageSize: number; lastPage: number; txnid: bigint } | undefined {
  const head = Buffer.alloc(256);
  const n = readSync(fd, head, 0, head.length, offset);
  const at = head.subarray(0, Math.min(n, 64)).indexOf(MAGIC);
  if (at < 0 || n < at + 136) return undefined;
  return { pageSize: head.readUInt32LE(at + 24), lastPage: Number(head.readBigUInt64LE(at + 120)), txnid: head.readBigUInt64LE(at + 128) };
}

const corrupt = (file: string, what: string) => new HaloclineError('Corrupt', `${file} ${what}; the store's metadata is damaged`, { path: file });
