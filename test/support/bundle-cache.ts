// One build of a bundle per content, shared by every test file that needs it: the tests run the
// real bundle, built exactly as `npm run build` builds it, but a suite of thirty files that each
// bundled on their own spent minutes of a 2-core machine on esbuild and, under load, ran into
// their hooks' deadlines. The cache is keyed by everything the bundle is made from (src/, the
// bundle script, the lockfile, the installed packages' folder); each caller gets a copy of its
// own, which it may patch (the defence switches do) without touching anyone else's.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { bundle } from '../../scripts/bundle.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CACHE = join(tmpdir(), 'patchloop-test-bundles');
/** a build another file started but never finished (killed) is given up after this long */
const STALE_LOCK_MS = 5 * 60_000;
/** cached builds not used for this long are removed */
const KEEP_MS = 24 * 3600_000;

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) filesUnder(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

function keyOf(entry: string, outName: string, executable: boolean): string {
  const h = createHash('sha256');
  h.update(JSON.stringify([entry, outName, executable, realpathSync(join(ROOT, 'node_modules'))]));
  const files = [
    ...filesUnder(join(ROOT, 'src')),
    join(ROOT, 'scripts', 'bundle.mjs'),
    join(ROOT, 'package-lock.json'),
  ];
  for (const f of files.sort())
    h.update(`${relative(ROOT, f)}\0`)
      .update(readFileSync(f))
      .update('\0');
  return h.digest('hex').slice(0, 32);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function prune(): void {
  for (const name of readdirSync(CACHE)) {
    const p = join(CACHE, name);
    try {
      if (Date.now() - statSync(p).mtimeMs > KEEP_MS) rmSync(p, { recursive: true, force: true });
    } catch {
      // another process removed it first
    }
  }
}

/** The folder of a finished build of `entry` (as `outName`), built once for this content. */
async function cachedBuild(entry: string, outName: string, executable: boolean): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  const key = keyOf(entry, outName, executable);
  const done = join(CACHE, key);
  const lock = `${done}.lock`;
  for (;;) {
    if (existsSync(join(done, outName))) return done;
    try {
      mkdirSync(lock);
    } catch {
      // another file is building it: wait for it, unless it died with the lock held
      let age: number;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue;
      }
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else await sleep(100);
      continue;
    }
    try {
      prune();
      const scratch = mkdtempSync(join(CACHE, `${key}.build-`));
      await bundle(join(ROOT, entry), join(scratch, outName), { executable });
      rmSync(done, { recursive: true, force: true });
      renameSync(scratch, done);
      return done;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

export interface BuiltBundle {
  /** the entry's file in a folder of the caller's own */
  path: string;
  cleanup(): void;
}

/** A private copy of the bundle of `entry` (relative to the repository), its chunks beside it. */
export async function builtBundle(
  entry: string,
  outName: string,
  { executable = false, prefix = 'patchloop-build-' } = {},
): Promise<BuiltBundle> {
  const from = await cachedBuild(entry, outName, executable);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(from, dir, { recursive: true });
  return { path: join(dir, outName), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
