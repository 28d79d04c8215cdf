#!/usr/bin/env node
// Builds lmdb-js from source with two fixes to its LMDB (run by this package's postinstall). Both are
// races between processes that open and close one environment, in
// dependencies/lmdb/libraries/liblmdb/mdb.c; each is reproduced deterministically in
// src/storage/lmdb-open-race.test.ts and described in docs/architecture.md, "Several processes".
//
// open-txnid: mdb_env_open2 set the lock file's last transaction id (mti_txnid) from the meta page it
// read, at every environment open and without the write lock. Stock LMDB does that only for the first
// process to open the environment, which holds it exclusively (mdb_env_share_locks). When another
// process committed between the opener's read of the meta pages and that store, mti_txnid went back one
// commit; the next write transaction, in any process, built on the older meta page under the same
// transaction id and overwrote the newer one: an acknowledged, fsynced commit was lost whole. The fix
// removes the store: the first opener's mdb_env_share_locks sets mti_txnid, and every commit sets it
// under the write lock, as in stock LMDB.
//
// close-mutex: mdb_env_close0 destroyed the lock file's mutexes when the closing process found itself
// the last user (it got the exclusive lock). A process that had meanwhile begun to open the
// environment, its try for the exclusive lock failed while the closer still had it open, then got the
// shared lock as a later user and used the destroyed mutexes: every write transaction failed with
// EINVAL (lmdb-js then reports "No current read transaction available"), or the process crashed, and so
// did every process opening after it while it lived. Stock LMDB has the same code. The fix leaves the
// mutexes alone: a robust process-shared mutex holds nothing to free, and the next first opener
// initialises them again.
//
// Idempotent: a build already made with these fixes (its stamp beside the binary) is left alone.
// Fails, changing nothing, when a fix's lines are not in mdb.c and the file does not have it: a new
// lmdb-js must then be checked for the races (the test above) before this script is changed.
// HALOCLINE_LMDB_PREBUILT=1 skips it (the engine then refuses to open a store unless the same
// variable is set when it runs: see src/storage/lmdb-build.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const FIX = 'open-txnid-1,close-mutex-1';
const STAMP = 'halocline-lmdb.json';
/** Each fix: its name, the text it replaces in mdb.c (exactly once) and its replacement, which begins with its marker. */
const FIXES = [
  {
    name: 'open-txnid-1',
    marker: '/* halocline open-txnid-1:',
    find: '\tif (env->me_txns)\n\t\tenv->me_txns->mti_txnid = meta.mm_txnid;\n',
    replace:
      '\t/* halocline open-txnid-1: no store of mti_txnid here. It ran at every open without the write lock, so a commit\n' +
      '\t * between reading the meta pages and this store was overwritten by the next writer. The first\n' +
      '\t * (exclusive) opener sets it in mdb_env_share_locks; commits set it under the write lock. */\n',
  },
  {
    name: 'close-mutex-1',
    marker: '/* halocline close-mutex-1:',
    find:
      '\t\tif (excl > 0) {\n' +
      '\t\t\tpthread_mutex_destroy(env->me_txns->mti_rmutex);\n' +
      '\t\t\tpthread_mutex_destroy(env->me_txns->mti_wmutex);\n' +
      '\t\t\tpthread_mutex_destroy(env->me_txns->mti_sync_mutex);\n' +
      '\t\t}\n',
    replace:
      '\t\t/* halocline close-mutex-1: the mutexes are not destroyed. A process opening meanwhile, that found\n' +
      '\t\t * the environment in use, takes the shared lock once this one is gone and uses them; the next\n' +
      '\t\t * first (exclusive) opener initialises them again. */\n',
  },
];

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
  const original = readFileSync(source, 'utf8');
  let text = original;
  for (const fix of FIXES) {
    if (text.includes(fix.marker)) continue;
    const at = text.indexOf(fix.find);
    if (at < 0 || text.indexOf(fix.find, at + 1) >= 0) {
      throw new Error(
        `patch-lmdb: lmdb ${version}'s mdb.c does not have, exactly once, the lines the fix ${fix.name} ` +
          'replaces. Check whether that version still has the race (src/storage/lmdb-open-race.test.ts), then ' +
          'update scripts/patch-lmdb.mjs.',
      );
    }
    text = text.slice(0, at) + fix.replace + text.slice(at + fix.find.length);
  }
  if (text === original && existsSync(binary) && existsSync(stamp) && JSON.parse(readFileSync(stamp, 'utf8')).fix === FIX) {
    console.log(`patch-lmdb: lmdb ${version} is already built with ${FIX}`);
    return;
  }
  if (text !== original) writeFileSync(source, text);
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
