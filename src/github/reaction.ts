// The `eyes` reaction that tells the requester the run has seen the request.
import type { GitHubClient } from './octokit.js';
import { describeGitHubError } from './octokit.js';
import type { Task } from './context/task.js';

/** The reactions patchloop uses: `eyes` for a request it takes, `-1` for one its author may not make. */
export type ReactionContent = 'eyes' | '-1';

/**
 * Reacts on what triggered the run. Returns a warning instead of throwing; a missing reaction must
 * not stop the run. An unauthorized request gets `-1` and nothing more: a reply would let anyone
 * make the bot post.
 */
export async function acknowledge(
  github: GitHubClient,
  task: Task,
  content: ReactionContent = 'eyes',
): Promise<{
  ok: boolean;
  message: string;
  /** nothing to react on, as is normal for this trigger: no warning */ none?: true;
}> {
  const { owner, repo, trigger } = task;
  try {
    switch (trigger.kind) {
      case 'issue-comment':
        await github.rest.reactions.createForIssueComment({
          owner,
          repo,
          comment_id: trigger.id,
          content,
        });
        return { ok: true, message: `reacted on comment ${trigger.id}` };
      case 'review-comment':
        await github.rest.reactions.createForPullRequestReviewComment({
          owner,
          repo,
          comment_id: trigger.id,
          content,
        });
        return { ok: true, message: `reacted on review comment ${trigger.id}` };
      case 'issue-body':
      case 'label':
        if (task.number === undefined) return { ok: false, message: 'no issue to react on' };
        await github.rest.reactions.createForIssue({
          owner,
          repo,
          issue_number: task.number,
          content,
        });
        return { ok: true, message: `reacted on issue #${task.number}` };
      case 'review':
        // GitHub has no reactions on reviews; the tracking comment is the acknowledgement.
        return { ok: false, message: 'reviews take no reactions', none: true };
      case 'pull-request':
      case 'workflow-run':
      case 'prompt':
        // An automatic review, a failed run, a prompt: no comment was written to react on.
        return { ok: false, message: `a ${trigger.kind} trigger has no comment to react on`, none: true };
      default:
        return { ok: false, message: 'nothing to react on' };
    }
  } catch (err) {
    return { ok: false, message: describeGitHubError(err, 'react', `Adding the ${content} reaction`) };
  }
}
