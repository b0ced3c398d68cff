// Who may start a run: users with at least `required-permission`, and bots named in `allowed-bots`.
import type { GitHubClient } from './octokit.js';
import { describeGitHubError, statusOf } from './octokit.js';
import type { Actor } from './context/task.js';

export const PERMISSION_LEVELS = ['read', 'triage', 'write', 'maintain', 'admin'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];

export function isPermissionLevel(v: string): v is PermissionLevel {
  return (PERMISSION_LEVELS as readonly string[]).includes(v);
}

/** Rank of a level; -1 for `none` and anything unknown. */
export function rankOf(level: string | undefined): number {
  return level ? PERMISSION_LEVELS.indexOf(level.toLowerCase() as PermissionLevel) : -1;
}

/**
 * The collaborator's effective level. The API's `permission` field only knows admin / write /
 * read / none (maintain reads as write, triage as read); `role_name` names the real role, unless
 * it is an organisation's custom role, whose name says nothing: then `permission` is all we have.
 */
export function effectiveLevel(answer: { permission?: string; role_name?: string }): string {
  const role = answer.role_name?.toLowerCase();
  if (role && isPermissionLevel(role)) return role;
  return answer.permission?.toLowerCase() ?? 'none';
}

export type PermissionDecision =
  | { allowed: true; level: string; reason: string }
  /** `failed`: the check itself could not be made (the API failed); nobody is allowed then. */
  | { allowed: false; level?: string; reason: string; failed?: boolean };

export function isBot(actor: Actor): boolean {
  return actor.type.toLowerCase() === 'bot' || actor.login.toLowerCase().endsWith('[bot]');
}

/** `allowed-bots` entries match with or without the `[bot]` suffix, case-insensitively. */
export function botAllowed(login: string, allowedBots: readonly string[]): boolean {
  const bare = (s: string) =>
    s
      .trim()
      .toLowerCase()
      .replace(/\[bot\]$/, '');
  return allowedBots.some((b) => b.trim() !== '' && bare(b) === bare(login));
}

export interface PermissionCheck {
  owner: string;
  repo: string;
  actor: Actor | undefined;
  required: PermissionLevel;
  allowedBots: readonly string[];
}

export async function checkPermission(
  github: GitHubClient,
  check: PermissionCheck,
): Promise<PermissionDecision> {
  const { actor } = check;
  if (!actor)
    return { allowed: true, level: 'workflow', reason: 'no actor: the workflow itself asked (schedule)' };
  if (isBot(actor)) {
    return botAllowed(actor.login, check.allowedBots)
      ? { allowed: true, level: 'bot', reason: `${actor.login} is listed in allowed-bots` }
      : { allowed: false, reason: `${actor.login} is a bot and is not listed in allowed-bots` };
  }
  let answer: { permission?: string; role_name?: string };
  try {
    const res = await github.rest.repos.getCollaboratorPermissionLevel({
      owner: check.owner,
      repo: check.repo,
      username: actor.login,
    });
    answer = res.data as { permission?: string; role_name?: string };
  } catch (err) {
    // 404: not a collaborator (or not a user) — no permission at all.
    if (statusOf(err) === 404)
      return {
        allowed: false,
        level: 'none',
        reason: `${actor.login} has no access to ${check.owner}/${check.repo}`,
      };
    return {
      allowed: false,
      failed: true,
      reason: describeGitHubError(err, 'read-permission', `Checking the permission of ${actor.login}`),
    };
  }
  const level = effectiveLevel(answer);
  if (rankOf(level) >= rankOf(check.required)) {
    return {
      allowed: true,
      level,
      reason: `${actor.login} has ${level} permission (at least ${check.required})`,
    };
  }
  return {
    allowed: false,
    level,
    reason: `${actor.login} has ${level} permission; required-permission is ${check.required}`,
  };
}
