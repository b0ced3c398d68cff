// A review run (CONTRACT §9) in the action: the tools it gets (the read-only ones, run_tests and
// add_review_comment; nothing that writes) and, in place of commit and push, the one review posted
// at the end.
import type { AgentResult } from '../agent/index.js';
import type { TaskContext } from '../github/context.js';
import { ownedBy } from '../github/review-context.js';
import { placeComment } from '../github/review-diff.js';
import { ACTIONS_BOT_LOGIN } from '../github/trigger.js';
import { planReview, postReview, reviewBody, type ReviewPlan } from '../github/review-post.js';
import type { AnyAgentTool } from '../protocol/tool.js';
import type { ToolResultMessage } from '../protocol/types.js';
import type { Provider } from '../providers/types.js';
import { formatCost, formatTokens } from '../report/format.js';
import { neutralizeMentions } from '../report/mentions.js';
import { createAddReviewCommentTool } from '../tools/add-review-comment.js';
import type { CommandDetails } from '../tools/index.js';
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
  const files = context.review?.files ?? [];
  return [
    ...workspaceTools.filter((t) => REVIEW_TOOLS.has(t.name)),
    createAddReviewCommentTool({
      place: (path, line, startLine) => placeComment(files, path, line, startLine),
      onComment: (c) => s.reviewDrafts.push(c),
    }),
  ];
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

/** Posts the review in place of delivery; the conclusion is the agent's unless posting fails. */
export async function reviewPhase(
  s: RunState,
  work: PreparedWork,
  result: AgentResult,
  provider: Provider,
): Promise<FinishInput> {
  const { task, inputs } = s;
  const { plan, context } = work;
  const base = { result, plan, provider };
  if (result.conclusion === 'cancelled') return { conclusion: 'cancelled', ...base, error: result.error };
  const number = task.number!;
  const logins = [ACTIONS_BOT_LOGIN, ...(s.comment?.author ? [s.comment.author] : [])];
  const reviewPlan = planReview(s.reviewDrafts, ownedBy(context.review?.threads ?? [], logins));
  const u = result.usage;
  const cost = formatCost(u.costUsd);
  const usage = `${result.models.join(', ') || provider.model} · ${result.turns} turn(s) · ${formatTokens(u.inputTokens)} input / ${formatTokens(u.outputTokens)} output tokens · ${cost ? `${cost} (estimated)` : 'cost unknown'}`;
  // The model's text may not carry patchloop's hidden markers (a PR could ask it to write one, to
  // make a thread look answered): HTML comments in it are shown, not hidden.
  const clean = (t: string) => neutralizeMentions(s.redact(t)).replace(/<!--/g, '&lt;!--');
  const body = (p: ReviewPlan, refused?: string) =>
    reviewBody({
      finalText: result.finalText,
      checked: checkedText(result),
      usage,
      runUrl: s.runUrl,
      plan: p,
      ...(refused ? { refused } : {}),
      clean,
    });
  if (inputs.dryRun) {
    s.notice(`Dry run: the review (${reviewPlan.inline.length} inline comment(s)) was not posted.`);
    return { conclusion: result.conclusion, ...base, error: result.error };
  }
  try {
    const posted = await postReview({
      github: s.github,
      owner: task.owner,
      repo: task.repo,
      number,
      commitId: context.pr?.headSha || undefined,
      plan: reviewPlan,
      body,
      clean,
    });
    s.reviewUrl = posted.url;
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
      s.notice(
        `GitHub refused the inline comments (${posted.refused}); they were put into the review's body.`,
      );
    for (const n of posted.notices) s.notice(n);
  } catch (err) {
    return { conclusion: 'failure', ...base, error: (err as Error).message };
  }
  return { conclusion: result.conclusion, ...base, error: result.error };
}
