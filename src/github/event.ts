// GitHub event payload → the task of this run, or why there is none (CONTRACT §4).
import type { Actor, PullRequestRefs, TaskDecision, TriggerSource } from './task.js';
import { ACTIONS_BOT_LOGIN, isOwnText, mentionsPhrase } from './trigger.js';

export interface EventOptions {
  triggerPhrase: string;
  labelTrigger: string;
  /** the `prompt` input; empty when unset */
  prompt: string;
  /** GITHUB_REPOSITORY, owner/name */
  repository: string;
  /** GITHUB_ACTOR, used when the payload names no sender */
  actor?: string;
  /** logins whose comments are the run's own (default: github-actions[bot]) */
  botLogins?: string[];
  /** when the event carries no time of its own (schedule, dispatch) */
  now?: () => Date;
}

type Json = Record<string, unknown>;

const obj = (v: unknown): Json | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function actorOf(v: unknown): Actor | undefined {
  const o = obj(v);
  const login = str(o?.login);
  if (!login) return undefined;
  return { login, type: str(o?.type) ?? (login.endsWith('[bot]') ? 'Bot' : 'User'), id: num(o?.id) };
}

function refsOf(pull: Json | undefined, repository: string): PullRequestRefs | undefined {
  const head = obj(pull?.head);
  const base = obj(pull?.base);
  const headRef = str(head?.ref);
  const baseRef = str(base?.ref);
  if (!headRef || !baseRef) return undefined;
  const headRepo = str(obj(head?.repo)?.full_name);
  const baseRepo = str(obj(base?.repo)?.full_name) ?? repository;
  return {
    headRef,
    headSha: str(head?.sha) ?? '',
    headRepo: headRepo ?? '(deleted fork)',
    baseRef,
    // A deleted fork has no repo object: it is still not a branch we can push to.
    fork: !headRepo || headRepo.toLowerCase() !== baseRepo.toLowerCase(),
  };
}

/** Reads the event and decides whether this run has a task. Never throws on odd payloads. */
export function taskFromEvent(eventName: string, payload: unknown, options: EventOptions): TaskDecision {
  const p = obj(payload);
  if (!p) return { run: false, reason: `the ${eventName || 'unknown'} event payload could not be read` };
  const [owner = '', repo = ''] = options.repository.split('/');
  if (!owner || !repo)
    return { run: false, reason: `GITHUB_REPOSITORY "${options.repository}" is not owner/name` };
  const bots = options.botLogins ?? [ACTIONS_BOT_LOGIN];
  const prompt = options.prompt.trim();
  const sender = actorOf(p.sender) ?? (options.actor ? { login: options.actor, type: 'User' } : undefined);
  const action = str(p.action);
  const defaultBranch = str(obj(p.repository)?.default_branch);
  const base = {
    event: eventName,
    owner,
    repo,
    defaultBranch,
    requester: sender,
    prompt: prompt || undefined,
  };
  const now = (options.now ?? (() => new Date()))().toISOString();

  switch (eventName) {
    case 'issue_comment': {
      const issue = obj(p.issue);
      const comment = obj(p.comment);
      const number = num(issue?.number);
      const id = num(comment?.id);
      const body = str(comment?.body) ?? '';
      if (!issue || !comment || number === undefined || id === undefined) {
        return { run: false, reason: 'the issue_comment payload has no issue or comment' };
      }
      if (action !== 'created')
        return { run: false, reason: `issue_comment "${action}" is not a new comment` };
      const author = actorOf(comment.user);
      if (isOwnText(body, author?.login, bots))
        return { run: false, reason: 'the comment is patchloop’s own' };
      if (!mentionsPhrase(body, options.triggerPhrase)) {
        return { run: false, reason: `the comment does not contain "${options.triggerPhrase}"` };
      }
      const isPullRequest = obj(issue.pull_request) !== undefined;
      const trigger: TriggerSource = {
        kind: 'issue-comment',
        id,
        body,
        createdAt: str(comment.created_at) ?? now,
        url: str(comment.html_url),
      };
      return {
        run: true,
        task: {
          ...base,
          kind: isPullRequest ? 'pr' : 'issue',
          number,
          isPullRequest,
          title: str(issue.title),
          body: str(issue.body) ?? '',
          trigger,
          requester: author ?? sender,
          request: body,
        },
      };
    }

    case 'pull_request_review_comment': {
      const pull = obj(p.pull_request);
      const comment = obj(p.comment);
      const number = num(pull?.number);
      const id = num(comment?.id);
      const body = str(comment?.body) ?? '';
      if (!pull || !comment || number === undefined || id === undefined) {
        return {
          run: false,
          reason: 'the pull_request_review_comment payload has no pull request or comment',
        };
      }
      if (action !== 'created')
        return { run: false, reason: `review comment "${action}" is not a new comment` };
      const author = actorOf(comment.user);
      if (isOwnText(body, author?.login, bots))
        return { run: false, reason: 'the comment is patchloop’s own' };
      if (!mentionsPhrase(body, options.triggerPhrase)) {
        return { run: false, reason: `the review comment does not contain "${options.triggerPhrase}"` };
      }
      return {
        run: true,
        task: {
          ...base,
          kind: 'review-comment',
          number,
          isPullRequest: true,
          title: str(pull.title),
          body: str(pull.body) ?? '',
          trigger: {
            kind: 'review-comment',
            id,
            body,
            createdAt: str(comment.created_at) ?? now,
            url: str(comment.html_url),
          },
          requester: author ?? sender,
          request: body,
          pr: refsOf(pull, options.repository),
          review: {
            path: str(comment.path) ?? '',
            line: num(comment.line) ?? num(comment.original_line),
            startLine: num(comment.start_line) ?? undefined,
            side: str(comment.side),
            diffHunk: str(comment.diff_hunk) ?? '',
            commitId: str(comment.commit_id),
            inReplyTo: num(comment.in_reply_to_id),
          },
        },
      };
    }

    case 'pull_request_review': {
      const pull = obj(p.pull_request);
      const review = obj(p.review);
      const number = num(pull?.number);
      const id = num(review?.id);
      const body = str(review?.body) ?? '';
      if (!pull || !review || number === undefined || id === undefined) {
        return { run: false, reason: 'the pull_request_review payload has no pull request or review' };
      }
      if (action !== 'submitted')
        return { run: false, reason: `review "${action}" is not a submitted review` };
      const author = actorOf(review.user);
      if (isOwnText(body, author?.login, bots))
        return { run: false, reason: 'the review is patchloop’s own' };
      if (!mentionsPhrase(body, options.triggerPhrase)) {
        return { run: false, reason: `the review does not contain "${options.triggerPhrase}"` };
      }
      return {
        run: true,
        task: {
          ...base,
          kind: 'review',
          number,
          isPullRequest: true,
          title: str(pull.title),
          body: str(pull.body) ?? '',
          trigger: {
            kind: 'review',
            id,
            body,
            createdAt: str(review.submitted_at) ?? now,
            url: str(review.html_url),
          },
          requester: author ?? sender,
          request: body,
          pr: refsOf(pull, options.repository),
        },
      };
    }

    case 'issues': {
      const issue = obj(p.issue);
      const number = num(issue?.number);
      if (!issue || number === undefined) return { run: false, reason: 'the issues payload has no issue' };
      const body = str(issue.body) ?? '';
      const title = str(issue.title) ?? '';
      if (obj(issue.pull_request)) return { run: false, reason: 'the issue is a pull request' };
      let trigger: TriggerSource;
      if (action === 'labeled') {
        const label = str(obj(p.label)?.name) ?? '';
        if (!options.labelTrigger || label.toLowerCase() !== options.labelTrigger.toLowerCase()) {
          return { run: false, reason: `the label "${label}" is not "${options.labelTrigger}"` };
        }
        trigger = { kind: 'label', label, createdAt: str(issue.updated_at) ?? now };
      } else if (action === 'opened') {
        if (isOwnText(body, actorOf(issue.user)?.login, bots))
          return { run: false, reason: 'the issue is patchloop’s own' };
        if (!mentionsPhrase(body, options.triggerPhrase) && !mentionsPhrase(title, options.triggerPhrase)) {
          return { run: false, reason: `the issue does not contain "${options.triggerPhrase}"` };
        }
        trigger = { kind: 'issue-body', body, createdAt: str(issue.created_at) ?? now };
      } else {
        return { run: false, reason: `issues "${action}" is neither opened nor labeled` };
      }
      return {
        run: true,
        task: {
          ...base,
          kind: 'issue',
          number,
          isPullRequest: false,
          title,
          body,
          trigger,
          request: trigger.kind === 'label' ? `Resolve issue #${number}: ${title}` : body,
        },
      };
    }

    case 'workflow_run': {
      const run = obj(p.workflow_run);
      const id = num(run?.id);
      if (!run || id === undefined) return { run: false, reason: 'the workflow_run payload has no run' };
      const conclusion = str(run.conclusion) ?? '';
      if (action !== 'completed' || conclusion !== 'failure') {
        return { run: false, reason: `workflow run ${id} ended "${conclusion || action}", not "failure"` };
      }
      const name = str(run.name) ?? str(obj(p.workflow)?.name) ?? 'workflow';
      return {
        run: true,
        task: {
          ...base,
          kind: 'workflow-run',
          number: undefined,
          isPullRequest: false,
          title: `${name} failed`,
          trigger: { kind: 'workflow-run', createdAt: str(run.updated_at) ?? now },
          requester: actorOf(run.triggering_actor) ?? actorOf(run.actor) ?? sender,
          request: prompt || `The workflow run "${name}" (#${id}) failed. Find the cause and fix it.`,
          workflowRun: {
            id,
            attempt: num(run.run_attempt),
            name,
            conclusion,
            headBranch: str(run.head_branch),
            headSha: str(run.head_sha),
            url: str(run.html_url),
          },
        },
      };
    }

    default: {
      if (!prompt)
        return { run: false, reason: `the ${eventName || 'unknown'} event needs the prompt input to run` };
      return {
        run: true,
        task: {
          ...base,
          kind: 'prompt',
          isPullRequest: false,
          trigger: { kind: 'prompt', createdAt: now },
          request: prompt,
        },
      };
    }
  }
}
