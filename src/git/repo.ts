// The checkout as patchloop's git sees it: the branch work before the agent starts (in the
// checkout's own git dir, which no command has touched yet), then — after isolate() — everything
// through a private git dir: the tools' read-only calls, staging, the commit, the push, and the
// write-back that leaves the checkout on the new commit.
import { lstat, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type CheckoutCredential, credentialEnv, restoreCheckoutCredential } from './credential.js';
import { createGitRunner, GitError, resolveGit, splitNul, type GitCall, type GitRunner } from './exec.js';
import { uniqueName } from './branch-name.js';
import {
  createPrivateGitDir,
  inspectGitDir,
  removePrivateGitDir,
  restoreRealConfig,
  verifyRealGitDir,
  writeBack,
  type PrivateGitDir,
} from './private-dir.js';
import { choosePaths, type LeftOut } from './stage.js';
import { dirtyPaths, parseNumstat, parseStatus, type ChangedFile } from './status.js';
import { createToolGit, type Git } from './tool-git.js';

export interface GitIdentity {
  name: string;
  email: string;
}

export const ACTIONS_BOT_IDENTITY: GitIdentity = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
};

export interface CommitResult {
  sha: string;
  files: ChangedFile[];
  leftOut: LeftOut[];
}

export interface CommitOutcome {
  /** null when nothing was left to commit: no empty commits */
  commit: CommitResult | null;
  leftOut: LeftOut[];
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

/** What mergeCommit did: a merge commit, or nothing (the conflicting paths, the merge aborted). */
export type MergeResult = { merged: true; sha: string } | { merged: false; conflicts: string[] };

export interface RepoOptions {
  /** the work tree's root */
  dir: string;
  credential?: CheckoutCredential;
  /** author and committer, when given; otherwise see identitySource */
  identity?: GitIdentity;
  /**
   * `local` (the action): the checkout's own user.name/email when the workflow set them;
   * `user` (the CLI): the user's effective identity, their global config included.
   * Either falls back to `fallbackIdentity`.
   */
  identitySource?: 'local' | 'user';
  fallbackIdentity?: GitIdentity;
  protectedPaths?: readonly string[];
  maxFileBytes?: number;
  /** where the private git dir is made (RUNNER_TEMP in the action); default the system temp folder */
  privateParent?: string;
  /** an absolute git binary; default: resolved from PATH, outside the workspace */
  git?: string;
  /** the bound of one local git call; default 120 s */
  timeoutMs?: number;
  /** the git dir as git reported it before the first command (saves isolate() a process) */
  gitDir?: string;
  /**
   * Stops the network calls that are given no signal of their own (the start-up's fetches and
   * ls-remotes): a cancelled run leaves no fetch running behind it. The push has its own.
   */
  signal?: AbortSignal;
}

export interface DeliveryBounds {
  /** aborts the call: its git processes are killed, whole process groups */
  signal?: AbortSignal;
  /** the bound of each git process in the call */
  timeoutMs?: number;
}

const NETWORK_TIMEOUT_MS = 600_000;

/**
 * A merge that failed and could not be undone: the work tree may hold half-merged files, so
 * nothing may be planned on it. Callers let it end the run.
 */
export class MergeRecoveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergeRecoveryError';
  }
}

/** Lock files a killed git leaves in a git dir (git removes them itself on SIGTERM, not on SIGKILL). */
const LOCK_FILES = ['index.lock', 'HEAD.lock', 'ORIG_HEAD.lock', 'MERGE_HEAD.lock'];

export class GitRepo {
  readonly dir: string;
  readonly runner: GitRunner;
  private readonly options: RepoOptions;
  private priv?: PrivateGitDir;
  private isolating?: Promise<void>;
  private identity?: GitIdentity;
  private originUrl?: string;
  private drift?: string;
  /** write operations (commit, merge) in flight: a lock seen while none is, is stale */
  private writing = 0;

  constructor(options: RepoOptions) {
    this.options = options;
    this.dir = resolve(options.dir);
    this.runner = createGitRunner(options.git ?? resolveGit({ workspace: this.dir }));
    this.identity = options.identity;
  }

  get isolated(): boolean {
    return this.priv !== undefined;
  }

  /** The private git dir, once isolate() made it. */
  get privateGitDir(): string | undefined {
    return this.priv?.gitDir;
  }

  private env(extra: Record<string, string> = {}): Record<string, string> {
    return this.priv ? { GIT_DIR: this.priv.gitDir, GIT_WORK_TREE: this.dir, ...extra } : extra;
  }

  private async call(extra: Partial<GitCall> = {}): Promise<GitCall> {
    // Objects borrowed through alternates are only as good as the directory they come from.
    if (this.priv?.objects === 'alternates') await verifyRealGitDir(this.priv.real);
    return { cwd: this.dir, timeoutMs: this.options.timeoutMs, ...extra, env: this.env(extra.env) };
  }

  /** A local git command; throws a GitError on failure. */
  private async git(args: string[], extra: Partial<GitCall> = {}): Promise<string> {
    return this.runner.text(args, await this.call(extra));
  }

  /** A network command, handed the checkout credential in its own environment only. */
  private async remote(args: string[], bounds: DeliveryBounds = {}): Promise<string> {
    return this.git(args, {
      env: credentialEnv(this.options.credential),
      timeoutMs: bounds.timeoutMs ?? NETWORK_TIMEOUT_MS,
      ...((bounds.signal ?? this.options.signal) ? { signal: bounds.signal ?? this.options.signal } : {}),
    });
  }

  /**
   * Moves every later git call to a private git dir (see private-dir.ts). Call it after the
   * branch is prepared and before the first command runs; idempotent.
   */
  isolate(): Promise<void> {
    this.isolating ??= this.makePrivate();
    return this.isolating;
  }

  private async makePrivate(): Promise<void> {
    // One read of the config (the user's files too, for the CLI's identity), beside the git dir:
    // on the CLI this is the only git process isolate() starts.
    const userScope = this.options.identitySource === 'user' && !this.identity;
    const [reported, configList, pushUrl] = await Promise.all([
      this.options.gitDir ?? this.git(['rev-parse', '--absolute-git-dir']),
      this.git(['config', ...(userScope ? [] : ['--local']), '--null', '--show-scope', '--list'], {
        userConfig: userScope,
      }).catch(() => ''),
      this.options.credential?.originUrl !== undefined
        ? this.git(['remote', 'get-url', '--push', 'origin']).then(
            (u) => u.trim(),
            () => '',
          )
        : Promise.resolve(undefined),
    ]);
    const real = await inspectGitDir(this.dir, reported.trim());
    // `scope\0key\nvalue\0` records; for single-valued keys the last one wins, as in git
    const config = new Map<string, string>();
    const effective = new Map<string, string>();
    const records = splitNul(configList);
    for (let i = 0; i + 1 < records.length; i += 2) {
      const scope = records[i]!;
      const entry = records[i + 1]!;
      const nl = entry.indexOf('\n');
      const key = (nl === -1 ? entry : entry.slice(0, nl)).toLowerCase();
      const value = nl === -1 ? '' : entry.slice(nl + 1);
      effective.set(key, value);
      if (scope === 'local') config.set(key, value);
    }
    const refStorage = config.get('extensions.refstorage');
    if (refStorage && refStorage !== 'files') {
      throw new Error(`The checkout keeps its refs in ${refStorage}, which patchloop does not support`);
    }
    const expected = this.options.credential?.originUrl;
    if (expected !== undefined && pushUrl !== expected) {
      this.drift = `origin's push URL changed during the run (now "${pushUrl}"); refusing to push`;
    }
    this.originUrl = expected ?? config.get('remote.origin.pushurl') ?? config.get('remote.origin.url');
    if (!this.identity) {
      const source = userScope ? effective : config;
      const name = source.get('user.name');
      const email = source.get('user.email');
      this.identity =
        name && email ? { name, email } : (this.options.fallbackIdentity ?? ACTIONS_BOT_IDENTITY);
    }
    this.priv = await createPrivateGitDir(real, this.options.privateParent ?? tmpdir(), {
      objectFormat: config.get('extensions.objectformat'),
      fileSystem: Object.fromEntries(
        ['filemode', 'symlinks', 'ignorecase', 'precomposeunicode'].flatMap((k) => {
          const v = config.get(`core.${k}`);
          return v === undefined ? [] : [[k, v]];
        }),
      ),
      originUrl: this.originUrl,
      identity: this.identity,
    });
  }

  /**
   * Removes the lock files a killed git left in the private git dir, so the next commit or merge
   * abort does not fail on them. Only patchloop's own private dir, never the checkout's .git
   * (another program may be using that), and only while no write of ours is in flight. Returns
   * the names removed.
   */
  async removeStaleLocks(): Promise<string[]> {
    if (!this.priv || this.writing > 0) return [];
    return this.clearLocks();
  }

  private async clearLocks(): Promise<string[]> {
    if (!this.priv) return [];
    const removed: string[] = [];
    for (const name of LOCK_FILES) {
      const path = join(this.priv.gitDir, name);
      const stat = await lstat(path).catch(() => undefined);
      if (!stat?.isFile()) continue;
      await rm(path, { force: true });
      removed.push(name);
    }
    return removed;
  }

  /** Runs one write operation, stale locks removed first. */
  private async writes<T>(work: () => Promise<T>): Promise<T> {
    await this.isolate();
    await this.removeStaleLocks();
    this.writing++;
    try {
      return await work();
    } finally {
      this.writing--;
    }
  }

  /** The tools' read-only git (grep, file lists, ignore checks), private once isolated. */
  toolGit(): Git {
    return createToolGit(this.dir, {
      runner: this.runner,
      call: (extra) => this.call(extra),
    });
  }

  async currentBranch(): Promise<string | undefined> {
    try {
      const name = (await this.git(['symbolic-ref', '--quiet', '--short', 'HEAD'])).trim();
      return name || undefined;
    } catch {
      return undefined;
    }
  }

  async headSha(): Promise<string> {
    return (await this.git(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  }

  /** Author and committer of the commit. */
  async resolveIdentity(): Promise<GitIdentity> {
    await this.isolate();
    return this.identity!;
  }

  /** Untracked, not ignored files (taken before the agent starts, so setup leftovers are not committed). */
  async untracked(): Promise<string[]> {
    return splitNul(await this.git(['ls-files', '--others', '--exclude-standard', '-z'], { readOnly: true }));
  }

  /** Paths with uncommitted changes, and untracked files that are not ignored. */
  async dirtyPaths(): Promise<string[]> {
    return dirtyPaths(parseStatus(await this.status()));
  }

  private status(): Promise<string> {
    return this.git(
      ['status', '--porcelain=v2', '-z', '--untracked-files=all', '--ignore-submodules=all', '--no-renames'],
      { readOnly: true },
    );
  }

  async localBranches(): Promise<Set<string>> {
    const out = await this.git(['for-each-ref', '--format=%(refname:short)', 'refs/heads'], {
      readOnly: true,
    });
    return new Set(out.split('\n').filter(Boolean));
  }

  async branchExists(name: string): Promise<boolean> {
    return this.runner
      .run(['show-ref', '--verify', '--quiet', `refs/heads/${name}`], await this.call({ readOnly: true }))
      .then((r) => r.code === 0);
  }

  async isValidBranchName(name: string): Promise<boolean> {
    // The names patchloop makes are answered here; anything else is left to git.
    if (isPlainBranchName(name)) return true;
    const r = await this.runner.run(['check-ref-format', '--branch', name], await this.call());
    return r.code === 0 && !name.startsWith('-');
  }

  async remoteBranches(bounds: DeliveryBounds = {}): Promise<Set<string>> {
    const out = await this.remote(['ls-remote', '--heads', 'origin'], bounds);
    return new Set(
      out
        .split('\n')
        .map((l) => l.split('\t')[1] ?? '')
        .filter((r) => r.startsWith('refs/heads/'))
        .map((r) => r.slice('refs/heads/'.length)),
    );
  }

  /** `name`, made unique against local branches and origin's. */
  async freeBranchName(name: string, bounds: DeliveryBounds = {}): Promise<string> {
    const [local, remote] = await Promise.all([this.localBranches(), this.remoteBranches(bounds)]);
    const taken = new Set([...local, ...remote]);
    return uniqueName(name, (c) => taken.has(c));
  }

  /** `name`, or `name-2`, `name-3` … whichever no local branch has. */
  async unusedBranchName(name: string): Promise<string> {
    const local = await this.localBranches();
    return uniqueName(name, (c) => local.has(c));
  }

  /** Starts a new local branch at HEAD (or at `from`). */
  async startBranch(name: string, from?: string): Promise<void> {
    if (this.priv) {
      // Isolated: only refs change; the work tree already holds HEAD's files and the run's work.
      const sha = (await this.git(['rev-parse', '--verify', `${from ?? 'HEAD'}^{commit}`])).trim();
      await this.git(['update-ref', `refs/heads/${name}`, sha, '']);
      await this.git(['symbolic-ref', 'HEAD', `refs/heads/${name}`]);
      return;
    }
    await this.git(['checkout', '-b', name, ...(from ? [from] : [])]);
  }

  /** Checks out an existing local branch (before isolate(); `run --continue`). */
  async checkoutBranch(branch: string): Promise<string> {
    if (!(await this.isValidBranchName(branch))) throw new Error(`Not a branch name: ${branch}`);
    await this.git(['checkout', '--quiet', branch, '--']);
    return this.headSha();
  }

  /** Checks out origin's `branch` (fetched now) as the local branch of the same name. */
  async checkoutRemoteBranch(branch: string): Promise<string> {
    await this.fetchRemoteBranch(branch);
    return this.checkoutFetchedBranch(branch);
  }

  /** Fetches origin's `branch` into refs/remotes/origin/ (fails when origin has none). */
  async fetchRemoteBranch(branch: string): Promise<void> {
    await this.remote([
      'fetch',
      '--no-tags',
      'origin',
      `+refs/heads/${branch}:refs/remotes/origin/${branch}`,
    ]);
  }

  /** Checks out `branch` at what fetchRemoteBranch brought; the new HEAD. */
  async checkoutFetchedBranch(branch: string): Promise<string> {
    const ref = `refs/remotes/origin/${branch}`;
    // the commit is read from the fetched ref beside the checkout (which only moves HEAD to it)
    const [, sha] = await Promise.all([
      this.git(['checkout', '-B', branch, ref]),
      this.git(['rev-parse', '--verify', `${ref}^{commit}`]),
    ]);
    return sha.trim();
  }

  /** Checks out a pull request's head (GitHub keeps it as refs/pull/<n>/head, forks included) as a new branch. */
  async checkoutPullHead(number: number, branch: string): Promise<string> {
    await this.remote([
      'fetch',
      '--no-tags',
      'origin',
      `+refs/pull/${number}/head:refs/remotes/origin/pr-${number}`,
    ]);
    await this.git(['checkout', '-B', branch, `refs/remotes/origin/pr-${number}`]);
    return this.headSha();
  }

  /** Fetches one commit from origin (a shallow checkout may lack it); GitHub serves any reachable sha. */
  async fetchCommit(sha: string): Promise<void> {
    if (!/^[0-9a-f]{40,64}$/.test(sha)) throw new Error(`Not a commit id: ${sha}`);
    await this.remote(['fetch', '--no-tags', '--no-write-fetch-head', 'origin', sha]);
  }

  /**
   * Merges the commit `sha` into the current branch with a merge commit (never a fast-forward),
   * made by the run's identity. It runs in the private git dir (isolating first), so only
   * patchloop's own config applies: a `merge=` or `filter=` driver that the merged content's
   * `.gitattributes` names has no command defined there and runs nothing, and neither the
   * checkout's config nor its hooks are read. On conflicts the merge is aborted, leaving branch,
   * index and tree as they were, and the conflicting paths are returned; any other failure throws
   * after the same clean-up. A commit the branch already holds merges to nothing: HEAD unchanged.
   */
  async mergeCommit(sha: string, message: string): Promise<MergeResult> {
    if (!/^[0-9a-f]{40,64}$/.test(sha)) throw new Error(`Not a commit id: ${sha}`);
    return this.writes(() => this.merge(sha, message));
  }

  private async merge(sha: string, message: string): Promise<MergeResult> {
    // What the tree looks like before: after an abort it must look the same again.
    const before = await this.trackedStatus();
    const args = [
      'merge',
      '--no-ff',
      '--no-edit',
      '--no-verify',
      '--no-gpg-sign',
      '--no-log',
      '--no-squash',
      '--no-autostash',
      '--no-rerere-autoupdate',
      '--quiet',
      '-m',
      message,
      sha,
    ];
    const r = await this.runner.run(args, await this.call({ env: this.identityEnv() }));
    if (r.code === 0 && !r.stopped) return { merged: true, sha: await this.headSha() };
    const unmerged = await this.git(['ls-files', '--unmerged', '-z'], { readOnly: true }).catch(() => '');
    // `<mode> <object> <stage>\t<path>`, one record per stage of each path
    const conflicts = [
      ...new Set(splitNul(unmerged).map((record) => record.slice(record.indexOf('\t') + 1))),
    ];
    await this.abortMerge(before);
    if (conflicts.length > 0 && !r.stopped) return { merged: false, conflicts };
    const why = r.timedOut ? 'timed out' : r.stopped ? 'was stopped' : `failed (exit ${r.code})`;
    throw new GitError(
      // git names what is in the way first and says "Aborting" last: the start says why.
      `git merge ${why}: ${r.stderr.split('\n').filter(Boolean).slice(0, 4).join(' ').slice(0, 500)}`.trim(),
      r.code,
      r.stderr,
    );
  }

  /** Tracked paths that differ from HEAD or the index, as git status lists them. */
  private trackedStatus(): Promise<string> {
    return this.git(['status', '--porcelain=v2', '-z', '--untracked-files=no', '--ignore-submodules=all'], {
      readOnly: true,
    });
  }

  /**
   * Undoes a merge that did not complete. The merge's git has exited (a killed one may have left
   * its lock), so the private dir's locks are stale and go first. "No merge to abort" is fine when
   * git refused before it began; what counts is that the tree is as it was before the merge and
   * no merge is in progress. Otherwise a MergeRecoveryError.
   */
  private async abortMerge(before: string): Promise<void> {
    await this.clearLocks();
    const aborted = await this.runner.run(['merge', '--abort'], await this.call());
    const after = await this.trackedStatus().catch(() => undefined);
    const merging = await lstat(join(this.priv!.gitDir, 'MERGE_HEAD')).then(
      () => true,
      () => false,
    );
    if (after === before && !merging) return;
    const said =
      aborted.code === 0
        ? 'left the tree changed'
        : `failed: ${aborted.stderr.split('\n').filter(Boolean).slice(-2).join(' ').slice(0, 300)}`;
    throw new MergeRecoveryError(
      `A merge in the workspace could not be undone (git merge --abort ${said}); the work tree may hold half-merged files, so the run stops here rather than work on them.`,
    );
  }

  /** The commit origin's branch is at now (ls-remote), or undefined when origin has no such branch. */
  async remoteBranchSha(branch: string): Promise<string | undefined> {
    const out = await this.remote(['ls-remote', '--heads', 'origin', `refs/heads/${branch}`]);
    return /^([0-9a-f]{40,64})\s/.exec(out)?.[1];
  }

  /** Does origin have this branch? */
  async remoteHasBranch(branch: string): Promise<boolean> {
    const out = await this.remote(['ls-remote', '--heads', 'origin', `refs/heads/${branch}`]);
    return out.trim() !== '';
  }

  /**
   * Commits the run's changes in the private git dir: what `git status` lists, less what
   * choosePaths leaves out (stage.ts), staged as an explicit path list. With `branch`, the commit
   * goes onto that new branch (created only when there is something to commit).
   */
  async commitChanges(
    message: string,
    options: DeliveryBounds & { baselineUntracked?: readonly string[]; branch?: string } = {},
  ): Promise<CommitOutcome> {
    return this.writes(() => this.commit(message, options));
  }

  private async commit(
    message: string,
    options: DeliveryBounds & { baselineUntracked?: readonly string[]; branch?: string },
  ): Promise<CommitOutcome> {
    const bounds = {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    };
    const status = parseStatus(
      await this.git(
        [
          'status',
          '--porcelain=v2',
          '-z',
          '--untracked-files=all',
          '--ignore-submodules=all',
          '--no-renames',
        ],
        bounds,
      ),
    );
    const ids = this.priv!.real.ids;
    const { stage, leftOut } = await choosePaths(this.dir, status.entries, {
      gitDirs: [ids.gitDir, ids.commonDir],
      protectedPaths: this.options.protectedPaths,
      maxFileBytes: this.options.maxFileBytes,
      baselineUntracked: options.baselineUntracked,
    });
    if (stage.length > 0) {
      // A pathspec file, not argv: no length limit; literal, so a file named `*` is one file.
      await this.git(['--literal-pathspecs', 'add', '--pathspec-from-file=-', '--pathspec-file-nul'], {
        ...bounds,
        input: `${stage.join('\0')}\0`,
      });
    }
    const staged = await this.git(
      [
        'diff',
        '--cached',
        '--numstat',
        '-z',
        '--no-renames',
        '--no-ext-diff',
        '--no-textconv',
        '--ignore-submodules=all',
        'HEAD',
      ],
      bounds,
    );
    const files = parseNumstat(staged);
    if (files.length === 0) return { commit: null, leftOut };
    if (options.branch !== undefined) await this.startBranch(options.branch);
    await this.git(['commit', '--quiet', '--no-verify', '--no-gpg-sign', '--file=-'], {
      ...bounds,
      input: message,
      env: this.identityEnv(),
    });
    const commit = { sha: await this.headSha(), files, leftOut };
    return { commit, leftOut };
  }

  private identityEnv(): Record<string, string> {
    const id = this.identity ?? ACTIONS_BOT_IDENTITY;
    return {
      GIT_AUTHOR_NAME: id.name,
      GIT_AUTHOR_EMAIL: id.email,
      GIT_COMMITTER_NAME: id.name,
      GIT_COMMITTER_EMAIL: id.email,
    };
  }

  /**
   * Pushes HEAD to origin's `branch`, never forcing. When origin's branch moved on, fetches it and
   * rebases onto it; when that does not apply cleanly, pushes to a new branch instead.
   */
  async push(branch: string, bounds: DeliveryBounds = {}): Promise<PushResult> {
    await this.isolate();
    const drift = this.drift ?? (await this.originDrift());
    if (drift) return { ok: false, error: drift };
    const { signal } = bounds;
    const cancelled = { ok: false as const, error: 'The push was cancelled.' };
    if (signal?.aborted) return cancelled;
    const first = await this.tryPush(branch, bounds);
    if (first.ok) return { ok: true, branch, sha: await this.headSha(), rebased: false };
    if (signal?.aborted) return { ok: false, error: first.error };
    if (!first.rejected) return { ok: false, error: first.error };
    try {
      await this.remote(
        ['fetch', '--no-tags', 'origin', `+refs/heads/${branch}:refs/remotes/origin/${branch}`],
        bounds,
      );
      await this.git(['rebase', '--quiet', '--no-autostash', `refs/remotes/origin/${branch}`], {
        ...bounds,
        env: this.identityEnv(),
      });
      const again = await this.tryPush(branch, bounds);
      if (again.ok) return { ok: true, branch, sha: await this.headSha(), rebased: true };
    } catch {
      await this.git(['rebase', '--abort']).catch(() => undefined);
    }
    if (signal?.aborted) return cancelled;
    const other = await this.freeBranchName(branch, bounds);
    const moved = await this.tryPush(other, bounds);
    if (moved.ok)
      return { ok: true, branch: other, sha: await this.headSha(), rebased: false, movedFrom: branch };
    return { ok: false, error: moved.error };
  }

  /**
   * The push goes to origin's URL as recorded before the first command, whatever the checkout's
   * config says now; a changed URL there still means someone tampered with origin, so refuse.
   * Read with `config --file`: the file is parsed, never acted on (no includes followed).
   */
  private async originDrift(): Promise<string | undefined> {
    const expected = this.options.credential?.originUrl;
    if (!expected || !this.priv) return undefined;
    const file = `${this.priv.real.commonDir}/config`;
    const read = (key: string) =>
      this.git(['config', '--file', file, '--get', key]).then(
        (v) => v.trim(),
        () => '',
      );
    const now = (await read('remote.origin.pushurl')) || (await read('remote.origin.url'));
    return now === expected
      ? undefined
      : `origin's push URL changed during the run (now "${now}"); refusing to push`;
  }

  private async tryPush(
    branch: string,
    bounds: DeliveryBounds,
  ): Promise<{ ok: true } | { ok: false; rejected: boolean; error: string }> {
    try {
      await this.remote(['push', '--no-verify', 'origin', `HEAD:refs/heads/${branch}`], bounds);
      return { ok: true };
    } catch (err) {
      const text = err instanceof GitError ? `${err.message}\n${err.stderr}` : String(err);
      if (bounds.signal?.aborted || /timed out|deadline/.test(text.split('\n')[0]!)) {
        return { ok: false, rejected: false, error: `The push was stopped: ${text.split('\n')[0]}` };
      }
      const rejected =
        /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\].*(cannot lock ref|stale info)/i.test(
          text,
        );
      return { ok: false, rejected, error: explainPushError(text) };
    }
  }

  /**
   * Leaves the checkout as the private git dir has it: new objects, the branch ref (and origin's
   * `pushed` branch when given), HEAD on the branch, the index. Plain file operations: no git
   * reads the checkout's config. A no-op before isolate().
   */
  async writeBack(pushed?: { branch: string; sha: string }): Promise<void> {
    if (!this.priv) return;
    const head = (await this.git(['symbolic-ref', '--quiet', 'HEAD']).catch(() => '')).trim();
    const sha = await this.headSha();
    const refs: Record<string, string> = {};
    if (head) refs[head] = sha;
    if (pushed) refs[`refs/remotes/origin/${pushed.branch}`] = pushed.sha;
    await writeBack(this.priv, { refs, head: head || sha });
  }

  /** Puts the checkout's .git/config back as it was at isolate(); true when it had been changed. */
  async restoreConfig(): Promise<boolean> {
    if (!this.priv) return false;
    return restoreRealConfig(this.priv);
  }

  /** Puts the checkout credential back for the workflow's later steps (see credential.ts). */
  async restoreCredential(credential: CheckoutCredential): Promise<void> {
    if (!this.priv) return restoreCheckoutCredential(this.dir, credential, { runner: this.runner });
    await verifyRealGitDir(this.priv.real);
    await restoreCheckoutCredential(this.dir, credential, {
      runner: this.runner,
      target: { configFile: `${this.priv.real.commonDir}/config`, gitDir: this.priv.gitDir },
    });
  }

  /** Removes the private git dir (after writeBack). */
  async dispose(): Promise<void> {
    if (this.priv) await removePrivateGitDir(this.priv);
  }
}

export interface OpenedCheckout {
  repo: GitRepo;
  root: string;
  /** the commit the run starts from */
  head: string;
  /** the branch checked out, or undefined on a detached HEAD */
  branch: string | undefined;
  /** paths with uncommitted changes, and untracked files that are not ignored */
  dirty: string[];
}

/**
 * The checkout that holds `dir` (the CLI's), with its HEAD, branch and uncommitted paths; throws
 * an Error that says what is wrong. Two git processes side by side: this is on the way to the
 * first model request.
 */
export async function openCheckout(
  dir: string,
  options: Omit<RepoOptions, 'dir'> = {},
): Promise<OpenedCheckout> {
  const runner = createGitRunner(options.git ?? resolveGit({ workspace: dir }));
  const call: GitCall = { cwd: dir, readOnly: true, timeoutMs: 30_000 };
  const [top, status] = await Promise.all([
    runner.text(['rev-parse', '--show-toplevel', '--absolute-git-dir'], call).catch(() => undefined),
    runner
      .text(['status', '--porcelain=v2', '--branch', '-z', '--ignore-submodules=all'], call)
      .catch(() => undefined),
  ]);
  if (top === undefined || status === undefined) {
    throw new Error(`${dir} is not inside a git checkout (run \`git init\` and commit first)`);
  }
  const [root = '', gitDir] = top.trim().split('\n');
  const parsed = parseStatus(status);
  if (!parsed.head)
    throw new Error(`${root} has no commits yet; commit once so the changes can go on a branch`);
  const repo = new GitRepo({ ...options, dir: root, git: runner.binary, ...(gitDir ? { gitDir } : {}) });
  return { repo, root, head: parsed.head, branch: parsed.branch, dirty: dirtyPaths(parsed) };
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

/**
 * Whether `git check-ref-format --branch` certainly accepts `name`, judged without git: the plain
 * names patchloop makes (ASCII letters, digits, `.`, `_`, `-` and `/`) with none of the forms git
 * refuses (an empty component, one that starts with `.` or ends with `.lock`, `..`, a final `.`,
 * a leading `-`, `HEAD`). False means "ask git", not "invalid".
 */
export function isPlainBranchName(name: string): boolean {
  if (!/^[A-Za-z0-9._/-]+$/.test(name)) return false;
  if (name.startsWith('-') || name === 'HEAD' || name.endsWith('.') || name.includes('..')) return false;
  return name.split('/').every((c) => c !== '' && !c.startsWith('.') && !c.endsWith('.lock'));
}
