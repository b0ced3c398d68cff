// The credential actions/checkout leaves behind, moved from disk into memory before the agent
// starts, and handed back to git's network commands alone, through their environment.
//
// actions/checkout (persist-credentials, the default) stores the token as an HTTP header:
//   v4/v5: `http.https://github.com/.extraheader = AUTHORIZATION: basic base64(x-access-token:TOKEN)`
//          in .git/config;
//   v6+:   the same key in $RUNNER_TEMP/git-credentials-<uuid>.config, pulled into .git/config by
//          `includeIf.gitdir:<workspace>/.git.path` (and `.../worktrees/*` and container variants).
// Anything a tool runs in the checkout could read either file, so both are cleaned.
import { rm } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
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
}

const CHECKOUT_CREDENTIAL_FILE = /git-credentials-[0-9a-f-]+\.config$/i;

/** git in one folder; `env` points it at a git dir of our choosing when there is one. */
interface ConfigGit {
  raw(args: string[]): Promise<string>;
}

function configGit(dir: string, runner?: GitRunner, env?: Record<string, string>): ConfigGit {
  const git = runner ?? createGitRunner(resolveGit({ workspace: dir }));
  return { raw: (args) => git.text(args, { cwd: dir, timeoutMs: 30_000, ...(env ? { env } : {}) }) };
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
    .map((e) => {
      const nl = e.indexOf('\n');
      return nl === -1 ? { key: e, value: '' } : { key: e.slice(0, nl), value: e.slice(nl + 1) };
    });
}

async function unset(git: ConfigGit, where: string[], key: string): Promise<void> {
  try {
    await git.raw(['config', ...where, '--unset-all', key]);
  } catch {
    // already gone
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
 * config includes) and returns it. Safe to call when there is none: the result is then empty.
 */
export async function takeCheckoutCredential(
  repoDir: string,
  options: { runnerTemp?: string; runner?: GitRunner } = {},
): Promise<CheckoutCredential> {
  // Before the first command: the checkout's config is still the one actions/checkout wrote.
  const git = configGit(repoDir, options.runner);
  const local = ['--local'];
  const entries: ConfigEntry[] = [];
  const removed: string[] = [];

  // One read of the whole local config (and origin's URL beside it): most checkouts hold one
  // credential entry or none, so the common case costs two git processes and one unset.
  const [config, originUrl] = await Promise.all([
    readConfig(git, local, '.'),
    git
      .raw(['remote', 'get-url', '--push', 'origin'])
      .then((out) => out.trim() || undefined)
      .catch(() => undefined),
  ]);
  const headers = config.filter((e) => /^http\..*\.extraheader$/i.test(e.key));
  for (const key of new Set(headers.map((h) => h.key))) {
    await unset(git, local, key);
    removed.push(`${key} in .git/config`);
  }
  entries.push(...headers);

  const ssh = config.filter((e) => /^core\.sshcommand$/i.test(e.key));
  if (ssh.length > 0) {
    await unset(git, local, 'core.sshCommand');
    removed.push('core.sshCommand in .git/config');
    entries.push(...ssh.map((e) => ({ key: 'core.sshCommand', value: e.value })));
  }

  const includes = config.filter((e) => /^includeif\..*\.path$|^include\.path$/i.test(e.key));
  const files = new Set<string>();
  for (const inc of includes) {
    const fromFile = await readConfig(git, ['--file', inc.value], '^http\\..*\\.extraheader$');
    const isCheckoutFile = CHECKOUT_CREDENTIAL_FILE.test(inc.value);
    if (fromFile.length === 0 && !isCheckoutFile) continue;
    entries.push(...fromFile.filter((e) => !entries.some((x) => x.key === e.key && x.value === e.value)));
    // Only this value of the key: includeIf keys can hold other, unrelated paths.
    try {
      await git.raw(['config', '--local', '--fixed-value', '--unset-all', inc.key, inc.value]);
    } catch {
      // gone already
    }
    removed.push(`${inc.key} in .git/config`);
    files.add(inc.value);
  }
  for (const file of files) {
    if (CHECKOUT_CREDENTIAL_FILE.test(file) && (within(options.runnerTemp, file) || !options.runnerTemp)) {
      await rm(file, { force: true });
      removed.push(file);
    } else {
      for (const key of new Set(
        (await readConfig(git, ['--file', file], '^http\\..*\\.extraheader$')).map((e) => e.key),
      )) {
        await unset(git, ['--file', file], key);
        removed.push(`${key} in ${file}`);
      }
    }
  }

  return { entries, secrets: secretsOf(entries), removed, originUrl };
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

/**
 * Puts the credential back into the repository's local git config once the agent is done, so the
 * workflow's later steps can push as they could before (actions/checkout's post step removes it
 * again at the end of the job). Values written before the run are not duplicated.
 */
export async function restoreCheckoutCredential(
  repoDir: string,
  credential: CheckoutCredential,
  options: RestoreOptions = {},
): Promise<void> {
  if (credential.entries.length === 0) return;
  const t = options.target;
  const git = t
    ? configGit(t.gitDir, options.runner, { GIT_DIR: t.gitDir })
    : configGit(repoDir, options.runner);
  const where = t ? ['--file', t.configFile] : ['--local'];
  const present = await readConfig(git, where, '.');
  for (const e of credential.entries) {
    if (present.some((p) => p.key.toLowerCase() === e.key.toLowerCase() && p.value === e.value)) continue;
    await git.raw(['config', ...where, '--add', e.key, e.value]);
  }
}
