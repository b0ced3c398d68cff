// Where a run's work goes (CONTRACT §4) and getting it there: the branch is prepared before the
// agent starts, the commit, push and PR happen after it ends.
import {
  branchNameFor,
  describeLeftOut,
  type CommitResult,
  type GitRepo as Checkout,
  type LeftOut,
  type PushResult,
} from '../../git/index.js';
import type { PullRequestRefs, Task } from '../context/task.js';
import type { GitHubClient } from '../octokit.js';
import { describeGitHubError } from '../octokit.js';
import { openPullRequest, type PullRequestOutcome } from './pr.js';

export interface WorkPlan {
  /** `pr-head`: commits go onto a same-repository PR's own branch; `new-branch`: a branch of the run's own */
  mode: 'pr-head' | 'new-branch';
  branch: string;
  /** the branch a PR would merge into */
  prBase: string;
  /** whether a PR is opened for the branch */
  openPr: boolean;
  /** the issue the PR closes */
  fixes?: number;
  /** the PR the work belongs to, when the run started on one */
  pullNumber?: number;
  /** one sentence for the model */
  note: string;
  /** the commit the work starts from, for the summary */
  startedFrom?: string;
  /** what the summary should say about where the work went and why */
  notices?: string[];
}

export interface PlanOptions {
  prefix: string;
  runId: string;
  /** the job within the run (`<job>[-<job run>]`), for the names that must differ between a matrix's jobs */
  job?: string;
  /** the open-pr input */
  openPr: boolean;
  pr?: PullRequestRefs;
  /** asks whether a PR's head branch is protected, and the title of an `issue-number` issue */
  github?: GitHubClient;
}

/** What prepareWork needs of the checkout; `fetchCommit` where the git layer offers it. */
type WorkCheckout = Pick<
  Checkout,
  | 'freeBranchName'
  | 'startBranch'
  | 'checkoutRemoteBranch'
  | 'checkoutPullHead'
  | 'currentBranch'
  | 'remoteHasBranch'
  | 'headSha'
> & { fetchCommit?: (sha: string) => Promise<unknown> };

/** Picks the branch and checks it out. Network access uses the credential the Checkout holds. */
export async function prepareWork(
  checkout: WorkCheckout,
  task: Task,
  options: PlanOptions,
): Promise<WorkPlan> {
  if (task.isPullRequest && task.number !== undefined)
    return preparePullWork(checkout, task, task.number, options);
  if (task.workflowRun) return prepareRunFix(checkout, task, options);
  const named =
    task.title === undefined && task.number !== undefined
      ? { ...task, title: await issueTitle(task, options) }
      : task;
  const current = await checkout.currentBranch();
  const prBase = current ?? task.defaultBranch ?? 'main';
  const branch = await checkout.freeBranchName(
    branchNameFor(named, options.prefix, options.runId, options.job),
  );
  await checkout.startBranch(branch);
  return newBranchPlan(
    branch,
    prBase,
    options.openPr,
    task.kind === 'issue' ? task.number : undefined,
    await checkout.headSha().catch(() => undefined),
  );
}

function newBranchPlan(
  branch: string,
  prBase: string,
  openPr: boolean,
  fixes: number | undefined,
  startedFrom?: string,
  notices: string[] = [],
): WorkPlan {
  return {
    mode: 'new-branch',
    branch,
    prBase,
    openPr,
    fixes,
    startedFrom,
    notices,
    note: `Your changes are committed to a new branch \`${branch}\`${openPr ? ` and proposed as a pull request into \`${prBase}\`` : ''}.`,
  };
}

/** A prompt task's issue (`issue-number`) has no title in the event; the branch name wants one. */
async function issueTitle(task: Task, options: PlanOptions): Promise<string | undefined> {
  if (!options.github || task.number === undefined) return undefined;
  return options.github.rest.issues
    .get({ owner: task.owner, repo: task.repo, issue_number: task.number })
    .then((r) => r.data.title)
    .catch(() => undefined);
}

/**
 * A PR's own branch takes the commits only when it is a branch of this repository that is
 * neither the default branch nor protected; otherwise the work goes to a new branch with a PR
 * into that head (into the base for a fork). The reason is given when the branch is not used.
 */
export async function headRefusal(
  task: Task,
  pr: PullRequestRefs,
  github: GitHubClient | undefined,
): Promise<string | undefined> {
  if (pr.fork) return 'it comes from a fork, which cannot be pushed to';
  const defaultBranch = task.defaultBranch;
  if (defaultBranch && pr.headRef === defaultBranch)
    return `its head is the default branch \`${defaultBranch}\``;
  // Without a client only the default-branch rule applies; GitHub itself still refuses a push
  // to a protected branch, which then ends the run with that error.
  if (!github) return undefined;
  try {
    const { data } = await github.rest.repos.getBranch({
      owner: task.owner,
      repo: task.repo,
      branch: pr.headRef,
    });
    if (data.protected) return `its head branch \`${pr.headRef}\` is protected`;
    if (!defaultBranch) {
      // Issue comment payloads name the default branch; others might not.
      const repo = await github.rest.repos.get({ owner: task.owner, repo: task.repo });
      if (repo.data.default_branch === pr.headRef) return `its head is the default branch \`${pr.headRef}\``;
    }
    return undefined;
  } catch (err) {
    return `its head branch \`${pr.headRef}\` could not be checked (${describeGitHubError(err, 'read-contents', 'Reading the branch')})`;
  }
}

async function preparePullWork(
  checkout: WorkCheckout,
  task: Task,
  number: number,
  options: PlanOptions,
): Promise<WorkPlan> {
  const pr = options.pr;
  if (!pr) throw new Error(`The branches of pull request #${number} are unknown.`);
  const refusal = await headRefusal(task, pr, options.github);
  if (refusal === undefined) {
    const sha = await checkoutWithContext(
      () => checkout.checkoutRemoteBranch(pr.headRef),
      `the head branch ${pr.headRef} of #${number}`,
    );
    return {
      mode: 'pr-head',
      branch: pr.headRef,
      prBase: pr.baseRef,
      openPr: false,
      pullNumber: number,
      startedFrom: sha,
      notices: [],
      note: `The workspace is the head branch \`${pr.headRef}\` of pull request #${number}; your changes are committed and pushed onto it.`,
    };
  }
  if (pr.fork && !pr.headSha)
    throw new Error(`The head commit of pull request #${number} is unknown, so its code is not checked out.`);
  const branch = await checkout.freeBranchName(
    branchNameFor(task, options.prefix, options.runId, options.job),
  );
  const sha = await checkoutWithContext(
    () => checkout.checkoutPullHead(number, branch),
    `the head of pull request #${number}`,
  );
  // refs/pull/N/head is fetched now; on a fork its author may have pushed since the request.
  if (pr.fork && sha !== pr.headSha) {
    throw new Error(
      `The head of pull request #${number} is now ${sha.slice(0, 12)}, not ${pr.headSha.slice(0, 12)} as when the request was made. ` +
        'patchloop works only on the commit the requester saw; ask again to work on the new head.',
    );
  }
  const prBase = pr.fork ? pr.baseRef : pr.headRef;
  const at = `${pr.headRepo}:${pr.headRef} at ${sha.slice(0, 12)}`;
  return {
    mode: 'new-branch',
    branch,
    prBase,
    openPr: true,
    pullNumber: number,
    startedFrom: sha,
    notices: [
      `Pull request #${number} was not pushed to: ${refusal}. The work started from ${at} and went to \`${branch}\`, proposed into \`${prBase}\`.`,
    ],
    note: `Pull request #${number} cannot take the commits itself (${refusal}): the workspace holds its head (${sha.slice(0, 12)}), and your changes go to a new branch \`${branch}\` with a pull request into \`${prBase}\`.`,
  };
}

/**
 * A failed run is fixed from the commit that failed, which need not be what the checkout holds
 * (the workflow_run event checks out the default branch). The PR goes to the failed run's branch
 * when origin still has it.
 */
async function prepareRunFix(checkout: WorkCheckout, task: Task, options: PlanOptions): Promise<WorkPlan> {
  const run = task.workflowRun!;
  const notices: string[] = [];
  const current = await checkout.currentBranch();
  let prBase = current ?? task.defaultBranch ?? 'main';
  if (run.headBranch && (await checkout.remoteHasBranch(run.headBranch).catch(() => false)))
    prBase = run.headBranch;
  const branch = await checkout.freeBranchName(
    branchNameFor(task, options.prefix, options.runId, options.job),
  );
  if (!run.headSha) {
    await checkout.startBranch(branch);
    notices.push('The failed run names no commit; the fix starts from the checkout.');
    return newBranchPlan(
      branch,
      prBase,
      options.openPr,
      undefined,
      await checkout.headSha().catch(() => undefined),
      notices,
    );
  }
  const sha = run.headSha;
  if (await startAt(checkout, branch, sha, run.headBranch)) {
    const plan = newBranchPlan(branch, prBase, options.openPr, undefined, sha, notices);
    plan.note = `The workspace is the failed commit ${sha.slice(0, 12)}. ${plan.note}`;
    return plan;
  }
  // The commit is gone (the branch was force-pushed, or GitHub no longer serves it): the tip of
  // the failed branch, or else the checkout, is the closest code there is, and the model is told.
  await checkout.startBranch(branch);
  const from = await checkout.headSha().catch(() => undefined);
  const where = from ? `commit ${from.slice(0, 12)}` : 'the checkout';
  notices.push(
    `The failed commit ${sha.slice(0, 12)} could not be fetched; the fix started from ${where} instead.`,
  );
  const plan = newBranchPlan(branch, prBase, options.openPr, undefined, from, notices);
  plan.note += ` The failed commit ${sha.slice(0, 12)} could not be fetched, so the workspace holds ${where} instead: check that the failure still shows there.`;
  return plan;
}

/**
 * Starts `branch` at `sha`, fetching the commit first when the checkout lacks it; false when it
 * cannot be had. Then HEAD is the failed branch's tip when origin has that branch.
 */
async function startAt(
  checkout: WorkCheckout,
  branch: string,
  sha: string,
  headBranch?: string,
): Promise<boolean> {
  const attempt = async (before?: () => Promise<unknown>): Promise<boolean> => {
    try {
      await before?.();
      await checkout.startBranch(branch, sha);
      return true;
    } catch {
      return false;
    }
  };
  // A shallow checkout, or one of another branch, does not have the commit yet.
  if (await attempt()) return true;
  if (checkout.fetchCommit && (await attempt(() => checkout.fetchCommit!(sha)))) return true;
  return headBranch !== undefined && attempt(() => checkout.checkoutRemoteBranch(headBranch));
}

/** The checkout on the new commit; a failure there is told (the notices returned), the delivery stands. */
async function writeBack(checkout: Checkout, pushed?: { branch: string; sha: string }): Promise<string[]> {
  try {
    await checkout.writeBack(pushed);
    return [];
  } catch (err) {
    return [
      `The checkout was not moved to the new commit: ${err instanceof Error ? err.message : String(err)}`,
    ];
  }
}

async function checkoutWithContext<T>(f: () => Promise<T>, what: string): Promise<T> {
  try {
    return await f();
  } catch (err) {
    const detail =
      err instanceof Error ? err.message.split('\n').filter(Boolean).slice(-2).join(' ') : String(err);
    throw new Error(`Checking out ${what} failed: ${detail}`, { cause: err });
  }
}

export interface Delivery {
  commit?: CommitResult;
  /** changes that were not committed (under .git/, protected, too large, …), with the reason */
  leftOut: LeftOut[];
  push?: Extract<PushResult, { ok: true }>;
  pr?: PullRequestOutcome;
  /** things the summary should say (a moved branch, a forbidden PR) */
  notices: string[];
  /** why the work could not be delivered */
  error?: string;
}

export interface DeliverOptions {
  checkout: Checkout;
  plan: WorkPlan;
  message: string;
  baselineUntracked: readonly string[];
  /** false: commit locally and stop (dry-run) */
  push: boolean;
  /**
   * With `push` false: the push follows in this process (pushAndPropose, which moves the checkout
   * onto the commit then), so the checkout is not moved twice.
   */
  pushFollows?: boolean;
  github?: GitHubClient;
  owner: string;
  repo: string;
  serverUrl: string;
  draft: boolean;
  prTitle: string;
  /** the PR body, rendered once the branch and commit are known */
  prBody: (delivery: Delivery) => string;
  /** cancels the commit and push (their git processes are killed) and skips the PR */
  signal?: AbortSignal;
  /** what is left of the run's budget for staging, commit and push; past it their git processes are killed */
  timeoutMs?: number;
  /** a deadline of the commit alone (a cancelled run's ending gives each step its own) */
  commitSignal?: AbortSignal;
  /** a deadline of the push alone */
  pushSignal?: AbortSignal;
  /** false: no PR is opened whatever the plan says (a cancelled run pushes its branch only) */
  openPr?: boolean;
  /** the branch may have its PR already (a follow-up): look for it before trying to create one */
  prMayExist?: boolean;
  /** called once the commit is made, before the push (a cancelled run posts its summary here) */
  onCommitted?: (delivery: Delivery) => Promise<void>;
  /** called once the push has started (a wait on git and the network that other work can use) */
  whilePushing?: () => void;
  /** told how long each step (commit, push, moving the checkout, PR) took */
  timing?: (step: string, ms: number) => void;
}

async function timed<T>(
  o: Pick<DeliverOptions, 'timing'>,
  step: string,
  work: Promise<T> | (() => Promise<T>),
): Promise<T> {
  const t0 = performance.now();
  try {
    return await (typeof work === 'function' ? work() : work);
  } finally {
    o.timing?.(step, performance.now() - t0);
  }
}

/**
 * Commit, push, PR; then the checkout is left on the branch with the commit (for later workflow
 * steps). Never throws: failures are in `error`, the rest of what happened is kept.
 */
export async function deliverWork(o: DeliverOptions): Promise<Delivery> {
  const out: Delivery = { notices: [], leftOut: [] };
  const signals = [
    ...(o.signal ? [o.signal] : []),
    ...(o.timeoutMs ? [AbortSignal.timeout(o.timeoutMs)] : []),
  ];
  const bounds = signals.length > 0 ? { signal: AbortSignal.any(signals) } : {};
  const commitBounds = o.commitSignal ? { signal: o.commitSignal } : bounds;
  const pushBounds = o.pushSignal ? { signal: o.pushSignal } : bounds;
  try {
    const staged = await timed(o, 'commit', () =>
      o.checkout.commitChanges(o.message, {
        ...commitBounds,
        baselineUntracked: o.baselineUntracked,
      }),
    );
    out.leftOut = staged.leftOut;
    const left = describeLeftOut(staged.leftOut);
    if (left) out.notices.push(left);
    if (!staged.commit) return out;
    out.commit = staged.commit;
  } catch (err) {
    out.error = `The changes could not be committed: ${err instanceof Error ? err.message : String(err)}`;
    return out;
  }
  if (o.onCommitted) await o.onCommitted(out).catch(() => undefined);
  if (!o.push || pushBounds.signal?.aborted) {
    if (!o.pushFollows) out.notices.push(...(await writeBack(o.checkout)));
    return out;
  }
  return pushAndPropose(o, out, pushBounds);
}

/**
 * The push and the PR of deliverWork, for a commit already made (HEAD of the checkout's private
 * git dir): `stage: deliver` applies an agent stage's commit through this same path.
 */
export async function pushAndPropose(
  o: DeliverOptions,
  out: Delivery,
  bounds: { signal?: AbortSignal } = o.signal ? { signal: o.signal } : {},
): Promise<Delivery> {
  const pushing = timed(o, 'push', o.checkout.push(o.plan.branch, bounds));
  o.whilePushing?.();
  const pushed = await pushing;
  // Moving the checkout onto the commit is local and the PR is GitHub's: the two go together, and
  // the delivery is told once both are over (a failure of either leaves the other done).
  const movedBack = timed(
    o,
    'checkout moved to the commit',
    writeBack(o.checkout, pushed.ok ? pushed : undefined),
  );
  try {
    return await proposeWork(o, out, pushed);
  } finally {
    // whatever the PR's fate (even a throw), the checkout's move is over before the delivery is
    out.notices.push(...(await movedBack));
  }
}

async function proposeWork(o: DeliverOptions, out: Delivery, pushed: PushResult): Promise<Delivery> {
  if (!pushed.ok) {
    out.error = pushed.error;
    return out;
  }
  out.push = pushed;
  let prBase = o.plan.prBase;
  let openPr = o.plan.openPr;
  const prAllowed = o.openPr !== false;
  if (pushed.movedFrom) {
    out.notices.push(
      `\`${pushed.movedFrom}\` moved on and the work did not rebase cleanly onto it, so it went to \`${pushed.branch}\`.`,
    );
    if (o.plan.mode === 'pr-head') {
      // The PR's branch could not take the work: propose it to that branch instead.
      prBase = pushed.movedFrom;
      openPr = true;
    }
  }
  if (pushed.rebased)
    out.notices.push(`\`${pushed.branch}\` had moved on; the work was rebased onto it before the push.`);
  if (openPr && prAllowed && o.github) {
    out.pr = await timed(
      o,
      'pull request',
      openPullRequest(o.github, {
        owner: o.owner,
        repo: o.repo,
        head: pushed.branch,
        base: prBase,
        title: o.prTitle,
        body: o.prBody(out),
        draft: o.draft,
        serverUrl: o.serverUrl,
        ...(o.prMayExist ? { mayExist: true } : {}),
      }),
    );
    if (out.pr.kind === 'forbidden' || out.pr.kind === 'failed') {
      out.notices.push(`${out.pr.message} Compare: ${out.pr.compareUrl}`);
    }
  }
  return out;
}
