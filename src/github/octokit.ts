import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';

export const PatchloopOctokit = Octokit.plugin(retry, throttling);
export type GitHubClient = InstanceType<typeof PatchloopOctokit>;

export interface LogSink {
  debug(message: string): void;
  info(message: string): void;
  warning(message: string): void;
}

export interface GitHubClientOptions {
  token: string;
  /** GITHUB_API_URL: https://api.github.com, or https://HOST/api/v3 on GitHub Enterprise Server */
  baseUrl: string;
  log?: LogSink;
  /** Retries of 5xx answers and secondary rate limits (default 3 and 2). */
  retries?: number;
  rateLimitRetries?: number;
  /** Multiplies `retry-after` seconds and the retry back-off into milliseconds (default 1000). */
  retryAfterBaseValue?: number;
  /** false turns off the request spacing and rate-limit handling (tests of other things). */
  throttle?: boolean;
  userAgent?: string;
}

/** Octokit with GitHub's retry and rate-limit manners: writes are serialised and spaced by the plugin. */
export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const log = options.log;
  const base = options.retryAfterBaseValue ?? 1000;
  const rateLimitRetries = options.rateLimitRetries ?? 2;
  const onLimit =
    (kind: string) =>
    (
      retryAfter: number,
      request: { method: string; url: string },
      _octokit: unknown,
      retryCount: number,
    ): boolean => {
      const again = retryCount < rateLimitRetries;
      log?.warning(
        `GitHub ${kind} rate limit on ${request.method} ${request.url}; ${again ? `retrying after ${retryAfter} s` : 'giving up'}`,
      );
      return again;
    };
  return new PatchloopOctokit({
    auth: options.token,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    userAgent: options.userAgent ?? 'patchloop',
    log: {
      debug: (m: string) => log?.debug(m),
      info: (m: string) => log?.debug(m),
      warn: (m: string) => log?.warning(m),
      error: (m: string) => log?.warning(m),
    },
    retry: { retries: options.retries ?? 3, retryAfterBaseValue: base },
    throttle:
      options.throttle === false
        ? { enabled: false }
        : {
            retryAfterBaseValue: base,
            fallbackSecondaryRateRetryAfter: 60,
            onRateLimit: onLimit('primary'),
            onSecondaryRateLimit: onLimit('secondary'),
          },
  });
}

/** The `permissions:` entry a workflow needs for each kind of call patchloop makes. */
export type GitHubOperation =
  | 'read-issue'
  | 'comment'
  | 'react'
  | 'read-pull'
  | 'create-pull'
  | 'read-permission'
  | 'read-actions'
  | 'read-contents'
  | 'push';

const NEEDED: Record<GitHubOperation, string> = {
  'read-issue': 'issues: read',
  comment: 'issues: write (and pull-requests: write for comments on pull requests)',
  react: 'issues: write (and pull-requests: write for pull request review comments)',
  'read-pull': 'pull-requests: read',
  'create-pull': 'pull-requests: write',
  'read-permission': 'metadata: read (always granted to GITHUB_TOKEN) or a token that can see the repository',
  'read-actions': 'actions: read',
  'read-contents': 'contents: read',
  push: 'contents: write',
};

export interface HttpErrorLike {
  status?: number;
  message?: string;
  response?: { data?: unknown; headers?: Record<string, string | undefined> };
}

export function statusOf(err: unknown): number | undefined {
  const s = (err as HttpErrorLike | null)?.status;
  return typeof s === 'number' ? s : undefined;
}

/** GitHub's own `message` of a failed request, without Octokit's appended documentation link. */
export function apiMessageOf(err: unknown): string {
  const data = (err as HttpErrorLike | null)?.response?.data;
  if (data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string') {
    return (data as { message: string }).message;
  }
  if (err instanceof Error) return err.message;
  return String(err);
}

/**
 * A message a maintainer can act on. GITHUB_TOKEN answers 403 "Resource not accessible by
 * integration" when the workflow's `permissions:` block lacks the scope, and 404 for resources
 * the token cannot see at all; both mean the same fix.
 */
export function describeGitHubError(err: unknown, operation: GitHubOperation, what: string): string {
  const status = statusOf(err);
  const message = apiMessageOf(err);
  if (status === 403 || status === 404) {
    return (
      `${what} failed: GitHub answered ${status} (${message}). ` +
      `The workflow's token probably lacks a permission: add \`${NEEDED[operation]}\` to the job's \`permissions:\`.`
    );
  }
  if (status === 401)
    return `${what} failed: GitHub answered 401 (${message}); the github-token input is not a valid token.`;
  return `${what} failed${status ? `: GitHub answered ${status}` : ''} (${message}).`;
}
