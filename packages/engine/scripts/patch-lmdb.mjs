#!/usr/bin/env node
// Builds lmdb-js from source with one fix to its LMDB (run by this package's postinstall).
//
// The fix: lmdb-js's LMDB (dependencies/lmdb/libraries/liblmdb/mdb.c, mdb_env_open2) sets the lock
// file's last transaction id (mti_txnid) from the meta page it read, at every environment open and
// without the write lock. Stock LMDB does that only for the first process to open the environment,
// which holds it exclusively (mdb_env_share_locks). When another process commits between the opener's
// read of the meta pages and that store, mti_txnid goes back one commit; the next write transaction,
// in any process, builds on the older meta page under the same transaction id and overwrites the
// newer one: an acknowledged, fsynced commit is lost whole, and readers see the older state until then.
// Reproduced deterministically (src/storage/lmdb-open-race.test.ts); docs/architecture.md, "Several
// processes". The fix removes the store: the first opener's mdb_env_share_locks sets mti_txnid, and
// every commit sets it under the write lock, as in stock LMDB.
//
// Idempotent: a build already made with the fix (its stamp beside the binary) is left alone.
// Fails, changing nothing, when the line to remove is not in mdb.c and the file is not patched: a new
// lmdb-js must then be checked for the race (the test above) before this script is changed.
// HALOCLINE_LMDB_PREBUILT=1 skips it (the engine then refuses to open a store unless the same
// variable is set when it runs: see src/storage/lmdb-build.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const FIX = 'open-txnid-1';
const STAMP = 'halocline-lmdb.json';
const MARKER = '/* halocline open-txnid-1:';
const LINE = '\tif (env->me_txns)\n\t\tenv->me_txns->mti_txnid = meta.mm_txnid;\n';
const REPLACEMENT =
  `\t${MARKER} no store of mti_txnid here. It ran at every open without the write lock, so a commit\n` +
  '\t * between reading the meta pages and this store was overwritten by the next writer. The first\n' +
  '\t * (exclusive) opener sets it in mdb_env_share_locks; commits set it under the write lock. */\n';

function lmdbDir() {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve('lmdb'));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'lmdb') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('patch-lmdb: cannot find the lmdb package directory');
    dir = up;
  }
}

/** node-gyp: npm's own (npm names it to install scripts), else the one beside the npm running this. */
function nodeGyp() {
  const candidates = [process.env.npm_config_node_gyp];
  if (process.env.npm_execpath) candidates.push(join(dirname(process.env.npm_execpath), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  candidates.push(join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  const found = candidates.find((path) => path && existsSync(path));
  if (!found) throw new Error(`patch-lmdb: node-gyp not found (looked at ${candidates.filter(Boolean).join(', ')})`);
  return found;
}

function main() {
  if (process.env.HALOCLINE_LMDB_PREBUILT === '1') {
    console.log('patch-lmdb: HALOCLINE_LMDB_PREBUILT=1, keeping lmdb-js\'s prebuilt binary (not safe with several processes on one store)');
    return;
  }
  const dir = lmdbDir();
  const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  const source = join(dir, 'dependencies', 'lmdb', 'libraries', 'liblmdb', 'mdb.c');
  const binary = join(dir, 'build', 'Release', 'lmdb.node');
  const stamp = join(dir, 'build', 'Release', STAMP);
  const text = readFileSync(source, 'utf8');
  const patched = text.includes(MARKER);
  if (patched && existsSync(binary) && existsSync(stamp) && JSON.parse(readFileSync(stamp, 'utf8')).fix === FIX) {
    console.log(`patch-lmdb: lmdb ${version} is already built with ${FIX}`);
    return;
  }
  if (!patched) {
    const at = text.indexOf(LINE);
    if (at < 0 || text.indexOf(LINE, at + 1) >= 0) {
      throw new Error(
        `patch-lmdb: lmdb ${version}'s mdb.c does not have the one line this fix removes (mdb_env_open2's store of ` +
          'mti_txnid). Check whether that version still loses a commit when another process opens the store ' +
          '(src/storage/lmdb-open-race.test.ts), then update scripts/patch-lmdb.mjs.',
      );
    }
    writeFileSync(source, text.slice(0, at) + REPLACEMENT + text.slice(at + LINE.length));
  }
  console.log(`patch-lmdb: building lmdb ${version} from source with ${FIX} (a C/C++ compiler, make and python3 are needed)`);
  const built = spawnSync(process.execPath, [nodeGyp(), 'rebuild', '-j', 'max'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (built.status !== 0 || !existsSync(binary)) {
    const output = `${built.stdout ?? ''}${built.stderr ?? ''}`.split('\n').slice(-60).join('\n');
    throw new Error(`${output}\npatch-lmdb: node-gyp rebuild of lmdb failed (exit ${built.status ?? built.error}); its output ends above`);
  }
  writeFileSync(stamp, `${JSON.stringify({ fix: FIX, lmdb: version })}\n`);
  console.log(`patch-lmdb: built ${binary}`);
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
