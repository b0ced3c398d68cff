// The checkout as patchloop's git sees it: branches, the commit, and the push through `origin`.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { type CheckoutCredential, credentialEnv } from './git-credential.js';
import { uniqueName } from './branch-name.js';

export interface GitIdentity {
  name: string;
  email: string;
}

export const ACTIONS_BOT_IDENTITY: GitIdentity = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
};

export interface FileStat {
  path: string;
  /** null for binary files */
  added: number | null;
  removed: number | null;
}

export interface CommitResult {
  sha: string;
  files: FileStat[];
}

export type PushResult =
  | {
      ok: true;
      branch: string;
      sha: string;
      rebased: boolean;
      /** set when the work had to go to another branch */ movedFrom?: string;
    }
  | { ok: false; error: string };

// Only what git needs from the environment: the run's secrets stay out of every git process
// (a filter or helper in a tampered config would otherwise see them).
const ENV_KEEP =
  /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|TEMP|TMP|SYSTEMROOT|GIT_CONFIG_NOSYSTEM|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|SSH_AUTH_SOCK|https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY)$/;

export function gitEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && ENV_KEEP.test(k)) env[k] = v;
  return { ...env, GIT_TERMINAL_PROMPT: '0', ...extra };
}

export interface CheckoutOptions {
  dir: string;
  credential?: CheckoutCredential;
  /** author and committer; github-actions[bot] unless the repository's own config names someone */
  identity?: GitIdentity;
}

export class Checkout {
  readonly dir: string;
  private readonly credential?: CheckoutCredential;
  private identity?: GitIdentity;
  private configSnapshot?: string;

  constructor(options: CheckoutOptions) {
    this.dir = options.dir;
    this.credential = options.credential;
    this.identity = options.identity;
  }

  /** A git without the credential, for local commands. Hooks never run: the agent could have written them. */
  private git(extraEnv: Record<string, string> = {}): SimpleGit {
    return simpleGit({
      baseDir: this.dir,
      config: ['core.hooksPath=/dev/null', 'commit.gpgSign=false', 'core.fsmonitor=false'],
      unsafe: { allowUnsafeHooksPath: true, allowUnsafeConfigPaths: true, allowUnsafeFsMonitor: true },
    }).env(gitEnv(extraEnv));
  }

  /** A git that carries the checkout credential in its environment, for fetch and push. */
  private remoteGit(signal?: AbortSignal): SimpleGit {
    return simpleGit({
      baseDir: this.dir,
      ...(signal ? { abort: signal } : {}),
      config: ['core.hooksPath=/dev/null'],
      unsafe: { allowUnsafeHooksPath: true, allowUnsafeConfigPaths: true, allowUnsafeConfigEnvCount: true },
    }).env(gitEnv(credentialEnv(this.credential)));
  }

  /** Remembers .git/config so that changes made during the run can be undone before git runs again. */
  async snapshotConfig(): Promise<void> {
    this.configSnapshot = await readFile(join(await this.gitDir(), 'config'), 'utf8');
  }

  /** Puts back .git/config as it was at the snapshot; true when it had been changed. */
  async restoreConfig(): Promise<boolean> {
    if (this.configSnapshot === undefined) return false;
    const path = join(await this.gitDir(), 'config');
    const now = await readFile(path, 'utf8').catch(() => '');
    if (now === this.configSnapshot) return false;
    await writeFile(path, this.configSnapshot);
    return true;
  }

  async gitDir(): Promise<string> {
    const out = (
      await simpleGit({ baseDir: this.dir }).env(gitEnv()).raw(['rev-parse', '--absolute-git-dir'])
    ).trim();
    return out;
  }

  async currentBranch(): Promise<string | undefined> {
    try {
      const name = (await this.git().raw(['symbolic-ref', '--quiet', '--short', 'HEAD'])).trim();
      return name || undefined;
    } catch {
      return undefined;
    }
  }

  async headSha(): Promise<string> {
    return (await this.git().raw(['rev-parse', 'HEAD'])).trim();
  }

  /** Author/committer: the repository's local user.name/email when the workflow set them, else the Actions bot. */
  async resolveIdentity(): Promise<GitIdentity> {
    if (this.identity) return this.identity;
    const get = async (key: string) => {
      try {
        return (await this.git().raw(['config', '--local', '--get', key])).trim();
      } catch {
        return '';
      }
    };
    const [name, email] = [await get('user.name'), await get('user.email')];
    this.identity = name && email ? { name, email } : ACTIONS_BOT_IDENTITY;
    return this.identity;
  }

  /** Untracked, not ignored files (taken before the agent starts, so setup leftovers are not committed). */
  async untracked(): Promise<string[]> {
    const out = await this.git().raw(['ls-files', '--others', '--exclude-standard', '-z']);
    return out.split('\0').filter(Boolean);
  }

  async localBranches(): Promise<Set<string>> {
    const out = await this.git().raw(['for-each-ref', '--format=%(refname:short)', 'refs/heads']);
    return new Set(out.split('\n').filter(Boolean));
  }

  async remoteBranches(): Promise<Set<string>> {
    const out = await this.remoteGit().raw(['ls-remote', '--heads', 'origin']);
    return new Set(
      out
        .split('\n')
        .map((l) => l.split('\t')[1] ?? '')
        .filter((r) => r.startsWith('refs/heads/'))
        .map((r) => r.slice('refs/heads/'.length)),
    );
  }

  /** `name`, made unique against local branches and origin's. */
  async freeBranchName(name: string): Promise<string> {
    const [local, remote] = await Promise.all([this.localBranches(), this.remoteBranches()]);
    const taken = new Set([...local, ...remote]);
    return uniqueName(name, (c) => taken.has(c));
  }

  /** Starts a new local branch at HEAD (or at `from`). */
  async startBranch(name: string, from?: string): Promise<void> {
    await this.git().raw(['checkout', '-b', name, ...(from ? [from] : [])]);
  }

  /** Checks out origin's `branch` (fetched now) as the local branch of the same name. */
  async checkoutRemoteBranch(branch: string): Promise<string> {
    await this.remoteGit().raw([
      'fetch',
      '--no-tags',
      'origin',
      `+refs/heads/${branch}:refs/remotes/origin/${branch}`,
    ]);
    await this.git().raw(['checkout', '-B', branch, `refs/remotes/origin/${branch}`]);
    return this.headSha();
  }

  /** Checks out a pull request's head (GitHub keeps it as refs/pull/<n>/head, forks included) as a new branch. */
  async checkoutPullHead(number: number, branch: string): Promise<string> {
    await this.remoteGit().raw([
      'fetch',
      '--no-tags',
      'origin',
      `+refs/pull/${number}/head:refs/remotes/origin/pr-${number}`,
    ]);
    await this.git().raw(['checkout', '-B', branch, `refs/remotes/origin/pr-${number}`]);
    return this.headSha();
  }

  /** Does origin have this branch? */
  async remoteHasBranch(branch: string): Promise<boolean> {
    const out = await this.remoteGit().raw(['ls-remote', '--heads', 'origin', `refs/heads/${branch}`]);
    return out.trim() !== '';
  }

  /**
   * Commits every change of the run: tracked files, and untracked files that were not there
   * before (`baselineUntracked`). Null when nothing changed: no empty commits.
   */
  async commitChanges(
    message: string,
    baselineUntracked: readonly string[] = [],
  ): Promise<CommitResult | null> {
    const git = this.git(await this.identityEnv());
    await git.raw(['add', '--update', '--', '.']);
    const before = new Set(baselineUntracked);
    const fresh = (await this.untracked()).filter((f) => !before.has(f));
    for (let i = 0; i < fresh.length; i += 200) await git.raw(['add', '--', ...fresh.slice(i, i + 200)]);
    const staged = await git.raw(['diff', '--cached', '--numstat', '-z', '--no-renames']);
    if (staged.trim() === '') return null;
    await git.raw(['commit', '--quiet', '--no-verify', '-m', message]);
    return { sha: await this.headSha(), files: parseNumstat(staged) };
  }

  /**
   * Pushes HEAD to origin's `branch`, never forcing. When origin's branch moved on, fetches it and
   * rebases onto it; when that does not apply cleanly, pushes to a new branch instead.
   */
  async push(branch: string, signal?: AbortSignal): Promise<PushResult> {
    const drift = await this.originDrift();
    if (drift) return { ok: false, error: drift };
    const cancelled = { ok: false as const, error: 'The push was cancelled.' };
    if (signal?.aborted) return cancelled;
    const first = await this.tryPush(branch, signal);
    if (first.ok) return { ok: true, branch, sha: await this.headSha(), rebased: false };
    if (signal?.aborted) return cancelled;
    if (!first.rejected) return { ok: false, error: first.error };
    try {
      await this.remoteGit(signal).raw([
        'fetch',
        '--no-tags',
        'origin',
        `+refs/heads/${branch}:refs/remotes/origin/${branch}`,
      ]);
      await this.git(await this.identityEnv()).raw(['rebase', '--quiet', `refs/remotes/origin/${branch}`]);
      const again = await this.tryPush(branch, signal);
      if (again.ok) return { ok: true, branch, sha: await this.headSha(), rebased: true };
    } catch {
      await this.git()
        .raw(['rebase', '--abort'])
        .catch(() => undefined);
    }
    if (signal?.aborted) return cancelled;
    const other = await this.freeBranchName(branch);
    const moved = await this.tryPush(other, signal);
    if (moved.ok)
      return { ok: true, branch: other, sha: await this.headSha(), rebased: false, movedFrom: branch };
    return { ok: false, error: moved.error };
  }

  private async tryPush(
    branch: string,
    signal?: AbortSignal,
  ): Promise<{ ok: true } | { ok: false; rejected: boolean; error: string }> {
    try {
      await this.remoteGit(signal).raw(['push', 'origin', `HEAD:refs/heads/${branch}`]);
      return { ok: true };
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      const rejected =
        /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*(cannot lock ref|stale info)/i.test(
          text,
        );
      return { ok: false, rejected, error: explainPushError(text) };
    }
  }

  /** A push URL other than the one actions/checkout configured means someone changed origin: refuse. */
  private async originDrift(): Promise<string | undefined> {
    const expected = this.credential?.originUrl;
    if (!expected) return undefined;
    const now = await this.git()
      .raw(['remote', 'get-url', '--push', 'origin'])
      .then((out) => out.trim())
      .catch(() => '');
    return now === expected
      ? undefined
      : `origin's push URL changed during the run (now "${now}"); refusing to push`;
  }

  private async identityEnv(): Promise<Record<string, string>> {
    const id = await this.resolveIdentity();
    return {
      GIT_AUTHOR_NAME: id.name,
      GIT_AUTHOR_EMAIL: id.email,
      GIT_COMMITTER_NAME: id.name,
      GIT_COMMITTER_EMAIL: id.email,
    };
  }
}

/** Plain words for git's push failures. */
export function explainPushError(text: string): string {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const detail =
    line
      .filter((l) => /error|rejected|denied|fatal|refusing/i.test(l))
      .slice(0, 3)
      .join(' ') || line.slice(-2).join(' ');
  if (/refusing to allow .* to create or update workflow/i.test(text)) {
    return `The push was refused: it changes a workflow file and the token lacks the \`workflows\` permission (${detail}).`;
  }
  if (/permission to .* denied|returned error: 403|403 forbidden/i.test(text)) {
    return `The push was refused: the token cannot write to the repository; add \`contents: write\` to the job's \`permissions:\` (${detail}).`;
  }
  if (/could not read username|authentication failed|returned error: 401/i.test(text)) {
    return `The push was refused for lack of credentials: keep actions/checkout's persist-credentials on (${detail}).`;
  }
  return `The push failed: ${detail}`;
}

export function parseNumstat(out: string): FileStat[] {
  const files: FileStat[] = [];
  for (const rec of out.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(rec);
    if (!m) continue;
    files.push({
      path: m[3]!,
      added: m[1] === '-' ? null : Number(m[1]),
      removed: m[2] === '-' ? null : Number(m[2]),
    });
  }
  return files;
}
