// A process opening the environment loses nothing and breaks nothing, whatever the others do meanwhile:
// the two races in lmdb-js's LMDB that scripts/patch-lmdb.mjs removes, each reproduced deterministically.
//
// The opening process runs with a small LD_PRELOAD library that holds it at one point of its open until
// this test has done its part:
// - HOLD_AT=meta: right after it has read the data file's meta pages (its second pread of data.mdb),
//   while the test commits. With lmdb-js's prebuilt binary the opener then sets the lock file's last
//   transaction id back to the commit before, and the next commit overwrites the one made meanwhile.
// - HOLD_AT=lock: after its try for the exclusive lock failed (the test's process had the environment
//   open), before it waits for the shared lock, while the test closes its environment. With the
//   prebuilt binary the closing process, the last user, destroys the lock file's mutexes, and every
//   write transaction of the opener (and of every process opening after it) fails with EINVAL.
// Both tests fail with the prebuilt binary (checked).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open } from 'lmdb';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../test-util/tmp.js';
import { LMDB_FIX, lmdbBuildProblem, lmdbPackageDir } from './lmdb-build.js';

const HOLD = `
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int held;

/* True when fd is the file whose path ends with name (a slash and a file name). */
static int is_file(int fd, const char *name) {
  char link[64], path[4096];
  size_t k = strlen(name);
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n < (ssize_t)k) return 0;
  path[n] = 0;
  return strcmp(path + n - k, name) == 0;
}

/* Once, where HOLD_AT names: create $HOLD_GATE.held, then wait until $HOLD_GATE exists (at most 20 s). */
static void hold(const char *at) {
  const char *gate = getenv("HOLD_GATE"), *want = getenv("HOLD_AT");
  if (held || !gate || !want || strcmp(want, at) != 0) return;
  held = 1;
  char mark[4096];
  snprintf(mark, sizeof mark, "%s.held", gate);
  close(open(mark, O_CREAT | O_WRONLY, 0600));
  for (int i = 0; i < 20000 && access(gate, F_OK) != 0; i++) usleep(1000);
}

/* meta: after the first read of data.mdb at a non-zero offset (its second meta page) */
ssize_t pread64(int fd, void *buf, size_t count, off_t off) {
  static ssize_t (*real)(int, void *, size_t, off_t);
  if (!real) real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread64");
  ssize_t r = real(fd, buf, count, off);
  if (off != 0 && is_file(fd, "/data.mdb")) hold("meta");
  return r;
}

ssize_t pread(int fd, void *buf, size_t count, off_t off) {
  return pread64(fd, buf, count, off);
}

/* lock: before waiting for a read lock on the first byte of lock.mdb (LMDB's shared lock, taken once
   its try for the exclusive lock failed) */
static int fcntl_via(const char *symbol, int fd, int cmd, void *arg) {
  int (*real)(int, int, ...) = (int (*)(int, int, ...))dlsym(RTLD_NEXT, symbol);
  if (cmd == F_SETLKW && arg) {
    struct flock *l = arg;
    /* LMDB reads errno after this call (the failed try's EAGAIN): the hold must not change it */
    int saved = errno;
    if (l->l_type == F_RDLCK && l->l_start == 0 && is_file(fd, "/lock.mdb")) hold("lock");
    errno = saved;
  }
  return real(fd, cmd, arg);
}

int fcntl64(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  return fcntl_via("fcntl64", fd, cmd, arg);
}

int fcntl(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  return fcntl_via("fcntl", fd, cmd, arg);
}
`;

const ENGINE = fileURLToPath(new URL('../..', import.meta.url));
let library = '';
let removeLibrary = async (): Promise<void> => undefined;
// (an afterAll registered inside beforeAll never ran: each run left its directory behind)
afterAll(() => removeLibrary());
beforeAll(async () => {
  const dir = await tempDir('halocline-hold-');
  removeLibrary = dir.remove;
  writeFileSync(join(dir.path, 'hold.c'), HOLD);
  library = join(dir.path, 'hold.so');
  const cc = spawnSync('cc', ['-shared', '-fPIC', '-O1', '-o', library, join(dir.path, 'hold.c'), '-ldl'], { encoding: 'utf8' });
  // the same C toolchain builds lmdb-js in this package's postinstall (scripts/patch-lmdb.mjs)
  if (cc.status !== 0) throw new Error(`cc failed (${cc.status ?? String(cc.error)}): ${cc.stderr}`);
});

async function until(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (test()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

it('keeps a commit made while another process is opening the environment', async () => {
  const dir = await tempDir();
  onTestFinished(dir.remove);
  const db = open<number, string>({ path: dir.path, overlappingSync: false, encoding: 'json' });
  onTestFinished(() => db.close());
  await db.put('a', 1);
  const gate = join(dir.path, 'gate');
  const opener = spawn(
    process.execPath,
    ['--input-type=module', '-e', `import { open } from 'lmdb'; const db = open({ path: ${JSON.stringify(dir.path)}, overlappingSync: false, encoding: 'json' }); console.log('opened', db.get('a')); process.stdin.resume().once('end', () => db.close());`],
    { cwd: ENGINE, env: { ...process.env, LD_PRELOAD: library, HOLD_GATE: gate, HOLD_AT: 'meta' }, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  onTestFinished(() => void opener.kill('SIGKILL'));
  let out = '';
  opener.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => opener.on('exit', resolve));

  await until(() => existsSync(`${gate}.held`), 'the opener to have read the meta pages');
  await db.put('b', 2); // committed (fsynced) while the opener holds the meta pages it read
  writeFileSync(gate, '');
  await until(() => out.includes('opened'), 'the opener to finish opening');
  expect(out).toContain('opened 1');
  await db.put('c', 3); // the next commit: with the race, it is built on 'a' and overwrites 'b'
  db.resetReadTxn();
  expect([db.get('a'), db.get('b'), db.get('c')]).toEqual([1, 2, 3]);
  opener.stdin.end(); // it closes its environment and exits
  expect(await exited).toBe(0);

  const fresh = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `import { open } from 'lmdb'; const db = open({ path: ${JSON.stringify(dir.path)}, overlappingSync: false, encoding: 'json' }); console.log(JSON.stringify([db.get('a'), db.get('b'), db.get('c')])); await db.close();`],
    { cwd: ENGINE, encoding: 'utf8' },
  );
  expect(fresh.stdout.trim()).toBe('[1,2,3]');
});

it('keeps the environment writable for a process that opens it while the last other user closes it', async () => {
  const dir = await tempDir();
  onTestFinished(dir.remove);
  const db = open<number, string>({ path: dir.path, overlappingSync: false, encoding: 'json' });
  await db.put('a', 1);
  const gate = join(dir.path, 'gate');
  const opener = spawn(
    process.execPath,
    ['--input-type=module', '-e', `import { open } from 'lmdb'; const db = open({ path: ${JSON.stringify(dir.path)}, overlappingSync: false, encoding: 'json' }); await db.put('b', 2); console.log('wrote', db.get('a'), db.get('b')); await db.close();`],
    { cwd: ENGINE, env: { ...process.env, LD_PRELOAD: library, HOLD_GATE: gate, HOLD_AT: 'lock' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  onTestFinished(() => void opener.kill('SIGKILL'));
  let out = '';
  let err = '';
  opener.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  opener.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | string | null>((resolve) => opener.on('exit', (code, signal) => resolve(code ?? signal)));

  await until(() => existsSync(`${gate}.held`), 'the opener to wait for its shared lock');
  await db.close(); // the environment's last other user: it takes the exclusive lock as it closes
  writeFileSync(gate, '');
  expect({ code: await exited, out, err }).toEqual({ code: 0, out: 'wrote 1 2\n', err: '' });

  // and the processes opening after it write too
  const fresh = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `import { open } from 'lmdb'; const db = open({ path: ${JSON.stringify(dir.path)}, overlappingSync: false, encoding: 'json' }); await db.put('c', 3); console.log(JSON.stringify([db.get('a'), db.get('b'), db.get('c')])); await db.close();`],
    { cwd: ENGINE, encoding: 'utf8' },
  );
  expect({ out: fresh.stdout.trim(), err: fresh.stderr }).toEqual({ out: '[1,2,3]', err: '' });
});

it(`loads lmdb-js's binary built with ${LMDB_FIX}, and says so when it would not`, () => {
  const dir = lmdbPackageDir();
  // lmdb-js's own loader picks the binary lmdb-build.ts checks
  const loader = createRequire(join(dir, 'package.json'))('node-gyp-build-optional-packages') as { path(dir: string): string };
  expect(loader.path(dir)).toBe(join(dir, 'build', 'Release', 'lmdb.node'));
  expect(lmdbBuildProblem()).toBeUndefined();
  process.env.PREBUILDS_ONLY = '1';
  onTestFinished(() => void delete process.env.PREBUILDS_ONLY);
  expect(lmdbBuildProblem()).toMatch(/PREBUILDS_ONLY/);
});
