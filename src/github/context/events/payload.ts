// Reading webhook payloads without trusting their shape: every field may be missing, null or of
// another type (real payloads differ between events, GHES versions and deleted accounts).
import type { Actor, PullRequestRefs, TaskDecision } from '../task.js';

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** A string that says something: GitHub sends `""` for unnamed workflow runs. */
export const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
export const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

export function actorOf(v: unknown): Actor | undefined {
  const o = obj(v);
  const login = str(o?.login);
  if (!login) return undefined;
  return { login, type: str(o?.type) ?? (login.endsWith('[bot]') ? 'Bot' : 'User'), id: num(o?.id) };
}

/** The branches of a pull request object as the event carried it. */
export function refsOf(pull: Json | undefined, repository: string): PullRequestRefs | undefined {
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
    baseSha: str(base?.sha),
    headRepo: headRepo ?? '(deleted fork)',
    baseRef,
    // A deleted fork has no repo object: it is still not a branch we can push to.
    fork: !headRepo || headRepo.toLowerCase() !== baseRepo.toLowerCase(),
  };
}

export interface EventOptions {
  triggerPhrase: string;
  labelTrigger: string;
  /** the `prompt` input; empty when unset */
  prompt: string;
  /** the `issue-number` input: the issue a prompt task is about */
  issueNumber?: number;
  /** GITHUB_REPOSITORY, owner/name */
  repository: string;
  /** GITHUB_ACTOR, used when the payload names no sender */
  actor?: string;
  /** logins whose comments are the run's own (default: github-actions[bot]) */
  botLogins?: string[];
  /** the `mode` input: `review` makes pull_request events and requests on a PR reviews */
  mode?: 'fix' | 'review';
  /** the `require-approval` input: every write run starts as a plan (CONTRACT §13) */
  requireApproval?: boolean;
  /** when the event carries no time of its own (schedule, dispatch) */
  now?: () => Date;
}

/** What every event handler gets: the payload read once, and the fields every task shares. */
export interface EventInput {
  event: string;
  payload: Json;
  action?: string;
  options: EventOptions;
  bots: readonly string[];
  /** the trimmed `prompt` input, '' when unset */
  prompt: string;
  /** ISO time of this run's start, for events without a time of their own */
  now: string;
  /** the fields of Task every kind shares */
  base: {
    event: string;
    owner: string;
    repo: string;
    defaultBranch?: string;
    requester?: Actor;
    prompt?: string;
  };
}

export type EventHandler = (input: EventInput) => TaskDecision;

export const skip = (reason: string): TaskDecision => ({ run: false, reason });
