// Where a run's work goes (CONTRACT §4) and getting it there: the branch is prepared before the
// agent starts, the commit, push and PR happen after it ends.
import { branchNameFor } from './branch-name.js';
import type { PullRequestRefs, Task } from './task.js';
import type { Checkout, CommitResult, PushResult } from './git.js';
import type { GitHubClient } from './octokit.js';
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
}

export interface PlanOptions {
  prefix: string;
  runId: string;
  /** the open-pr input */
  openPr: boolean;
  pr?: PullRequestRefs;
}

/** Picks the branch and checks it out. Network access uses the credential the Checkout holds. */
export async function prepareWork(checkout: Checkout, task: Task, options: PlanOptions): Promise<WorkPlan> {
  const delivered = 'Do not run git commit or git push yourself.';
  if (task.isPullRequest && task.number !== undefined) {
    const pr = options.pr;
    if (!pr) throw new Error(`The branches of pull request #${task.number} are unknown.`);
    if (!pr.fork) {
      await checkoutWithContext(
        () => checkout.checkoutRemoteBranch(pr.headRef),
        `the head branch ${pr.headRef} of #${task.number}`,
      );
      return {
        mode: 'pr-head',
        branch: pr.headRef,
        prBase: pr.baseRef,
        openPr: false,
        pullNumber: task.number,
        note: `The workspace is the head branch \`${pr.headRef}\` of pull request #${task.number}; your changes are committed and pushed onto it. ${delivered}`,
      };
    }
    const branch = await checkout.freeBranchName(branchNameFor(task, options.prefix, options.runId));
    await checkoutWithContext(
      () => checkout.checkoutPullHead(task.number!, branch),
      `the head of pull request #${task.number}`,
    );
    return {
      mode: 'new-branch',
      branch,
      prBase: pr.baseRef,
      openPr: true,
      pullNumber: task.number,
      note: `Pull request #${task.number} comes from a fork, which cannot be pushed to: the workspace holds its head, and your changes go to a new branch \`${branch}\` with a pull request into \`${pr.baseRef}\`. ${delivered}`,
    };
  }
  const current = await checkout.currentBranch();
  let prBase = current ?? task.defaultBranch ?? 'main';
  if (
    task.workflowRun?.headBranch &&
    (await checkout.remoteHasBranch(task.workflowRun.headBranch).catch(() => false))
  ) {
    prBase = task.workflowRun.headBranch;
  }
  const branch = await checkout.freeBranchName(branchNameFor(task, options.prefix, options.runId));
  await checkout.startBranch(branch);
  const openPr = options.openPr;
  return {
    mode: 'new-branch',
    branch,
    prBase,
    openPr,
    fixes: task.kind === 'issue' ? task.number : undefined,
    note: `Your changes are committed to a new branch \`${branch}\`${openPr ? ` and proposed as a pull request into \`${prBase}\`` : ''}. ${delivered}`,
  };
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
  github?: GitHubClient;
  owner: string;
  repo: string;
  serverUrl: string;
  draft: boolean;
  prTitle: string;
  /** the PR body, rendered once the branch and commit are known */
  prBody: (delivery: Delivery) => string;
  /** cancels the push (the git process is killed) and skips the PR */
  signal?: AbortSignal;
}

/** Commit, push, PR. Never throws: failures are in `error`, the rest of what happened is kept. */
export async function deliverWork(o: DeliverOptions): Promise<Delivery> {
  const out: Delivery = { notices: [] };
  try {
    const commit = await o.checkout.commitChanges(o.message, o.baselineUntracked);
    if (!commit) return out;
    out.commit = commit;
  } catch (err) {
    out.error = `The changes could not be committed: ${err instanceof Error ? err.message : String(err)}`;
    return out;
  }
  if (!o.push || o.signal?.aborted) return out;
  const pushed = await o.checkout.push(o.plan.branch, o.signal);
  if (!pushed.ok) {
    out.error = pushed.error;
    return out;
  }
  out.push = pushed;
  let prBase = o.plan.prBase;
  let openPr = o.plan.openPr;
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
  if (openPr && o.github) {
    out.pr = await openPullRequest(o.github, {
      owner: o.owner,
      repo: o.repo,
      head: pushed.branch,
      base: prBase,
      title: o.prTitle,
      body: o.prBody(out),
      draft: o.draft,
      serverUrl: o.serverUrl,
    });
    if (out.pr.kind === 'forbidden' || out.pr.kind === 'failed') {
      out.notices.push(`${out.pr.message} Compare: ${out.pr.compareUrl}`);
    }
  }
  return out;
}
