// The credential actions/checkout leaves behind, moved from disk into memory before the agent
// starts, and handed back to git's network commands alone, through their environment.
//
// actions/checkout (persist-credentials, the default) stores the token as an HTTP header:
//   v4/v5: `http.https://github.com/.extraheader = AUTHORIZATION: basic base64(x-access-token:TOKEN)`
//          in .git/config;
//   v6+:   the same key in $RUNNER_TEMP/git-credentials-<uuid>.config, pulled into .git/config by
//          `includeIf.gitdir:<workspace>/.git.path` (and `.../worktrees/*` and container variants).
//   with `submodules:`, the same header (v4/v5) or include (v6) in each submodule's own config,
//          .git/modules/<name>/config (nested: .../modules/<a>/modules/<b>/config).
// Anything a tool runs in the checkout could read any of these files (and a `config.worktree`),
// so all are cleaned; each is put back, file by file, at the end.
import type { Dirent } from 'node:fs';
import { lstat, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createGitRunner, resolveGit, type GitRunner } from './exec.js';

export interface ConfigEntry {
  key: string;
  value: string;
}

export interface CheckoutCredential {
  /** git config entries for network commands (the URL-scoped extra header, an SSH command) */
  entries: ConfigEntry[];
  /** secret strings to mask and redact: the header values, the base64 part and the token in it */
  secrets: string[];
  /** what was removed, for the log (keys and file paths, never values) */
  removed: string[];
  /** origin's push URL when the credential was taken; a push to anything else is refused */
  originUrl?: string;
  /**
   * What the git dir's other config files held (submodules' `config`, any `config.worktree`),
   * each by its path under the common git dir: put back file by file, never given to a command.
   */
  elsewhere?: { commonDir: string; files: { path: string; entries: ConfigEntry[] }[] };
}

const CHECKOUT_CREDENTIAL_FILE = /git-credentials-[0-9a-f-]+\.config$/i;
/** `http.<url>.extraheader`, and the unscoped `http.extraheader` */
const HEADER_KEY = /^http\.(.*\.)?extraheader$/i;
const HEADER_PATTERN = '^http\\.(.*\\.)?extraheader$';
const SSH_KEY = /^core\.sshcommand$/i;
const INCLUDE_KEY = /^includeif\..*\.path$|^include\.path$/i;

/** git in one folder; `env` points it at a git dir of our choosing when there is one. */
interface ConfigGit {
  raw(args: string[], input?: string): Promise<string>;
}

function configGit(dir: string, runner?: GitRunner, env?: Record<string, string>): ConfigGit {
  const git = runner ?? createGitRunner(resolveGit({ workspace: dir }));
  return {
    raw: (args, input) =>
      git.text(args, {
        cwd: dir,
        timeoutMs: 30_000,
        ...(env ? { env } : {}),
        ...(input !== undefined ? { input } : {}),
      }),
  };
}

function parseEntry(e: string): ConfigEntry {
  const nl = e.indexOf('\n');
  return nl === -1 ? { key: e, value: '' } : { key: e.slice(0, nl), value: e.slice(nl + 1) };
}

/** `git config --null --get-regexp` output → entries; no match is an empty list, not an error. */
async function readConfig(git: ConfigGit, where: string[], pattern: string): Promise<ConfigEntry[]> {
  let out: string;
  try {
    out = await git.raw(['config', ...where, '--null', '--get-regexp', pattern]);
  } catch {
    return [];
  }
  return out
    .split('\0')
    .filter((e) => e !== '')
    .map(parseEntry);
}

/** A git config value, quoted. */
function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

/**
 * Every entry of each of `files`, by file, from one git process (its stdin includes them all);
 * throws when git cannot read one: what it holds would be unknown.
 */
async function readFiles(git: ConfigGit, files: string[]): Promise<Map<string, ConfigEntry[]>> {
  const byFile = new Map(files.map((f) => [f, [] as ConfigEntry[]]));
  if (files.length === 0) return byFile;
  const input = `[include]\n${files.map((f) => `\tpath = ${quoted(f)}\n`).join('')}`;
  const out = await git.raw(
    ['config', '--file', '-', '--includes', '--show-origin', '--null', '--list'],
    input,
  );
  const parts = out.split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) {
    // entries of files these include carry their own origin, and are read on their own
    byFile.get(parts[i]!.replace(/^file:/, ''))?.push(parseEntry(parts[i + 1]!));
  }
  return byFile;
}

function refused(path: string): Error {
  return new Error(
    `${path} is a symbolic link or not a regular file; refusing to follow it (it may hold the checkout credential)`,
  );
}

async function listDir(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return [];
    throw err;
  }
}

/** The git dirs in `dir` (`modules/`, `worktrees/`): their config files; a link is refused. */
async function configsUnder(dir: string, role: 'module' | 'worktree'): Promise<string[]> {
  const found = await Promise.all(
    (await listDir(dir)).map((e) => {
      if (e.isSymbolicLink()) throw refused(join(dir, e.name));
      return e.isDirectory() ? gitDirConfigs(join(dir, e.name), role) : [];
    }),
  );
  return found.flat();
}

/**
 * The config files of a git dir and of the git dirs in it, submodules' at any depth, found
 * without following a link: `config` (but the common dir's own, read by git), `config.worktree`.
 */
async function gitDirConfigs(dir: string, role: 'common' | 'module' | 'worktree'): Promise<string[]> {
  const entries = new Map((await listDir(dir)).map((e) => [e.name, e]));
  // a submodule named `a/b` has its git dir in modules/a/b, and modules/a is a plain folder
  if (role === 'module' && !entries.has('config')) return configsUnder(dir, 'module');
  const found: string[] = [];
  for (const name of role === 'module' ? ['config', 'config.worktree'] : ['config.worktree']) {
    const e = entries.get(name);
    if (!e) continue;
    if (!e.isFile()) throw refused(join(dir, name));
    found.push(join(dir, name));
  }
  for (const [name, role] of [
    ['modules', 'module'],
    ['worktrees', 'worktree'],
  ] as const) {
    const e = entries.get(name);
    if (e?.isSymbolicLink()) throw refused(join(dir, name));
    if (e?.isDirectory()) found.push(...(await configsUnder(join(dir, name), role)));
  }
  return found;
}

/** One config file's share of the credential, and the `git config` arguments that take it out. */
interface Share {
  entries: ConfigEntry[];
  /** arguments after `git config <where>`, one unset each */
  unsets: string[][];
  /** the entries that must be gone afterwards */
  gone: ConfigEntry[];
  keys: string[];
  /** included files that hold the credential */
  files: string[];
}

async function shareOf(
  config: ConfigEntry[],
  dir: string,
  included: (file: string) => Promise<ConfigEntry[]>,
): Promise<Share> {
  const share: Share = { entries: [], unsets: [], gone: [], keys: [], files: [] };
  const headers = config.filter((e) => HEADER_KEY.test(e.key));
  for (const key of new Set(headers.map((h) => h.key))) {
    share.unsets.push(['--unset-all', key]);
    share.keys.push(key);
  }
  share.entries.push(...headers);
  const ssh = config.filter((e) => SSH_KEY.test(e.key));
  if (ssh.length > 0) {
    share.unsets.push(['--unset-all', 'core.sshCommand']);
    share.keys.push('core.sshCommand');
    share.entries.push(...ssh.map((e) => ({ key: 'core.sshCommand', value: e.value })));
  }
  share.gone.push(...headers, ...ssh);

  for (const inc of config.filter((e) => INCLUDE_KEY.test(e.key))) {
    const file = isAbsolute(inc.value) ? inc.value : resolve(dir, inc.value);
    const fromFile = await included(file);
    if (fromFile.length === 0 && !CHECKOUT_CREDENTIAL_FILE.test(file)) continue;
    const { entries } = share;
    entries.push(...fromFile.filter((e) => !entries.some((x) => x.key === e.key && x.value === e.value)));
    // Only this value of the key: includeIf keys can hold other, unrelated paths.
    share.unsets.push(['--fixed-value', '--unset-all', inc.key, inc.value]);
    share.keys.push(inc.key);
    share.gone.push(inc);
    share.files.push(file);
  }
  return share;
}

/** `<repoDir>/.git` when it is a plain git dir (no process), else what git says. */
async function commonDirOf(git: ConfigGit, repoDir: string): Promise<string | undefined> {
  const dotGit = resolve(repoDir, '.git');
  const [dir, commondir] = await Promise.all([
    lstat(dotGit).catch(() => undefined),
    lstat(join(dotGit, 'commondir')).catch(() => undefined),
  ]);
  if (dir?.isDirectory() && !commondir) return dotGit;
  return git
    .raw(['rev-parse', '--path-format=absolute', '--git-common-dir'])
    .then((out) => out.trim() || undefined)
    .catch(() => undefined);
}

/**
 * `text` without the lines of `keys` (`section.subsection.key`, as git lists them) where git
 * itself would write them: `key = value` alone on its line under a `[section "subsection"]`.
 * Any other form stays for git to remove.
 */
function withoutKeys(text: string, keys: Set<string>): string {
  let section = '';
  let continued = false;
  return text
    .split('\n')
    .filter((line) => {
      const inValue = continued;
      continued = /(^|[^\\])(\\\\)*\\\r?$/.test(line);
      if (inValue || continued) return true;
      if (/^\s*\[/.test(line)) {
        const header = /^\s*\[([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\]\s*$/.exec(line);
        const sub = header?.[2]?.replace(/\\(.)/g, '$1');
        // a header of another form: its section is unknown, so nothing under it is removed
        section = header ? `${header[1]!.toLowerCase()}${sub === undefined ? '' : `.${sub}`}` : '';
        return true;
      }
      const name = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*=/.exec(line)?.[1];
      return !(section && name && keys.has(`${section}.${name.toLowerCase()}`));
    })
    .join('\n');
}

/**
 * Takes the header entries out of a config file by a plain rewrite (through git's own lock file),
 * which saves a git process per submodule; git removes the rest, and the headers if any is left.
 */
async function rewrite(git: ConfigGit, file: string, share: Share): Promise<void> {
  const headers = new Set(share.gone.filter((e) => HEADER_KEY.test(e.key)).map((e) => e.key));
  if (headers.size > 0) {
    try {
      const [text, stat] = await Promise.all([readFile(file, 'utf8'), lstat(file)]);
      const next = withoutKeys(text, headers);
      if (stat.isFile() && next !== text) {
        await writeFile(`${file}.lock`, next, { flag: 'wx', mode: stat.mode & 0o777 });
        await rename(`${file}.lock`, file);
      }
    } catch {
      // left to git (a lock file already there is git's to refuse and checkGone's to find)
    }
  }
  const left = await stillHolds(file, share.gone);
  const byGit = share.unsets.filter((args) => left || args[0] !== '--unset-all' || !headers.has(args[1]!));
  await takeOut(git, ['--file', file], byGit);
}

/** Runs each unset; one that fails leaves its entry, which checkGone finds. */
async function takeOut(git: ConfigGit, where: string[], unsets: string[][]): Promise<void> {
  for (const args of unsets) {
    try {
      await git.raw(['config', ...where, ...args]);
    } catch {
      // gone already
    }
  }
}

/** Whether `file` still holds a secret of `entries` (read as text: no git process). */
async function stillHolds(file: string, entries: ConfigEntry[]): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return secretsOf(entries).some((s) => text.includes(s) || text.includes(quoted(s).slice(1, -1)));
}

/** Throws when a file still holds a secret taken out of it. */
async function checkGone(gone: Map<string, ConfigEntry[]>): Promise<void> {
  for (const [file, entries] of gone) {
    if (await stillHolds(file, entries)) {
      throw new Error(
        `${file} still holds the checkout credential after patchloop removed it; refusing to go on`,
      );
    }
  }
}

function secretsOf(entries: ConfigEntry[]): string[] {
  const out = new Set<string>();
  for (const { key, value } of entries) {
    if (!/extraheader$/i.test(key)) continue;
    out.add(value);
    const basic = /basic\s+([A-Za-z0-9+/=]+)/i.exec(value)?.[1];
    const bearer = /(?:bearer|token)\s+(\S+)/i.exec(value)?.[1];
    if (basic) {
      out.add(basic);
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const password = decoded.slice(decoded.indexOf(':') + 1);
      if (password) out.add(password);
    }
    if (bearer) out.add(bearer);
  }
  return [...out].filter((s) => s.length >= 4);
}

function within(dir: string | undefined, file: string): boolean {
  if (!dir) return false;
  const root = resolve(dir) + sep;
  return resolve(file).startsWith(root);
}

/**
 * Removes the checkout credential from the repository's git config (and the credential file the
 * config includes, and the configs of its submodules' git dirs) and returns it. Safe to call when
 * there is none: the result is then empty. Throws, with nothing left taken, when a config file is
 * a link or a credential entry stays in one.
 */
export async function takeCheckoutCredential(
  repoDir: string,
  options: { runnerTemp?: string; runner?: GitRunner } = {},
): Promise<CheckoutCredential> {
  // Before the first command: the checkout's config is still the one actions/checkout wrote.
  const git = configGit(repoDir, options.runner);
  const local = ['--local'];

  // One read of the whole local config (origin's URL and the common git dir beside it); the other
  // config files, found on disk, in one more read: most checkouts have none, so the common case
  // costs three git processes side by side and one unset.
  const [config, originUrl, others] = await Promise.all([
    readConfig(git, local, '.'),
    git
      .raw(['remote', 'get-url', '--push', 'origin'])
      .then((out) => out.trim() || undefined)
      .catch(() => undefined),
    commonDirOf(git, repoDir).then(async (commonDir) => {
      const files = commonDir ? await gitDirConfigs(commonDir, 'common') : [];
      return { commonDir, configs: await readFiles(git, files) };
    }),
  ]);
  const { commonDir } = others;

  const reads = new Map<string, Promise<ConfigEntry[]>>();
  const included = (file: string) => {
    if (!reads.has(file)) reads.set(file, readConfig(git, ['--file', file], HEADER_PATTERN));
    return reads.get(file)!;
  };
  const main = await shareOf(config, commonDir ?? repoDir, included);
  const shares = await Promise.all(
    [...others.configs].map(async ([file, entries]) => ({
      file,
      share: await shareOf(entries, dirname(file), included),
    })),
  );
  const elsewhere = shares.filter((s) => s.share.unsets.length > 0);

  const removed = main.keys.map((key) => `${key} in .git/config`);
  const gone = new Map<string, ConfigEntry[]>();
  if (commonDir && main.gone.length > 0) gone.set(join(commonDir, 'config'), main.gone);
  await Promise.all([
    takeOut(git, local, main.unsets),
    ...elsewhere.map((s) => rewrite(git, s.file, s.share)),
  ]);
  for (const { file, share } of elsewhere) {
    const label = within(repoDir, file) ? relative(repoDir, file) : file;
    removed.push(...share.keys.map((key) => `${key} in ${label}`));
    gone.set(file, share.gone);
  }
  for (const file of new Set([main, ...elsewhere.map((s) => s.share)].flatMap((s) => s.files))) {
    if (CHECKOUT_CREDENTIAL_FILE.test(file) && (within(options.runnerTemp, file) || !options.runnerTemp)) {
      await rm(file, { force: true });
      removed.push(file);
    } else {
      const headers = await included(file);
      const keys = [...new Set(headers.map((e) => e.key))];
      await takeOut(
        git,
        ['--file', file],
        keys.map((key) => ['--unset-all', key]),
      );
      removed.push(...keys.map((key) => `${key} in ${file}`));
      if (headers.length > 0) gone.set(file, headers);
    }
  }

  const credential: CheckoutCredential = {
    entries: main.entries,
    secrets: secretsOf([main, ...elsewhere.map((s) => s.share)].flatMap((s) => s.entries)),
    removed,
    originUrl,
    ...(commonDir && elsewhere.length > 0
      ? {
          elsewhere: {
            commonDir,
            files: elsewhere.map((s) => ({ path: relative(commonDir, s.file), entries: s.share.entries })),
          },
        }
      : {}),
  };
  try {
    await checkGone(gone);
  } catch (err) {
    await restoreCheckoutCredential(repoDir, credential, { runner: options.runner }).catch(() => undefined);
    throw err;
  }
  return credential;
}

/**
 * Environment that gives one git command the credential as command-line-level config
 * (GIT_CONFIG_COUNT, git 2.31+): never on disk, never in the process's argument list.
 */
export function credentialEnv(credential: CheckoutCredential | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  const entries = credential?.entries ?? [];
  entries.forEach((e, i) => {
    env[`GIT_CONFIG_KEY_${i}`] = e.key;
    env[`GIT_CONFIG_VALUE_${i}`] = e.value;
  });
  env.GIT_CONFIG_COUNT = String(entries.length);
  return env;
}

export interface RestoreOptions {
  /**
   * The checkout's config file, written by a git pointed at our private git dir (`GIT_DIR`), so
   * that nothing a command left in the workspace is read. Given by GitRepo once it isolated the
   * checkout and verified that its git dir is still the one recorded.
   */
  target?: { configFile: string; gitDir: string };
  runner?: GitRunner;
}

/** `rel` under `dir`, refused unless each folder on the way is a plain folder and it a regular file. */
async function plainFile(dir: string, rel: string): Promise<string> {
  const parts = rel.split(sep);
  if (isAbsolute(rel) || parts.some((p) => p === '' || p === '..')) throw refused(join(dir, rel));
  let path = dir;
  for (const [i, part] of parts.entries()) {
    path = join(path, part);
    const stat = await lstat(path);
    if (i === parts.length - 1 ? !stat.isFile() : !stat.isDirectory()) throw refused(path);
  }
  return path;
}

/** Adds each entry `where` does not hold yet. */
async function putBack(git: ConfigGit, where: string[], entries: ConfigEntry[]): Promise<void> {
  const present = await readConfig(git, where, '.');
  for (const e of entries) {
    if (present.some((p) => p.key.toLowerCase() === e.key.toLowerCase() && p.value === e.value)) continue;
    await git.raw(['config', ...where, '--add', e.key, e.value]);
  }
}

/**
 * Puts the credential back into the repository's local git config (and each submodule's config
 * it came from) once the agent is done, so the workflow's later steps can push as they could
 * before (actions/checkout's post step removes it again at the end of the job). Values written
 * before the run are not duplicated; a config file that became a link is refused.
 */
export async function restoreCheckoutCredential(
  repoDir: string,
  credential: CheckoutCredential,
  options: RestoreOptions = {},
): Promise<void> {
  const others = credential.elsewhere;
  if (credential.entries.length === 0 && !others) return;
  const t = options.target;
  const git = t
    ? configGit(t.gitDir, options.runner, { GIT_DIR: t.gitDir })
    : configGit(repoDir, options.runner);
  if (credential.entries.length > 0) {
    await putBack(git, t ? ['--file', t.configFile] : ['--local'], credential.entries);
  }
  const commonDir = t ? dirname(t.configFile) : others?.commonDir;
  if (!others || !commonDir) return;
  let failed: unknown;
  for (const f of others.files) {
    try {
      await putBack(git, ['--file', await plainFile(commonDir, f.path)], f.entries);
    } catch (err) {
      failed ??= err;
    }
  }
  if (failed) throw failed;
}
