// Which lmdb-js binary this process loads: the engine opens LMDB environments only with the build
// that this package's postinstall (scripts/patch-lmdb.mjs) makes from source with its two fixes to LMDB.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The fixes scripts/patch-lmdb.mjs builds in, as its stamp beside the binary names them. */
export const LMDB_FIX = 'open-txnid-1,close-mutex-1';

let checked = false;

/**
 * Throws, naming the cause and the remedy, unless lmdb-js loads the binary built with `LMDB_FIX`:
 * with its prebuilt binary, a process opening a store while another commits can make that commit be
 * overwritten, and one opening it while the last other user closes it cannot write (scripts/patch-lmdb.mjs
 * says how). HALOCLINE_LMDB_PREBUILT=1 accepts the prebuilt binary,
 * for a store only ever opened by one process at a time. Checked once per process.
 */
export function checkLmdbBuild(): void {
  if (checked) return;
  const problem = lmdbBuildProblem();
  if (problem && process.env.HALOCLINE_LMDB_PREBUILT !== '1') {
    throw new Error(
      `${problem}. With lmdb-js's prebuilt binary a commit can be lost when a process opens the store while ` +
        'another commits. Build it with the fixes: npm run postinstall --workspace @halocline/engine (needs a C/C++ compiler, ' +
        'make and python3), or set HALOCLINE_LMDB_PREBUILT=1 if only one process ever opens the store at a time.',
    );
  }
  checked = true;
}

/** Why lmdb-js's binary is not the one built with `LMDB_FIX`, or undefined when it is. */
export function lmdbBuildProblem(): string | undefined {
  const dir = lmdbPackageDir();
  const binary = join(dir, 'build', 'Release', 'lmdb.node');
  const stamp = join(dir, 'build', 'Release', 'halocline-lmdb.json');
  // node-gyp-build (lmdb-js's loader) takes build/Release before any prebuilt binary, unless told not to
  if (process.env.PREBUILDS_ONLY) return 'PREBUILDS_ONLY is set, so lmdb-js loads its prebuilt binary';
  if (!existsSync(binary)) return `lmdb-js has no binary built from source (${binary})`;
  let fix: unknown;
  try {
    fix = (JSON.parse(readFileSync(stamp, 'utf8')) as { fix?: unknown }).fix;
  } catch {
    return `lmdb-js's binary ${binary} was not built by @halocline/engine's postinstall (no ${stamp})`;
  }
  return fix === LMDB_FIX ? undefined : `lmdb-js's binary ${binary} was built with ${String(fix)}, not ${LMDB_FIX}`;
}

export function lmdbPackageDir(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('lmdb'));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'lmdb') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the lmdb package directory');
    dir = up;
  }
}
