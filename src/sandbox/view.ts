import { lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { isAbsolute, join, normalize, posix } from 'node:path';
import { isInside } from '../tools/safe-fs.js';

// What a command sees of the machine is built from an allowlist, not by hiding a list of folders:
// a new root of its own holds the system folders a toolchain needs (read-only), the workspace, a
// fresh /tmp, a few device nodes and its own /proc, and nothing else. /run (systemd-resolved's and
// D-Bus's sockets, docker.sock), /var/run, /home, /root, /srv, /mnt, /media and the rest of /var
// are simply not there: a unix socket that is not in the view cannot be connected to, and what a
// later folder of the machine holds is not shown because nobody listed it. Abstract unix sockets
// are kept out by the network namespace (`command-network` none or hosts).

/** System folders bound read-only at their own path, when they exist (a link is made again as a link). */
export const SYSTEM_TREES = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
  // Homebrew on Linux, Nix's store (never /nix/var: the nix daemon's socket is there)
  '/home/linuxbrew/.linuxbrew',
  '/nix/store',
  // dpkg's database (dpkg-architecture, dpkg -l), Debian's system gems
  '/var/lib/dpkg',
  '/var/lib/gems',
];

/**
 * Folders of the runner user's home that hold toolchains and their caches, shown read-only to
 * commands at their place in that home and under the command's own HOME. More can be named in
 * PATCHLOOP_COMMAND_HOME_DIRS (relative to the home, separated by commas, colons or white space).
 */
export const HOME_DIRS = [
  '.cargo',
  '.rustup',
  '.m2',
  '.gradle',
  '.sbt',
  '.ivy2',
  'go/pkg/mod',
  '.nvm',
  '.pyenv',
  '.rbenv',
  '.sdkman',
  '.dotnet',
  '.bun',
  '.deno',
  '.local/share/pnpm',
  '.cache/ms-playwright',
  '.cache/Cypress',
  '.cache/puppeteer',
  '.cache/node/corepack',
  '.cache/coursier',
];

export const HOME_DIRS_VARIABLE = 'PATCHLOOP_COMMAND_HOME_DIRS';

/**
 * Folders of HOME_DIRS that hold a build's caches, which builds write (cargo's registry, git
 * checkouts and package-cache lock; `mvn install`'s artifacts in ~/.m2/repository; Gradle's
 * ~/.gradle/caches; `go mod download` into go/pkg/mod): each is shown writable through a layer of
 * the run's own (an overlay over the runner's folder, perl/view.pl, run-cache.ts), so later
 * commands of the run see what earlier ones wrote and the runner's folder is never written. Where
 * that layer cannot be made (no overlay access method, or its mounts fail) the folder is read-only.
 * The whole folder is layered, not only its cache part: cargo takes its lock at the top of
 * CARGO_HOME, and Maven's wrapper and Gradle's daemon write beside their caches.
 */
export const WRITABLE_HOME_DIRS = ['.cargo', '.m2', '.gradle', 'go/pkg/mod'];

/** The variable each tool reads for its cache folder under ~/.cache. */
const CACHE_VARIABLES: Record<string, string> = {
  '.cache/ms-playwright': 'PLAYWRIGHT_BROWSERS_PATH',
  '.cache/Cypress': 'CYPRESS_CACHE_FOLDER',
  '.cache/puppeteer': 'PUPPETEER_CACHE_DIR',
  '.cache/node/corepack': 'COREPACK_HOME',
  '.cache/coursier': 'COURSIER_CACHE',
};

/** Never shown, whoever names them (nor a folder that holds one): credentials and keys. */
export const DENIED_HOME_PATHS = [
  '.ssh',
  '.aws',
  '.azure',
  '.config/gh',
  '.config/gcloud',
  '.config/hub',
  '.config/git',
  '.netrc',
  '.docker',
  '.gnupg',
  '.kube',
  '.git-credentials',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pypirc',
  '.gem',
  '.terraform.d',
  '.vault-token',
  '.password-store',
  '.local/share/keyrings',
  '.pki',
];

// Files at the top of a shown folder that hold credentials by convention (cargo's registry token,
// Maven's server passwords, Gradle's signing and publishing properties, sbt's and Ivy's logins):
// each is covered by an empty file (Maven's by an empty <settings/>, which Maven still reads).
const CREDENTIAL_NAME =
  /credential|secret|token|passw|^settings(-security)?\.xml$|^gradle\.properties$|^\.(netrc|npmrc|pypirc)$|\.(pem|key|p12|jks)$/i;

function isDeniedName(rel: string): boolean {
  if (rel.split('/').some((part) => /^gha-creds-/i.test(part))) return true;
  return DENIED_HOME_PATHS.some((d) => rel === d || isInside(rel, d) || isInside(d, rel));
}

/** The names in PATCHLOOP_COMMAND_HOME_DIRS, or an Error saying which one is refused and why. */
export function parseHomeDirs(raw: string | undefined): string[] | Error {
  const names = (raw ?? '').split(/[\s,:]+/).filter(Boolean);
  for (const name of names) {
    const n = posix.normalize(name).replace(/\/$/, '');
    if (isAbsolute(name) || n !== name.replace(/\/$/, '') || n === '.' || n.startsWith('..'))
      return new Error(`${HOME_DIRS_VARIABLE}: "${name}" is not a plain folder name relative to the home`);
    if (isDeniedName(n))
      return new Error(
        `${HOME_DIRS_VARIABLE}: "${name}" is, or holds, a folder of credentials; it is never shown`,
      );
  }
  return names.map((n) => n.replace(/\/$/, ''));
}

export interface ViewPlan {
  /** Bound read-only at the same path (recursively). */
  trees: string[];
  /** [path, target]: symbolic links made again in the view (/bin -> usr/bin). */
  links: [string, string][];
  /** [source, path in the view]: home folders, bound read-only. */
  binds: [string, string][];
  /** Sources of `binds` shown through a writable layer of the run's own where it can be made (WRITABLE_HOME_DIRS). */
  layered?: string[];
  /** [source, path in the view]: single files bound read-only (/etc/resolv.conf's target). */
  files: [string, string][];
  /** Paths in the view covered by an empty file or folder (Maven's settings files: an empty <settings/>). */
  blanks: string[];
  /** Folders in the view covered by an empty tmpfs: private folders, and the way down to the workspace inside a tree. */
  covers: string[];
  /** Variables that point a tool at a cache folder of the home shown at its place (PLAYWRIGHT_BROWSERS_PATH). */
  env: Record<string, string>;
}

export interface ViewInput {
  workspace: string;
  /** The job's HOME (the runner user's home). */
  home?: string;
  /** The command's HOME in the view. */
  commandHome: string;
  /** Folders of patchloop's own that must never be in the view. */
  privateDirs: string[];
  /** The job's environment: RUNNER_TOOL_CACHE, PATCHLOOP_COMMAND_HOME_DIRS. */
  env: NodeJS.ProcessEnv;
  /** Tests only: folders added to the trees (the hole a switched-off defence opens). */
  extraTrees?: string[];
}

function lstatOf(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function realOf(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The view a command gets; throws an Error when PATCHLOOP_COMMAND_HOME_DIRS names something refused. */
export function planView(input: ViewInput): ViewPlan {
  const { workspace, privateDirs } = input;
  // a tree may hold the workspace or a private folder (both are then covered); a bound file or
  // home folder may neither hold nor lie in one
  const treeClashes = (real: string) =>
    real === '/' || isInside(real, workspace) || privateDirs.some((p) => isInside(real, p));
  const clashes = (real: string) =>
    real === '/' ||
    isInside(workspace, real) ||
    isInside(real, workspace) ||
    privateDirs.some((p) => isInside(p, real) || isInside(real, p));
  const trees: string[] = [];
  const links: [string, string][] = [];
  const addTree = (path: string) => {
    const st = lstatOf(path);
    if (!st) return;
    if (st.isSymbolicLink()) {
      const real = realOf(path);
      if (!real || !lstatOf(real)?.isDirectory() || treeClashes(real)) return;
      links.push([path, readlinkSync(path)]);
      if (!trees.some((t) => isInside(real, t))) trees.push(real);
      return;
    }
    if (st.isDirectory() && !treeClashes(path) && !trees.some((t) => isInside(path, t))) trees.push(path);
  };
  const toolCache = input.env.RUNNER_TOOL_CACHE;
  for (const t of [
    ...SYSTEM_TREES,
    ...(toolCache && isAbsolute(toolCache) ? [normalize(toolCache)] : []),
    ...(input.extraTrees ?? []),
  ])
    addTree(t);
  // a tree inside another one is carried by it; a link inside a tree is the tree's own
  const kept = trees.filter((t) => !trees.some((o) => o !== t && isInside(t, o)));
  const linksKept = links.filter(([p]) => !kept.some((t) => isInside(p, t) && p !== t));

  // /etc's links to files outside the view (resolv.conf -> /run/systemd/resolve/stub-resolv.conf):
  // the file alone is bound at its place, never the folder that holds it (and its sockets)
  const inView = (p: string) => kept.some((t) => isInside(p, t));
  const files: [string, string][] = [];
  let etc: string[] = [];
  try {
    etc = readdirSync('/etc');
  } catch {
    // no /etc: nothing to bind
  }
  for (const name of etc) {
    const p = join('/etc', name);
    if (!lstatOf(p)?.isSymbolicLink()) continue;
    const real = realOf(p);
    if (!real || inView(real) || !lstatOf(real)?.isFile() || clashes(real)) continue;
    files.push([real, real]);
  }

  // the runner user's toolchain folders, at their place and under the command's HOME
  const binds: [string, string][] = [];
  const layered: string[] = [];
  const blanks: string[] = [];
  const env: Record<string, string> = {};
  const named = parseHomeDirs(input.env[HOME_DIRS_VARIABLE]);
  if (named instanceof Error) throw named;
  const home = input.home && isAbsolute(input.home) ? realOf(input.home) : undefined;
  if (home && home !== '/' && lstatOf(home)?.isDirectory()) {
    for (const rel of [...new Set([...HOME_DIRS, ...named])]) {
      if (isDeniedName(rel)) continue;
      const place = join(home, rel);
      const real = realOf(place);
      if (!real || !lstatOf(real)?.isDirectory() || clashes(real)) continue;
      // Never under HOME/.cache: that is the run's cache folder, which commands write, and the
      // launch would make the mount point through what an earlier command left there (a link).
      // Those are shown at their place only, and found through the tool's own variable.
      const places = rel.startsWith('.cache/') ? [] : [join(input.commandHome, rel)];
      if (!inView(place) && !isInside(place, workspace)) places.push(place);
      if (!places.length) continue;
      const variable = CACHE_VARIABLES[rel];
      if (variable && places.includes(place)) env[variable] = place;
      let names: string[] = [];
      try {
        names = readdirSync(real);
      } catch {
        // not readable by patchloop: shown as it is (the sandbox user may not read it either)
      }
      const secret = names.filter((n) => CREDENTIAL_NAME.test(n));
      for (const at of places) {
        binds.push([real, at]);
        for (const n of secret) blanks.push(join(at, n));
      }
      if (WRITABLE_HOME_DIRS.includes(rel) && !layered.includes(real)) layered.push(real);
    }
  }

  // what the trees hold that must stay out: a private folder, and the way down to the workspace
  const covers: string[] = [];
  for (const p of privateDirs) if (inView(p) && !isInside(workspace, p)) covers.push(p);
  for (const t of kept) {
    if (!isInside(workspace, t) || workspace === t) continue;
    const first = join(t, workspace.slice(t.length + 1).split('/')[0]!);
    if (!covers.includes(first)) covers.push(first);
  }
  return { trees: kept, links: linksKept, binds, layered, files, blanks, covers, env };
}

/** Every path the view shows at its top: for the self-check's look at the folders above the workspace. */
export function viewPaths(view: ViewPlan): string[] {
  return [
    ...view.trees,
    ...view.links.map(([p]) => p),
    ...view.binds.map(([, p]) => p),
    ...view.files.map(([, p]) => p),
  ];
}

/**
 * Where the sandbox account's home (/etc/passwd) is made a link to the command's HOME: only a
 * place the view does not show already, outside the workspace and the scratch folders.
 */
export function accountHomeInView(
  home: string | undefined,
  view: ViewPlan,
  workspace: string,
  commandHome: string,
  scratch: readonly string[],
): string | undefined {
  if (!home || !isAbsolute(home) || normalize(home) !== home || home === commandHome || home === '/')
    return undefined;
  const taken = [...viewPaths(view), workspace, ...scratch];
  if (taken.some((p) => isInside(home, p) || isInside(p, home))) return undefined;
  return home;
}
