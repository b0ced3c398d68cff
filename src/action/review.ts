// A review run (CONTRACT §9) in the action: the tools it gets (the read-only ones, run_tests and
// add_review_comment; nothing that writes) and, in place of commit and push, the one review posted
// at the end.
import type { AgentResult } from '../agent/index.js';
import type { TaskContext } from '../github/context/context.js';
import { ownedBy } from '../github/review/review-context.js';
import { placeComment } from '../github/review/review-diff.js';
import { PULL_FILES_MAX, scopeFiles } from '../github/review/review-context.js';
import {
  coverageLine,
  coverageMarkdown,
  coverageOf,
  diffPages,
  type ReviewCoverage,
} from '../github/review/review-pages.js';
import { frameUntrusted } from '../github/sanitize.js';
import { createReadDiffTool } from '../tools/read-diff.js';
import { ACTIONS_BOT_LOGIN } from '../github/context/trigger.js';
import { planReview, postReview, reviewBody, type ReviewPlan } from '../github/review/review-post.js';
import type { AnyAgentTool } from '../protocol/tool.js';
import type { ToolResultMessage } from '../protocol/types.js';
import type { Provider } from '../providers/types.js';
import { formatCost, formatTokens } from '../report/format.js';
import { neutralizeMentions } from '../report/mentions.js';
import { createAddReviewCommentTool } from '../tools/add-review-comment.js';
import type { CommandDetails } from '../tools/index.js';
import type { ReviewDraft } from '../delivery/plan.js';
import type { PreparedWork } from './start-up.js';
import type { FinishInput, RunState } from './state.js';

/** The workspace tools a review keeps: reading, searching and the tests. */
const REVIEW_TOOLS = new Set(['read_file', 'grep', 'find_files', 'list_dir', 'run_tests']);

/** The tools of a review run: the read-only workspace tools, run_tests and add_review_comment. */
export function reviewTools(
  s: RunState,
  workspaceTools: AnyAgentTool[],
  context: TaskContext,
): AnyAgentTool[] {
  const review = context.review;
  const files = review?.files ?? [];
  if (review) s.reviewScope = review.scope;
  const tools = [
    ...workspaceTools.filter((t) => REVIEW_TOOLS.has(t.name)),
    createAddReviewCommentTool({
      place: (path, line, startLine) => placeComment(files, path, line, startLine),
      onComment: (c) => s.reviewDrafts.push(c),
    }),
  ];
  // A pull request too large to show whole is read page by page (review-pages.ts).
  if (review && review.plan.paged.length > 0) {
    const byPath = new Map(scopeFiles(review).map((f) => [f.path, f]));
    tools.push(
      createReadDiffTool({
        pages: (path) => {
          const f = byPath.get(path);
          if (!f || f.noPatch) return undefined;
          const pages = diffPages(f);
          return pages.map((p, i) =>
            frameUntrusted(`diff of ${path}, page ${i + 1} of ${pages.length}`, p, { code: true }),
          );
        },
        onRead: (path, page) => {
          const read = s.reviewReads.diffPages.get(path) ?? new Set<number>();
          read.add(page);
          s.reviewReads.diffPages.set(path, read);
        },
      }),
    );
  }
  return tools;
}

/** The paths read_file read without an error: a file GitHub shows no diff of is reviewed by reading it. */
function filesRead(result: AgentResult): Set<string> {
  const asked = new Map<string, string>();
  const read = new Set<string>();
  for (const m of result.messages) {
    if (m.role === 'assistant')
      for (const c of m.content)
        if (c.type === 'toolCall' && c.name === 'read_file' && typeof c.input === 'object') {
          const path = c.input.path;
          if (typeof path === 'string') asked.set(c.id, path.replace(/^\.\//, ''));
        }
    if (m.role === 'toolResult' && m.toolName === 'read_file' && !m.isError) {
      const path = asked.get(m.toolCallId);
      if (path) read.add(path);
    }
  }
  return read;
}

/** Which of the diffs under review were read; sets `s.reviewCoverage`. */
export function reviewCoverage(
  s: RunState,
  result: AgentResult,
  context: TaskContext,
): ReviewCoverage | undefined {
  const review = context.review;
  if (!review) return undefined;
  for (const p of filesRead(result)) s.reviewReads.files.add(p);
  const coverage = coverageOf(review.plan, s.reviewReads);
  if (review.listCut)
    coverage.notReviewed.push({
      path: '…',
      why: `GitHub lists at most ${PULL_FILES_MAX} files of a pull request; any beyond them were not seen`,
    });
  s.reviewCoverage = coverage;
  return coverage;
}

/** What was reviewed, in a sentence for the review body and the summary. */
export function scopeText(context: TaskContext): string | undefined {
  const review = context.review;
  if (!review) return undefined;
  const scope = review.scope;
  if (scope.kind === 'since')
    return `the ${scope.commits} commit(s) since the last review (${scope.from.slice(0, 7)}), ${scope.files.length} of the pull request's ${review.files.length} file(s).`;
  return scope.why ? `the whole pull request: ${scope.why}.` : undefined;
}

/** What run_tests showed, in a sentence: how often it ran and how the last run ended. */
export function checkedText(result: AgentResult): string {
  const runs = result.messages.filter(
    (m): m is ToolResultMessage => m.role === 'toolResult' && m.toolName === 'run_tests',
  );
  if (runs.length === 0) return 'the code was read; the tests were not run.';
  const last = runs.at(-1)!;
  const d = last.details as Partial<CommandDetails> | undefined;
  const end =
    d?.exitCode === 0
      ? 'passed (exit code 0)'
      : d?.exitCode !== undefined && d.exitCode !== null
        ? `failed (exit code ${d.exitCode})`
        : last.isError
          ? 'did not finish'
          : 'ended without an exit code';
  return `the tests were run ${runs.length} time(s); the last run ${end}.`;
}

/** The review as data (src/delivery/plan.ts): what its body is made of and the drafted comments. */
export function draftReview(s: RunState, result: AgentResult, provider: Provider): ReviewDraft {
  const u = result.usage;
  const cost = formatCost(u.costUsd);
  return {
    finalText: result.finalText,
    checked: checkedText(result),
    usage: `${result.models.join(', ') || provider.model} · ${result.turns} turn(s) · ${formatTokens(u.inputTokens)} input / ${formatTokens(u.outputTokens)} output tokens · ${cost ? `${cost} (estimated)` : 'cost unknown'}`,
    comments: [...s.reviewDrafts],
  };
}

/**
 * Posts a drafted review on the task's PR (when the plan is applied, in either stage): the
 * comments placed again on the diff as this job reads it, the earlier threads it still repeats
 * left out. Sets `s.reviewUrl`; throws with GitHub's reason when the review cannot be posted.
 */
export async function postDraftedReview(
  s: RunState,
  draft: ReviewDraft,
  context: TaskContext,
): Promise<void> {
  const { task } = s;
  const number = task.number!;
  const files = context.review?.files ?? [];
  // A plan's drafts are placed again: a comment off this diff goes into the body, as on one job.
  const drafts = draft.comments.map((c) => {
    const placed = placeComment(files, c.path, c.line, c.startLine);
    return placed.ok ? { ...c, inDiff: true } : { ...c, inDiff: false, reason: placed.reason };
  });
  const logins = [ACTIONS_BOT_LOGIN, ...(s.comment?.author ? [s.comment.author] : [])];
  const reviewPlan = planReview(drafts, ownedBy(context.review?.threads ?? [], logins));
  // The model's text may not carry patchloop's hidden markers (a PR could ask it to write one, to
  // make a thread look answered): HTML comments in it are shown, not hidden.
  const clean = (t: string) => neutralizeMentions(s.redact(t)).replace(/<!--/g, '&lt;!--');
  const body = (p: ReviewPlan, refused?: string) =>
    reviewBody({
      finalText: draft.finalText,
      checked: draft.checked,
      usage: draft.usage,
      runUrl: s.runUrl,
      plan: p,
      ...(refused ? { refused } : {}),
      ...(scopeText(context) ? { scope: scopeText(context) } : {}),
      ...(s.reviewCoverage ? { coverage: coverageMarkdown(s.reviewCoverage, clean) } : {}),
      ...(context.pr?.headSha ? { head: context.pr.headSha } : {}),
      clean,
      redact: (t) => s.redact(t),
    });
  const posted = await postReview({
    github: s.github,
    owner: task.owner,
    repo: task.repo,
    number,
    commitId: context.pr?.headSha || undefined,
    plan: reviewPlan,
    body,
    clean,
    redact: (t) => s.redact(t),
    // an automatic review with nothing new to say posts none: its sticky summary says so
    quietWhenEmpty: s.quiet !== undefined,
  });
  if (posted.url) s.reviewUrl = posted.url;
  else {
    const earlier = [
      reviewPlan.repeated.length > 0
        ? ` ${reviewPlan.repeated.length} earlier remark(s) still apply and were not repeated.`
        : '',
      posted.replies > 0
        ? ` ${posted.replies} earlier remark(s) no longer apply and were answered as resolved.`
        : '',
    ].join('');
    s.notice(
      `The ${s.reviewScope?.kind === 'since' ? 'new commits raised' : 'review raised'} nothing new to remark on, so no review was posted.${earlier}`,
    );
  }
  s.transcript?.event('review', {
    id: posted.id,
    url: posted.url,
    inline: posted.refused ? 0 : reviewPlan.inline.length,
    moved: reviewPlan.moved.length + (posted.refused ? reviewPlan.inline.length : 0),
    repeated: reviewPlan.repeated.length,
    resolved: posted.replies,
    threadsResolved: posted.threadsResolved,
  });
  if (posted.refused)
    s.notice(`GitHub refused the inline comments (${posted.refused}); they were put into the review's body.`);
  for (const n of posted.notices) s.notice(n);
}

/**
 * The review in place of delivery: drafted here (`s.reviewDraft`), posted when the run's delivery
 * plan is applied (delivery/apply.ts) — by this job in stage: all, by the deliver job in two
 * stages. The conclusion is the agent's unless posting fails.
 */
export async function reviewPhase(
  s: RunState,
  work: PreparedWork,
  result: AgentResult,
  provider: Provider,
): Promise<FinishInput> {
  const { inputs } = s;
  const base = { result, plan: work.plan, provider };
  if (result.conclusion === 'cancelled') return { conclusion: 'cancelled', ...base, error: result.error };
  const coverage = reviewCoverage(s, result, work.context);
  const scope = scopeText(work.context);
  if (scope) s.notice(`Reviewed ${scope}`);
  if (coverage && coverage.notReviewed.length > 0) s.notice(neutralizeMentions(coverageLine(coverage)));
  // Never a green run that reviewed nothing: the review (if any) is still posted, nothing is lost.
  const nothing =
    coverage !== undefined && coverage.total > 0 && coverage.reviewed === 0
      ? `Nothing of the pull request's ${coverage.total} file(s) was reviewed: no diff was shown or read.`
      : undefined;
  const concluded = (c: FinishInput['conclusion'], error?: string): FinishInput =>
    nothing && c === 'success'
      ? { conclusion: 'failure', ...base, error: nothing }
      : { conclusion: c, ...base, error };
  const draft = draftReview(s, result, provider);
  if (inputs.dryRun) {
    s.notice(`Dry run: the review (${draft.comments.length} comment(s)) was not posted.`);
    return concluded(result.conclusion, result.error);
  }
  s.reviewDraft = draft;
  return concluded(result.conclusion, result.error);
}
