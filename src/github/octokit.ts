import { getOctokit } from '@actions/github';
import { requestLog } from '@octokit/plugin-request-log';
import { retry } from '@octokit/plugin-retry';

export type GitHubClient = ReturnType<typeof getOctokit> & ReturnType<typeof retry>;

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
  /** false turns off the spacing of writes and the rate-limit handling (tests of other things). */
  throttle?: boolean;
  userAgent?: string;
}

/**
 * The Actions toolkit's Octokit (`getOctokit`: REST methods, pagination, and requests through the
 * proxy HTTPS_PROXY / NO_PROXY name for GITHUB_API_URL) with GitHub's retry and rate-limit manners
 * (see rateLimitManners).
 */
export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const base = options.retryAfterBaseValue ?? 1000;
  const log = options.log;
  // No `request` option here: it would replace the toolkit's proxy-aware fetch.
  const octokit = getOctokit(
    options.token,
    {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      userAgent: options.userAgent ?? 'patchloop',
      log: {
        debug: (m: string) => log?.debug(m),
        info: (m: string) => log?.debug(m),
        warn: (m: string) => log?.warning(m),
        error: (m: string) => log?.warning(m),
      },
      // The retry plugin retries 5xx answers and lost connections only. Rate limits (403 and
      // 429) are rateLimitManners' alone: the plugin would retry a 429 on its own schedule,
      // ignoring retry-after, inside each of those retries.
      retry: {
        retries: options.retries ?? 3,
        retryAfterBaseValue: base,
        doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451],
      },
    },
    retry,
    // each request's method, path, status and time on the debug log, as @octokit/rest did
    requestLog,
  ) as GitHubClient;
  if (options.throttle !== false)
    rateLimitManners(octokit, { base, retries: options.rateLimitRetries ?? 2, ...(log ? { log } : {}) });
  return octokit;
}

// Writes that create content others are notified of (GitHub's REST description lists them; the
// secondary rate limits are strictest there): comments, issues, pull requests, reviews, releases.
const NOTIFYING = new RegExp(
  '^/repos/[^/]+/[^/]+/(?:issues|issues/[^/]+/comments|issues/[^/]+/sub_issues?(?:/priority)?|pulls|' +
    'pulls/[^/]+/(?:comments|comments/[^/]+/replies|merge|requested_reviewers|reviews)|' +
    'commits/[^/]+/comments|releases|collaborators/[^/]+)$' +
    '|^/orgs/[^/]+/(?:invitations(?:/[^/]+)?|teams/[^/]+/discussions(?:/[^/]+/comments)?)$' +
    '|^/teams/[^/]+/discussions(?:/[^/]+/comments)?$',
  'i',
);

// The longest wait for a primary rate limit's reset that a run sits out; longer, it gives up.
const MAX_PRIMARY_WAIT_S = 60;

interface RequestOptionsLike {
  method: string;
  url: string;
  baseUrl?: string;
}

/**
 * How many writes, and how many notifying ones, go without spacing before the spacing starts.
 * GitHub's REST guidance asks for a second between writes when an integration makes "a large
 * number" of them, and its secondary limits count content-creating requests per minute (80) and
 * per hour (500). A run makes a handful (the tracking comment, a reaction, the PR, the summary
 * edit): spacing those only made every run wait seconds at its end for no limit it could reach.
 * Past these bursts the spacing applies in full, and a secondary limit met anyway is waited out.
 */
export const WRITE_BURST = 8;
export const NOTIFYING_BURST = 4;

/**
 * A burst of `burst` sends at once, then one every `intervalMs` (the generic cell rate algorithm:
 * `due` is when the next send would be on time if none had been early).
 */
class Spacing {
  private due = 0;
  constructor(
    private readonly burst: number,
    private readonly intervalMs: number,
  ) {}
  /** ms to wait before the next send (0: at once) */
  wait(now: number): number {
    return Math.max(0, this.due - now - (this.burst - 1) * this.intervalMs);
  }
  sent(now: number): void {
    this.due = Math.max(this.due, now) + this.intervalMs;
  }
}

/**
 * GitHub's manners for integrations, on Octokit's request hook: writes one at a time; past a
 * run's first few (WRITE_BURST), a second apart, and three between writes that notify people
 * (past NOTIFYING_BURST), `base` ms standing for a second, as GitHub's REST guidance asks for
 * many writes; a secondary rate limit (403 or 429 naming it, or with `retry-after`) waited out and
 * retried, as is a primary one (`x-ratelimit-remaining: 0`) whose reset is near. Reads go
 * straight through: they wait on nothing.
 */
function rateLimitManners(octokit: GitHubClient, o: { base: number; retries: number; log?: LogSink }): void {
  let writes: Promise<unknown> = Promise.resolve();
  const anyWrite = new Spacing(WRITE_BURST, o.base);
  const notifyingWrite = new Spacing(NOTIFYING_BURST, 3 * o.base);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  octokit.hook.wrap('request', async (request, options) => {
    const opts = options as unknown as RequestOptionsLike;
    const method = opts.method.toUpperCase();
    const write = method !== 'GET' && method !== 'HEAD';
    const path = new URL(opts.url, 'http://github.invalid').pathname;
    const send = async (): Promise<Awaited<ReturnType<typeof request>>> => {
      if (!write) return request(options);
      // one write at a time, each after the spacing its kind asks for
      const notifying = NOTIFYING.test(path);
      const turn = writes.then(async () => {
        const now = Date.now();
        const wait = Math.max(anyWrite.wait(now), notifying ? notifyingWrite.wait(now) : 0);
        if (wait > 0) await sleep(wait);
        const at = Date.now();
        anyWrite.sent(at);
        if (notifying) notifyingWrite.sent(at);
        return request(options);
      });
      writes = turn.catch(() => undefined);
      return turn;
    };
    for (let attempt = 0; ; attempt++) {
      try {
        return await send();
      } catch (err) {
        const limit = rateLimitOf(err);
        if (!limit) throw err;
        const again =
          attempt < o.retries && (limit.kind === 'secondary' || limit.waitS <= MAX_PRIMARY_WAIT_S);
        o.log?.warning(
          `GitHub ${limit.kind} rate limit on ${method} ${opts.url}; ${again ? `retrying after ${limit.waitS} s` : 'giving up'}`,
        );
        if (!again) throw err;
        await sleep(limit.waitS * o.base);
      }
    }
  });
}

/**
 * The rate limit a failed request ran into, and how long to wait (seconds), or undefined. GitHub's
 * rules: a `retry-after` header is the wait; else `x-ratelimit-remaining: 0` means waiting until
 * `x-ratelimit-reset`; else a secondary limit (a 429, or a 403 that names it) waits a minute.
 */
function rateLimitOf(err: unknown): { kind: 'primary' | 'secondary'; waitS: number } | undefined {
  const e = err as HttpErrorLike | null;
  const status = e?.status;
  if (status !== 403 && status !== 429) return undefined;
  const headers = e?.response?.headers ?? {};
  const secondary = status === 429 || /\bsecondary rate\b/i.test(apiMessageOf(err));
  const after = Number(headers['retry-after']);
  if (headers['retry-after'] !== undefined && Number.isFinite(after) && after >= 0)
    return { kind: secondary ? 'secondary' : 'primary', waitS: Math.ceil(after) };
  if (headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(headers['x-ratelimit-reset']) * 1000;
    return {
      kind: secondary ? 'secondary' : 'primary',
      waitS: Number.isFinite(reset) ? Math.max(Math.ceil((reset - Date.now()) / 1000) + 1, 0) : 60,
    };
  }
  return secondary ? { kind: 'secondary', waitS: 60 } : undefined;
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
