// Following up (CONTRACT §5): the work goes on the earlier run's branch, new commits on top, so
// the PR it opened is updated rather than a second one opened. A same-repository PR keeps the
// rule of prepareWork (commits on its own head). A fork PR goes on the earlier branch too: when
// the fork's head moved since the earlier run, the head pinned at the request (never whatever the
// fork holds now) is merged into that branch first, and only a merge that conflicts sends the
// work to a branch of its own from the pinned head, as on a first run.
import type { Task } from '../github/context/task.js';
import { prepareWork, type PlanOptions, type WorkPlan } from '../github/delivery/delivery.js';
import { MergeRecoveryError, type GitRepo } from '../git/index.js';

/** A branch fetched ahead of the plan (prefetchBranch), and whether origin had it. */
export interface Prefetched {
  branch: string;
  fetched: boolean;
}

/** Only a branch of patchloop's own: a marker names it, and a branch name reaches git. */
async function ownBranch(work: GitRepo, branch: string, prefix: string): Promise<boolean> {
  return branch.startsWith(prefix) && !branch.startsWith('-') && (await work.isValidBranchName(branch));
}

/** Fetches the earlier run's branch before the plan needs it; undefined when it is not one of ours. */
async function prefetchBranch(
  work: GitRepo,
  branch: string,
  prefix: string,
): Promise<Prefetched | undefined> {
  if (!(await ownBranch(work, branch, prefix).catch(() => false))) return undefined;
  const fetched = await work.fetchRemoteBranch(branch).then(
    () => true,
    () => false,
  );
  return { branch, fetched };
}

/**
 * The earlier run's branch, fetched ahead of the plan: from the first marker that names one (a
 * guess, before this run's comment confirms whose markers count) as soon as the checkout is ready
 * for git, and never once the plan's own git work has begun. The plan takes what was fetched and
 * uses it only for the branch it settles on.
 */
export class BranchPrefetch {
  private work?: GitRepo;
  private branch?: string;
  private fetch?: Promise<Prefetched | undefined>;
  private closed = false;

  constructor(private readonly prefix: string) {}

  /** A marker names `branch` (the first one counts). */
  guess(branch: string | undefined): void {
    this.branch ??= branch;
    this.start();
  }

  /** The checkout is ready for git. */
  checkoutReady(work: GitRepo): void {
    this.work = work;
    this.start();
  }

  /** The plan begins: no fetch starts from now on, and the one started is waited for. */
  take(): Promise<Prefetched | undefined> {
    this.closed = true;
    return this.fetch ?? Promise.resolve(undefined);
  }

  private start(): void {
    if (this.closed || this.fetch || !this.work || !this.branch) return;
    this.fetch = prefetchBranch(this.work, this.branch, this.prefix);
  }
}

/** What the plan needs of the earlier session: its branch, and (fork PRs) the head it started from. */
export interface EarlierWork {
  branch: string | undefined;
  /** the earlier transcript's `pullHead`, once it is read (undefined when it could not be had) */
  pullHead(): Promise<unknown>;
}

export async function followUpPlan(
  work: GitRepo,
  task: Task,
  earlier: EarlierWork,
  options: PlanOptions,
  prefetched?: Prefetched,
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
  const ahead = prefetched?.branch === branch ? prefetched : undefined;
  if (!ahead && !(await ownBranch(work, branch, options.prefix)))
    return fresh(`it is not a \`${options.prefix}\` branch`);
  // One fetch says whether origin still has it and brings it (no ls-remote before it); it was
  // made ahead when the marker was first seen.
  const fetched =
    ahead?.fetched ??
    (await work.fetchRemoteBranch(branch).then(
      () => true,
      () => false,
    ));
  if (!fetched) return fresh('origin no longer has it');
  if (pr?.fork) {
    // A fork's code is worked on only at the head the requester saw: the earlier branch holds the
    // head the earlier run started from, and when the fork moved on since, the pinned head is
    // merged into it.
    const earlierHead = await earlier.pullHead();
    const sha = await work.checkoutFetchedBranch(branch);
    const onBranch = (startedFrom: string, note: string, notices: string[] = []): WorkPlan => ({
      mode: 'new-branch',
      branch,
      prBase: pr.baseRef,
      openPr: true,
      pullNumber: task.number,
      startedFrom,
      notices,
      note: `This session continues on the branch \`${branch}\` where the earlier run committed its work on pull request #${task.number} (which comes from a fork, so it cannot be pushed to)${note}; your changes are committed on top of it, and its pull request into \`${pr.baseRef}\` is updated.`,
    });
    if (earlierHead === pr.headSha) return onBranch(sha, '');
    return mergeForkHead(work, task, { branch, sha, earlierHead, headSha: pr.headSha }, fresh, onBranch);
  }
  const prBase = (await work.currentBranch()) ?? task.defaultBranch ?? 'main';
  const sha = await work.checkoutFetchedBranch(branch);
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

/**
 * The fork moved on since the earlier run (or what it was then is not known): its head as pinned
 * at the request is fetched and merged into the earlier branch with a merge commit. A merge that
 * conflicts is aborted, and the work goes to a branch of its own from that head instead. The
 * merge runs in patchloop's private git dir, so the checkout is then left on its result.
 */
async function mergeForkHead(
  work: GitRepo,
  task: Task,
  at: { branch: string; sha: string; earlierHead: unknown; headSha: string },
  fresh: (why: string) => Promise<WorkPlan>,
  onBranch: (startedFrom: string, note: string, notices?: string[]) => WorkPlan,
): Promise<WorkPlan> {
  const { branch, sha, headSha } = at;
  const short = headSha.slice(0, 12);
  const moved =
    typeof at.earlierHead === 'string'
      ? `the fork moved on since (${at.earlierHead.slice(0, 12)} then, ${short} now)`
      : 'the head of the fork it started from is not known';
  try {
    await work.fetchCommit(headSha);
  } catch (err) {
    return fresh(`${moved}, and the fork's head ${short} could not be fetched (${gist(err)})`);
  }
  const message = [
    `Merge the head ${short} of pull request #${task.number} into ${branch}`,
    '',
    `The pull request's fork moved on since patchloop's earlier work on #${task.number}; its head`,
    `as of the new request is merged here, so the work continues on this branch.`,
  ].join('\n');
  let merge;
  try {
    merge = await work.mergeCommit(headSha, message);
  } catch (err) {
    // A merge that could not be undone leaves a tree no plan may start from: the run stops.
    if (err instanceof MergeRecoveryError) throw err;
    const plan = await fresh(
      `${moved}, and merging the fork's new head ${short} into it failed (${gist(err)})`,
    );
    await work.writeBack();
    return plan;
  }
  if (!merge.merged) {
    const files = merge.conflicts.slice(0, 5).map((f) => `\`${f.replace(/[`\s]+/g, ' ')}\``);
    const more = merge.conflicts.length > 5 ? ` and ${merge.conflicts.length - 5} more` : '';
    const plan = await fresh(
      `${moved}, and the fork's new head ${short} could not be merged into it without conflicts (in ${files.join(', ')}${more})`,
    );
    await work.writeBack();
    return plan;
  }
  // The branch holds that head already: nothing was merged.
  if (merge.sha === sha) return onBranch(sha, '');
  await work.writeBack();
  return onBranch(
    merge.sha,
    `, and which now includes the fork's new head ${short}: the pull request's head as of this request was merged into the branch (merge commit ${merge.sha.slice(0, 12)})`,
    [
      `The head ${short} of pull request #${task.number} was merged into the earlier run's branch \`${branch}\` (${moved}), and the work continued there.`,
    ],
  );
}

function gist(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n').filter(Boolean).slice(-2).join(' ');
}
