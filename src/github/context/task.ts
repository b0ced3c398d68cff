// What one run is asked to do, as read from the GitHub event. Plain data, no I/O.

export type TaskKind = 'issue' | 'pr' | 'review-comment' | 'review' | 'workflow-run' | 'prompt';

export interface Actor {
  login: string;
  /** `User`, `Bot`, `Organization` as GitHub reports it */
  type: string;
  /** numeric account id, for the noreply address of `Co-authored-by:` */
  id?: number;
}

/** What made the run start, where the `eyes` reaction goes. */
export type TriggerSource =
  | { kind: 'issue-comment'; id: number; body: string; createdAt: string; url?: string }
  | { kind: 'review-comment'; id: number; body: string; createdAt: string; url?: string }
  | { kind: 'review'; id: number; body: string; createdAt: string; url?: string }
  | { kind: 'issue-body'; body: string; createdAt: string }
  | { kind: 'label'; label: string; createdAt: string }
  | { kind: 'workflow-run'; createdAt: string }
  /** a `pull_request`/`pull_request_target` event (opened, synchronize, …) of a review run */
  | { kind: 'pull-request'; action: string; createdAt: string; url?: string }
  | { kind: 'prompt'; createdAt: string };

export interface PullRequestRefs {
  headRef: string;
  /**
   * The head commit when the request was made: the event's own snapshot for review events, the
   * timeline's answer for a comment. The work starts from exactly this commit, never from
   * whatever the branch holds when the job runs.
   */
  headSha: string;
  /** the base branch's commit as the event or the API reported it */
  baseSha?: string;
  /** owner/name of the repository the head branch lives in */
  headRepo: string;
  baseRef: string;
  /** true when the head branch is in another repository (a fork): we cannot push there */
  fork: boolean;
}

export interface ReviewLocation {
  path: string;
  line?: number;
  startLine?: number;
  side?: string;
  diffHunk: string;
  commitId?: string;
  /** the first comment of the thread when the trigger is a reply */
  inReplyTo?: number;
}

export interface WorkflowRunInfo {
  id: number;
  attempt?: number;
  name: string;
  conclusion: string;
  headBranch?: string;
  headSha?: string;
  url?: string;
}

export interface Task {
  kind: TaskKind;
  /** GITHUB_EVENT_NAME */
  event: string;
  owner: string;
  repo: string;
  /** the repository's default branch, as the payload names it */
  defaultBranch?: string;
  /** issue or PR number when the run belongs to one */
  number?: number;
  isPullRequest: boolean;
  title?: string;
  /** issue or PR body as it was when the event fired */
  body?: string;
  trigger: TriggerSource;
  /** who asked; undefined when nobody did (a schedule) */
  requester?: Actor;
  /** the request itself: the triggering comment, the issue body, the prompt */
  request: string;
  /** the `prompt` input, when set, added to any task */
  prompt?: string;
  /** set for a `prompt` task about an issue (the `issue-number` input): its title and body are read from GitHub */
  issueFromInput?: boolean;
  pr?: PullRequestRefs;
  /**
   * `review`: review the pull request, change nothing (CONTRACT §9) — from `mode: review` or a
   * request that begins with the word "review". Absent: fix.
   */
  mode?: 'review';
  /**
   * Plan and approve (CONTRACT §13). `plan`: read-only tools, the run ends with a plan (conclusion
   * `planned`) — from a request that begins with the word "plan", or any write run under
   * `require-approval`. `approve`: a request that begins with "approve", which continues the
   * planned session with the write tools. Absent: an ordinary run.
   */
  intent?: 'plan' | 'approve';
  /** what a review request asks to look at (the words after "review"), when it says */
  reviewFocus?: string;
  review?: ReviewLocation;
  workflowRun?: WorkflowRunInfo;
}

export type TaskDecision = { run: true; task: Task } | { run: false; reason: string };
