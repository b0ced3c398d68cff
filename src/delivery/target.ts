// Where a delivered run's work may go, derived by the deliver job from the event it runs for and
// from GitHub, never taken from the delivery plan (a compromised agent job writes the plan). The
// plan's claim is compared with it: a branch the task does not lead to is refused, so the push,
// the PR and the follow-up marker the deliver job writes name only a branch this task owns.
import { branchNameFor, cleanPrefix } from '../git/branch-name.js';
import { headRefusal } from '../github/delivery/delivery.js';
import { findEarlierComment, loadEarlierSession, workflowPathOf } from '../github/follow-up/follow-up.js';
import { tokenLogin } from '../github/identity.js';
import { statusOf } from '../github/octokit.js';
import type { IssueComment, TaskContext } from '../github/context/context.js';
import { DeliveryCheckError } from '../github/delivery/delivery-artifact.js';
import type { GitHubClient } from '../github/octokit.js';
import type { Task } from '../github/context/task.js';
import { join } from 'node:path';

/** What the deliver job knows itself, from its own event, inputs and GitHub: where the target comes from. */
export interface TargetSource {
  task: Task;
  github: GitHubClient;
  inputs: { branchPrefix: string; openPr: boolean; continueSession: boolean };
  env: NodeJS.ProcessEnv;
  contextReady: Promise<TaskContext>;
  runner: { runId: string; serverUrl: string; repository: string };
  /** this job's session (never taken for the earlier one) */
  sessionId: string;
  commentsListed?: Promise<readonly IssueComment[]>;
  /** where an earlier transcript is unpacked */
  dir: string;
}

export interface Target {
  /** `pr-head`: the PR's own head branch; `new-branch`: a branch of this task's own */
  mode: 'pr-head' | 'new-branch';
  branch: string;
  /** the branches a PR may be proposed into (the plan's choice must be one of them) */
  prBases: string[];
  openPr: boolean;
  pullNumber?: number;
  /** the earlier session's branch is continued */
  followUp: boolean;
}

/** What the deliver job needs of the plan's claim. */
export interface Claim {
  branch: string;
  prBase: string;
}

const fail = (message: string) => new DeliveryCheckError('branch', message);

/**
 * The branch the work goes to: the PR's head (same rules as the agent's plan), the earlier session's
 * branch (confirmed by the deliver job itself), or a fresh branch named from the task — that name
 * or that name with `-N`, and then one origin does not have yet. `agentJob` is the agent job's key
 * (from its artifact's name), for the branch of a prompt task.
 */
export async function deriveTarget(
  s: TargetSource,
  claim: Claim,
  agentJob: string | undefined,
): Promise<Target> {
  const { task, inputs } = s;
  const prefix = cleanPrefix(inputs.branchPrefix);
  const defaultBranch = await defaultBranchOf(s);
  const here = [defaultBranch, ...refBranch(s.env)];
  let prBases = here;
  let openPr = inputs.openPr;
  let pullNumber: number | undefined;
  let followable = true;
  if (task.isPullRequest && task.number !== undefined) {
    const pr = (await s.contextReady).pr;
    if (!pr) throw fail(`the branches of pull request #${task.number} are unknown`);
    pullNumber = task.number;
    const refusal = await headRefusal({ ...task, defaultBranch }, pr, s.github);
    if (refusal === undefined) {
      if (claim.branch !== pr.headRef)
        throw fail(
          `\`${claim.branch}\` is not the head branch \`${pr.headRef}\` of pull request #${task.number}, where this task's work goes`,
        );
      return {
        mode: 'pr-head',
        branch: pr.headRef,
        prBases: [pr.baseRef],
        openPr: false,
        pullNumber,
        followUp: false,
      };
    }
    if (claim.branch === pr.headRef)
      throw fail(`pull request #${task.number} may not be pushed to: ${refusal}`);
    prBases = [pr.fork ? pr.baseRef : pr.headRef];
    openPr = true;
    followable = pr.fork;
  } else if (task.workflowRun) {
    followable = false;
    const head = task.workflowRun.headBranch;
    if (head) prBases = [head, ...here];
  }
  if (!prBases.includes(claim.prBase))
    throw fail(
      `a pull request into \`${claim.prBase}\` is not one this task proposes (${prBases.join(', ')})`,
    );
  const base = { mode: 'new-branch' as const, prBases: [claim.prBase], openPr, followUp: false };
  const target = { ...base, ...(pullNumber !== undefined ? { pullNumber } : {}) };
  if (followable) {
    const earlier = await earlierBranch(s, prefix);
    if (earlier !== undefined && claim.branch === earlier)
      return { ...target, branch: earlier, followUp: true };
  }
  const named =
    task.title === undefined && task.number !== undefined ? { ...task, title: await issueTitle(s) } : task;
  const fresh = branchNameFor(named, prefix, s.runner.runId, agentJob);
  const escaped = fresh.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (!new RegExp(`^${escaped}(-[2-9]|-[1-9][0-9]{1,5})?$`).test(claim.branch))
    throw fail(
      `\`${claim.branch}\` is not a branch this task leads to (\`${fresh}\` or a continued session's)`,
    );
  if (await onOrigin(s, claim.branch))
    throw fail(`\`${claim.branch}\` is already on origin; this task's new branch would not be`);
  return { ...target, branch: claim.branch };
}

async function defaultBranchOf(s: TargetSource): Promise<string> {
  const { task } = s;
  return (
    task.defaultBranch ??
    (await s.github.rest.repos.get({ owner: task.owner, repo: task.repo })).data.default_branch
  );
}

/** The branch the workflow ran on (what actions/checkout checks out), when it ran on one. */
function refBranch(env: NodeJS.ProcessEnv): string[] {
  const ref = env.GITHUB_REF ?? '';
  return ref.startsWith('refs/heads/') ? [ref.slice('refs/heads/'.length)] : [];
}

async function onOrigin(s: TargetSource, branch: string): Promise<boolean> {
  try {
    await s.github.rest.repos.getBranch({ owner: s.task.owner, repo: s.task.repo, branch });
    return true;
  } catch (err) {
    if (statusOf(err) === 404) return false;
    throw fail(`\`${branch}\` could not be looked up on origin: ${(err as Error).message}`);
  }
}

async function issueTitle(s: TargetSource): Promise<string | undefined> {
  const { task } = s;
  return s.github.rest.issues
    .get({ owner: task.owner, repo: task.repo, issue_number: task.number! })
    .then((r) => r.data.title)
    .catch(() => undefined);
}

/**
 * The earlier session's branch, as the agent job would have found it: the latest marked comment by
 * this token's identity, its run confirmed as one of this workflow's (follow-up.ts); undefined when
 * there is none, it is not confirmed, or it is not a branch under the prefix.
 */
async function earlierBranch(s: TargetSource, prefix: string): Promise<string | undefined> {
  const { task, inputs } = s;
  if (!inputs.continueSession || task.mode === 'review' || task.number === undefined || !prefix)
    return undefined;
  const botLogin = await tokenLogin(s.github).catch(() => undefined);
  if (!botLogin) return undefined;
  const comment = await findEarlierComment(
    s.github,
    {
      owner: task.owner,
      repo: task.repo,
      issueNumber: task.number,
      botLogin,
      ownSessionId: s.sessionId,
      pullRequest: task.isPullRequest,
    },
    s.commentsListed,
  ).catch(() => undefined);
  if (!comment) return undefined;
  const earlier = await loadEarlierSession(s.github, comment, {
    owner: task.owner,
    repo: task.repo,
    serverUrl: s.runner.serverUrl,
    workflowPath: workflowPathOf(s.env.GITHUB_WORKFLOW_REF, s.runner.repository),
    dest: join(s.dir, 'earlier'),
  });
  const b = earlier.branch;
  return b && b.startsWith(prefix) && /^[A-Za-z0-9._/-]+$/.test(b) && !b.includes('..') ? b : undefined;
}
