// Following up (CONTRACT §5): the work goes on the earlier run's branch, new commits on top, so
// the PR it opened is updated rather than a second one opened. A same-repository PR keeps the
// rule of prepareWork (commits on its own head); a fork PR goes on the earlier branch only while
// the fork's head is still the one that branch started from, else it gets the fork rules afresh
// (a branch of its own from the pinned head).
import type { Task } from '../github/task.js';
import { prepareWork, type PlanOptions, type WorkPlan } from '../github/delivery.js';
import type { EarlierSession } from '../github/follow-up.js';
import type { GitRepo } from '../git/index.js';

export async function followUpPlan(
  work: GitRepo,
  task: Task,
  earlier: EarlierSession,
  options: PlanOptions,
): Promise<WorkPlan> {
  const branch = earlier.branch;
  const pr = options.pr;
  // A same-repository PR takes the commits on its own head, as on a first run.
  if ((task.isPullRequest && !pr?.fork) || task.workflowRun || !branch)
    return prepareWork(work, task, options);
  const fresh = async (why: string): Promise<WorkPlan> => {
    const plan = await prepareWork(work, task, options);
    plan.notices = [...(plan.notices ?? []), `The earlier run's branch \`${branch}\` was not used: ${why}.`];
    return plan;
  };
  // Only a branch of patchloop's own: a marker names it, and a branch name reaches git.
  if (!branch.startsWith(options.prefix) || branch.startsWith('-') || !(await work.isValidBranchName(branch)))
    return fresh(`it is not a \`${options.prefix}\` branch`);
  if (!(await work.remoteHasBranch(branch).catch(() => false))) return fresh('origin no longer has it');
  if (pr?.fork) {
    // A fork's code is worked on only at the head the requester saw: the earlier branch holds the
    // head the earlier run started from, so it is used only while the fork has not moved since.
    const earlierHead = earlier.transcript?.session?.pullHead;
    if (earlierHead !== pr.headSha)
      return fresh(
        earlierHead === undefined
          ? 'the head of the fork it started from is not known'
          : `the fork moved on since (${String(earlierHead).slice(0, 12)} then, ${pr.headSha.slice(0, 12)} now)`,
      );
    const sha = await work.checkoutRemoteBranch(branch);
    return {
      mode: 'new-branch',
      branch,
      prBase: pr.baseRef,
      openPr: true,
      pullNumber: task.number,
      startedFrom: sha,
      notices: [],
      note: `This session continues on the branch \`${branch}\` where the earlier run committed its work on pull request #${task.number} (which comes from a fork, so it cannot be pushed to); your changes are committed on top of it, and its pull request into \`${pr.baseRef}\` is updated.`,
    };
  }
  const prBase = (await work.currentBranch()) ?? task.defaultBranch ?? 'main';
  const sha = await work.checkoutRemoteBranch(branch);
  return {
    mode: 'new-branch',
    branch,
    prBase,
    openPr: options.openPr,
    fixes: task.kind === 'issue' ? task.number : undefined,
    startedFrom: sha,
    notices: [],
    note: `This session continues on the branch \`${branch}\` where the earlier run committed its work (now at ${sha.slice(0, 12)}); your changes are committed on top of it${options.openPr ? `, and its pull request into \`${prBase}\` is updated` : ''}.`,
  };
}
