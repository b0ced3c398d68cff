// What the phases of one action run share: its inputs and environment, the pieces built as it
// goes (comment, checkout, sandbox, transcript), and the notices the summary gives.
import * as core from './runner-commands.js';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentResult } from '../agent/index.js';
import type { TrackingComment } from '../github/comment.js';
import type { IssueComment, TaskContext } from '../github/context/context.js';
import type { Delivery, WorkPlan } from '../github/delivery/delivery.js';
import type { EarlierSession } from '../github/follow-up/follow-up.js';
import type { GitHubClient } from '../github/octokit.js';
import type { Task } from '../github/context/task.js';
import type { CheckoutCredential, GitRepo } from '../git/index.js';
import { createRedactor } from '../protocol/redact.js';
import type { TranscriptWriter } from '../protocol/transcript.js';
import type { Provider } from '../providers/types.js';
import type { SandboxSetup } from '../sandbox/index.js';
import type { DraftComment } from '../tools/add-review-comment.js';
import type { ReviewDraft } from '../delivery/plan.js';
import type { QuietReview } from '../github/review/review-history.js';
import type { ReviewScope } from '../github/review/review-scope.js';
import { emptyReads, type ReviewCoverage, type ReviewReads } from '../github/review/review-pages.js';
import type { AnswerSchema } from '../tools/answer-schema.js';
import type { ActionInputs } from './inputs.js';
import type { JoinedRequest } from './join.js';
import { createActionsLog } from './log.js';
import { runUrlOf, type RunnerEnv } from './runner-env.js';

export type Conclusion =
  | 'success'
  | 'no-changes'
  | 'failure'
  | 'cancelled'
  | 'skipped'
  | 'unauthorized'
  | 'budget-exceeded'
  | 'planned';

/** The approval of a plan (CONTRACT §13): who, when, and which plan (the session it continues). */
export interface Approval {
  by: string;
  at: string;
  plan: { runId: string; sessionId: string; runUrl: string; commentUrl: string };
}

/** How a run ended, for publishing. */
export interface FinishInput {
  conclusion: Conclusion;
  result?: AgentResult;
  plan?: WorkPlan;
  delivery?: Delivery;
  error?: string;
  provider?: Provider;
  transcriptLocation?: string;
}

/** Milestones of the start-up in the debug log (ACTIONS_STEP_DEBUG), in ms since the process started. */
export function mark(label: string): void {
  core.debug(`patchloop: ${label} at ${Math.round(performance.now())} ms`);
}

export interface RunStateInit {
  inputs: ActionInputs;
  runner: RunnerEnv;
  task: Task;
  github: GitHubClient;
  credentialReady: Promise<CheckoutCredential>;
  secrets: string[];
  requesterLevel: string;
  env: NodeJS.ProcessEnv;
  /** the task's context, read beside the permission check (see startUp) */
  contextReady: Promise<TaskContext>;
  /** the issue's comments, one listing for the context and the earlier session's marker */
  commentsListed?: Promise<readonly IssueComment[]>;
  /** the compiled `output-schema`, when one was given */
  answerSchema?: AnswerSchema;
  /** an automatic review's sticky summary and earlier review (CONTRACT §9, quiet reviews) */
  quiet?: QuietReview;
}

export class RunState {
  readonly started = Date.now();
  readonly inputs: ActionInputs;
  readonly runner: RunnerEnv;
  readonly task: Task;
  readonly github: GitHubClient;
  readonly credentialReady: Promise<CheckoutCredential>;
  readonly secrets: string[];
  readonly requesterLevel: string;
  readonly env: NodeJS.ProcessEnv;
  readonly contextReady: Promise<TaskContext>;
  /** listed again when a run waited for another (joining): the earlier session's marker is read from it */
  commentsListed?: Promise<readonly IssueComment[]>;
  readonly answerSchema?: AnswerSchema;
  /** the last valid answer given to submit_answer (CONTRACT §9) */
  answer?: { value: unknown };
  /** the pull-request review a review run posted (CONTRACT §9) */
  reviewUrl?: string;
  /** the inline comments a review run's model drafted, posted together at the end */
  readonly reviewDrafts: DraftComment[] = [];
  /** the review written down, posted when the delivery plan is applied (by the deliver job in two stages) */
  reviewDraft?: ReviewDraft;
  /** an automatic review's sticky summary and earlier review (CONTRACT §9, quiet reviews) */
  readonly quiet?: QuietReview;
  /** what a review run read of diffs it was not shown (read_diff) and of files without one */
  readonly reviewReads: ReviewReads = emptyReads();
  /** what a review run reviewed: the whole PR, or the commits since patchloop's last review */
  reviewScope?: ReviewScope;
  /** which of the reviewed files' diffs were read, once the review is done */
  reviewCoverage?: ReviewCoverage;
  readonly runUrl: string;
  /** `$RUNNER_TEMP/patchloop/<run>`: the transcript, saved outputs, a downloaded earlier transcript */
  readonly dir: string;
  readonly transcriptPath: string;
  /** `<run id>-<attempt>[-<issue>]`: the transcript's session id */
  readonly sessionId: string;
  readonly notices: string[] = [];
  readonly log = createActionsLog({ redact: (t) => this.redact(t) });
  comment?: TrackingComment;
  repo?: GitRepo;
  sandbox?: SandboxSetup;
  transcript?: TranscriptWriter;
  artifactUrl?: string;
  artifactName?: string;
  artifactId?: number;
  /** the session this run continues (following up), when there is one */
  earlier?: EarlierSession;
  /** an `approve` run's approval of the plan it continues */
  approval?: Approval;
  /** the requests written while the run worked that joined its session (CONTRACT §13) */
  readonly joined: JoinedRequest[] = [];
  /**
   * What the run has done so far (the plan, the agent's result, the delivery), so an ending
   * brought about by an unexpected error still tells it rather than zeros.
   */
  readonly outcome: Omit<FinishInput, 'conclusion'> = {};
  /** the summary being published (publishing happens once) */
  finishing?: Promise<number>;
  /** an early summary edit still on its way (a cancelled run's, before its push) */
  commentWrite?: Promise<void>;
  redact: (text: string) => string;

  constructor(o: RunStateInit) {
    this.inputs = o.inputs;
    this.runner = o.runner;
    this.task = o.task;
    this.github = o.github;
    this.credentialReady = o.credentialReady;
    this.secrets = o.secrets;
    this.requesterLevel = o.requesterLevel;
    this.env = o.env;
    this.contextReady = o.contextReady;
    if (o.commentsListed) this.commentsListed = o.commentsListed;
    if (o.quiet) this.quiet = o.quiet;
    if (o.answerSchema) this.answerSchema = o.answerSchema;
    this.runUrl = runUrlOf(o.runner);
    this.redact = createRedactor(o.secrets);
    this.dir = join(o.runner.runnerTemp, 'patchloop', o.runner.runId);
    const n = o.task.number !== undefined ? `-${o.task.number}` : '';
    this.transcriptPath = join(this.dir, `transcript${n}.jsonl`);
    this.sessionId = `${o.runner.runId}-${o.runner.runAttempt}${n}`;
  }

  /** Values learnt after start-up (an MCP server's env and headers): masked in the log, redacted everywhere. */
  addSecrets(values: readonly string[]): void {
    const fresh = values.filter((v) => v !== '' && !this.secrets.includes(v));
    if (fresh.length === 0) return;
    for (const v of fresh) core.setSecret(v);
    this.secrets.push(...fresh);
    const before = this.redact;
    const more = createRedactor(fresh);
    this.redact = (text) => more(before(text));
  }

  notice(message: string): void {
    const clean = this.redact(message);
    this.notices.push(clean);
    core.warning(`patchloop: ${clean}`);
  }

  /**
   * Where run_tests and bash save a full output they cut: a folder of its own, readable by the
   * commands and the file tools, apart from the transcript.
   */
  outputsDir(): string {
    const dir = join(this.dir, 'outputs');
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    return dir;
  }
}
