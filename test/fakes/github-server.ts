// A loopback server that speaks GitHub's REST wire format for the routes patchloop uses, with
// in-memory state, a request log and fault injection. Octokit (or anything else) points at it
// with `baseUrl`; the action under test gets it through GITHUB_API_URL.
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestMismatches } from '../github/fixtures/openapi.js';
import { answerGraphQL } from './github-graphql.js';
import { FakeImages, wantsFull } from './github-images.js';
import { repoWire, userWire, type WireContext } from './github-wire.js';

export interface FakeUser {
  login: string;
  id: number;
  type: 'User' | 'Bot' | 'Organization';
}

export interface FakeComment {
  id: number;
  node_id: string;
  body: string;
  user: FakeUser;
  created_at: string;
  updated_at: string;
  html_url: string;
  issue_url: string;
  url: string;
  author_association: string;
}

export interface FakeReviewComment extends Omit<FakeComment, 'issue_url'> {
  pull_request_review_id: number;
  path: string;
  line: number | null;
  original_line: number | null;
  start_line: number | null;
  side: 'LEFT' | 'RIGHT';
  diff_hunk: string;
  commit_id: string;
  pull_request_url: string;
  in_reply_to_id?: number;
  /** the right-side text of `line` when it was made: GitHub keeps a thread current while it is unchanged */
  lineText?: string;
}

/** A file of a pull request's diff, as `GET /pulls/{n}/files` lists it (`patch` absent for binaries). */
export interface FakePullFile {
  filename: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  additions: number;
  deletions: number;
  patch?: string;
  previous_filename?: string;
}

/** A submitted pull request review (its body is "" when the reviewer wrote none). */
export interface FakeReview {
  id: number;
  node_id: string;
  body: string;
  user: FakeUser;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';
  html_url: string;
  pull_request_url: string;
  submitted_at: string;
  commit_id: string;
  author_association: string;
}

export interface FakeRef {
  ref: string;
  sha: string;
  label: string;
  repo: { full_name: string; name: string; owner: { login: string }; fork: boolean; clone_url: string };
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string | null;
  user: FakeUser;
  state: 'open' | 'closed';
  labels: { name: string }[];
  created_at: string;
  updated_at: string;
  html_url: string;
  pull_request?: { url: string; html_url: string };
}

export interface FakePull {
  number: number;
  title: string;
  body: string | null;
  user: FakeUser;
  state: 'open' | 'closed';
  draft: boolean;
  head: FakeRef;
  base: FakeRef;
  html_url: string;
  created_at: string;
  updated_at: string;
}

export interface FakeJob {
  id: number;
  run_id: number;
  name: string;
  status: 'completed' | 'in_progress' | 'queued';
  conclusion: 'success' | 'failure' | 'cancelled' | 'skipped' | 'timed_out' | null;
  html_url: string;
  steps: { name: string; number: number; status: string; conclusion: string | null }[];
}

/** A workflow run of this repository, as `GET /actions/runs/{run_id}` reports it. */
export interface FakeRun {
  id: number;
  /** the workflow file, `.github/workflows/x.yml` */
  path: string;
  event: string;
  headBranch: string;
  headSha: string;
  startedAt: string;
  /** undefined: the time of each request (a run that is still going) */
  updatedAt?: string;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
  status: number;
  /** Date.now() when the request arrived */
  at: number;
}

export interface Fault {
  method?: string;
  /** Matched against the path (without query). */
  path: RegExp;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests fail; Infinity for all of them. */
  times: number;
}

type Handler = (req: ParsedRequest) => Reply | Promise<Reply>;

/** What a hold's `match` sees of a request. */
export interface HeldRequest {
  query: URLSearchParams;
  body: unknown;
}

export interface ParsedRequest {
  method: string;
  path: string;
  params: string[];
  query: URLSearchParams;
  body: unknown;
  user: FakeUser;
  headers: IncomingMessage['headers'];
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A route of the fake: method, a pattern over the path (groups become `params`), the answer. */
export type Route = [method: string, path: RegExp, handler: Handler];

/** A change of a PR's head, as the timeline reports it. */
export interface FakeHeadChange {
  kind: 'committed' | 'head_ref_force_pushed';
  sha: string;
  /** when GitHub recorded the push (orders the timeline) */
  pushedAt: string;
  /** the date written into the commit, which its author chooses */
  committedAt: string;
}

/** A push to a branch as the repository activity API reports it (GitHub's own time). */
export interface FakeActivity {
  /** owner/name of the repository pushed to */
  repo: string;
  ref: string;
  before: string;
  after: string;
  timestamp: string;
  activity_type: 'push' | 'force_push' | 'branch_creation' | 'branch_deletion';
  actor: string;
}

export interface FakeGitHubOptions {
  /**
   * EXTENSION POINT: routes served besides the built-in ones (checked after `override`s, before
   * the built-ins), for fakes kept in files of their own (artifacts, checks, …). `addRoutes` adds
   * more after start.
   */
  extraRoutes?: Route[];
  owner?: string;
  repo?: string;
  defaultBranch?: string;
  /** Tokens the server accepts and whom they authenticate as; any other token gets 401. */
  tokens?: Record<string, FakeUser>;
  /** Clock for created_at / updated_at of things made through the API. */
  now?: () => Date;
  /**
   * The test's bare origin repository: the compare route and the branch route then answer from
   * its real git history (see setOrigin).
   */
  origin?: string;
  /**
   * Writes are checked against GitHub's REST description (@octokit/openapi): a body without a
   * field it marks required, or with a field of another type, gets 422 (default true).
   */
  checkRequests?: boolean;
}

/** GitHub's compare lists at most this many files. */
const COMPARE_FILES_MAX = 300;

export const ACTIONS_BOT: FakeUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };

const SECONDARY_RATE_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ABCD:1234.';
export const ACTIONS_MAY_NOT_CREATE_PRS =
  'GitHub Actions is not permitted to create or approve pull requests.';

export class FakeGitHub {
  readonly owner: string;
  readonly repo: string;
  readonly defaultBranch: string;
  readonly requests: LoggedRequest[] = [];
  readonly issues = new Map<number, FakeIssue>();
  readonly pulls = new Map<number, FakePull>();
  readonly issueComments: FakeComment[] = [];
  readonly reviewComments: FakeReviewComment[] = [];
  readonly reviews: FakeReview[] = [];
  /** review threads marked resolved (GraphQL `resolveReviewThread`), by their first comment's id */
  readonly resolvedThreads = new Set<number>();
  readonly reactions: {
    subject: 'issue' | 'issue-comment' | 'review-comment';
    id: number;
    content: string;
    user: string;
  }[] = [];
  readonly permissions = new Map<string, { permission: string; role_name: string }>();
  readonly jobs = new Map<number, FakeJob[]>();
  readonly jobLogs = new Map<number, string>();
  /** Branches GitHub reports as protected (GET /branches/{branch} → `protected`). */
  readonly protectedBranches = new Set<string>();
  /** Files served by the contents API: ref (branch name or sha) → path → text. */
  readonly files = new Map<string, Map<string, string>>();
  /** Each PR's changed files with their patches (`GET /pulls/{n}/files`, and where reviews may comment). */
  readonly pullFiles = new Map<number, FakePullFile[]>();
  /** Pushes to a PR's head after it was opened, for its timeline. */
  readonly headChanges = new Map<number, FakeHeadChange[]>();
  /**
   * Pushes GitHub recorded, for `GET /repos/{o}/{r}/activity` of any repository (a fork's too):
   * the push that made each PR's head branch (addPull's branchPushedAt), and each pushToPull.
   */
  readonly activity: FakeActivity[] = [];
  /** Workflow runs `GET /actions/runs/{run_id}` answers for (addRun). */
  readonly workflowRuns = new Map<number, FakeRun>();
  /** Image attachments, their signed URLs and `body_html` (github-images.ts). */
  readonly images = new FakeImages(() => this.url, 'https://github.com');
  private readonly extraRoutes: Route[] = [];
  private readonly checkRequests: boolean;
  private readonly faults: Fault[] = [];
  private readonly overrides: { method: string; path: RegExp; handler: Handler }[] = [];
  private readonly holds: {
    method: string;
    path: RegExp;
    before: () => Promise<void>;
    match?: (req: HeldRequest) => boolean;
  }[] = [];
  private readonly tokens: Record<string, FakeUser>;
  private readonly readOnlyTokens = new Map<string, RegExp[]>();
  /** Writes refused to a read-only token (see readOnlyToken). */
  readonly refusedWrites: { method: string; path: string }[] = [];
  private readonly now: () => Date;
  private nextNumber = 1;
  private nextId = 1000;
  private server?: Server;
  private origin?: string;
  /** PRs opened by POST /pulls (whose head the fake reads from origin) */
  private readonly openedByApi = new Set<number>();
  url = '';

  constructor(options: FakeGitHubOptions = {}) {
    this.owner = options.owner ?? 'octo';
    this.repo = options.repo ?? 'demo';
    this.defaultBranch = options.defaultBranch ?? 'main';
    this.tokens = options.tokens ?? { ghs_faketoken: ACTIONS_BOT };
    this.now = options.now ?? (() => new Date());
    this.extraRoutes.push(...(options.extraRoutes ?? []));
    this.origin = options.origin;
    this.checkRequests = options.checkRequests ?? true;
  }

  /**
   * Points the fake at the test's bare origin: `GET /compare/{base}...{head}` is then computed with
   * real git over its objects (any object it holds is served by id, as GitHub serves any commit of
   * a repository's network), and `GET /branches/{branch}` reports its branches and their tips.
   */
  setOrigin(path: string): void {
    this.origin = path;
  }

  /**
   * Makes `token` (one of the accepted tokens) read-only, as a job's `permissions: contents: read`
   * makes its GITHUB_TOKEN: writes get 403 and land in `refusedWrites`, except those matching one
   * of `allow` (tested against `"METHOD /path"`), e.g. the tracking comment under `issues: write`.
   */
  readOnlyToken(token: string, allow: RegExp[] = []): void {
    this.readOnlyTokens.set(token, allow);
  }

  /** EXTENSION POINT: serves more routes (see FakeGitHubOptions.extraRoutes). */
  addRoutes(routes: Route[]): void {
    this.extraRoutes.push(...routes);
  }

  get fullName(): string {
    return `${this.owner}/${this.repo}`;
  }

  get htmlBase(): string {
    return `https://github.com/${this.fullName}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `fake server error: ${String(err)}` }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  // ---- state set-up ----------------------------------------------------------------------

  user(login: string, type: FakeUser['type'] = login.endsWith('[bot]') ? 'Bot' : 'User'): FakeUser {
    let h = 0;
    for (const ch of login) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    return { login, id: (h % 9_000_000) + 1000, type };
  }

  setPermission(login: string, permission: string, roleName?: string): void {
    const legacy =
      ({ maintain: 'write', triage: 'read' } as Record<string, string>)[permission] ?? permission;
    this.permissions.set(login.toLowerCase(), { permission: legacy, role_name: roleName ?? permission });
  }

  addIssue(input: {
    title: string;
    body?: string | null;
    author?: string;
    labels?: string[];
    createdAt?: string;
  }): FakeIssue {
    const number = this.nextNumber++;
    const at = input.createdAt ?? this.stamp();
    const issue: FakeIssue = {
      number,
      title: input.title,
      body: input.body ?? null,
      user: this.user(input.author ?? 'alice'),
      state: 'open',
      labels: (input.labels ?? []).map((name) => ({ name })),
      created_at: at,
      updated_at: at,
      html_url: `${this.htmlBase}/issues/${number}`,
    };
    this.issues.set(number, issue);
    return issue;
  }

  addPull(input: {
    title: string;
    body?: string | null;
    author?: string;
    head: string;
    headSha?: string;
    base?: string;
    baseSha?: string;
    /** Owner/name of the head repository when the PR comes from a fork. */
    forkRepo?: string;
    createdAt?: string;
    /**
     * When GitHub received the push that made the head branch (its activity record); default
     * long before anything a test dates, as a branch is pushed before its PR is opened.
     */
    branchPushedAt?: string;
  }): FakePull {
    const issue = this.addIssue({
      title: input.title,
      body: input.body,
      author: input.author,
      createdAt: input.createdAt,
    });
    issue.html_url = `${this.htmlBase}/pull/${issue.number}`;
    issue.pull_request = {
      url: `${this.url}/repos/${this.fullName}/pulls/${issue.number}`,
      html_url: issue.html_url,
    };
    const pull: FakePull = {
      number: issue.number,
      title: input.title,
      body: input.body ?? null,
      user: issue.user,
      state: 'open',
      draft: false,
      head: this.ref(input.head, input.headSha ?? '0'.repeat(40), input.forkRepo),
      base: this.ref(input.base ?? this.defaultBranch, input.baseSha ?? '0'.repeat(40)),
      html_url: issue.html_url,
      created_at: issue.created_at,
      updated_at: issue.updated_at,
    };
    this.pulls.set(pull.number, pull);
    this.activity.push({
      repo: pull.head.repo.full_name,
      ref: `refs/heads/${input.head}`,
      before: '0'.repeat(40),
      after: pull.head.sha,
      timestamp: input.branchPushedAt ?? '2000-01-01T00:00:00Z',
      activity_type: 'branch_creation',
      actor: issue.user.login,
    });
    return pull;
  }

  addComment(
    issueNumber: number,
    input: { body: string; author?: string; createdAt?: string; updatedAt?: string },
  ): FakeComment {
    const id = this.nextId++;
    const at = input.createdAt ?? this.stamp();
    const comment: FakeComment = {
      id,
      node_id: `IC_${id}`,
      body: input.body,
      user: this.user(input.author ?? 'alice'),
      created_at: at,
      updated_at: input.updatedAt ?? at,
      html_url: `${this.htmlBase}/issues/${issueNumber}#issuecomment-${id}`,
      issue_url: `${this.url}/repos/${this.fullName}/issues/${issueNumber}`,
      url: `${this.url}/repos/${this.fullName}/issues/comments/${id}`,
      author_association: 'OWNER',
    };
    this.issueComments.push(comment);
    return comment;
  }

  addReviewComment(
    pullNumber: number,
    input: {
      body: string;
      author?: string;
      path: string;
      line?: number;
      diffHunk: string;
      commitId?: string;
      createdAt?: string;
      updatedAt?: string;
      /** the first comment of the thread this one answers */
      inReplyTo?: number;
    },
  ): FakeReviewComment {
    const id = this.nextId++;
    const at = input.createdAt ?? this.stamp();
    const comment: FakeReviewComment = {
      id,
      node_id: `PRRC_${id}`,
      body: input.body,
      user: this.user(input.author ?? 'alice'),
      created_at: at,
      updated_at: input.updatedAt ?? at,
      html_url: `${this.htmlBase}/pull/${pullNumber}#discussion_r${id}`,
      url: `${this.url}/repos/${this.fullName}/pulls/comments/${id}`,
      pull_request_url: `${this.url}/repos/${this.fullName}/pulls/${pullNumber}`,
      author_association: 'OWNER',
      pull_request_review_id: this.nextId++,
      path: input.path,
      line: input.line ?? null,
      original_line: input.line ?? null,
      start_line: null,
      side: 'RIGHT',
      diff_hunk: input.diffHunk,
      commit_id: input.commitId ?? '0'.repeat(40),
      ...(input.inReplyTo !== undefined ? { in_reply_to_id: input.inReplyTo } : {}),
    };
    this.reviewComments.push(comment);
    return comment;
  }

  /** A submitted review of a pull request, as `pull_request_review` reports it. */
  addReview(
    pullNumber: number,
    input: {
      body?: string | null;
      author?: string;
      state?: FakeReview['state'];
      commitId?: string;
      submittedAt?: string;
    },
  ): FakeReview {
    const id = this.nextId++;
    const review: FakeReview = {
      id,
      node_id: `PRR_${id}`,
      body: input.body ?? '',
      user: this.user(input.author ?? 'alice'),
      state: input.state ?? 'COMMENTED',
      html_url: `${this.htmlBase}/pull/${pullNumber}#pullrequestreview-${id}`,
      pull_request_url: `${this.url}/repos/${this.fullName}/pulls/${pullNumber}`,
      submitted_at: input.submittedAt ?? this.stamp(),
      commit_id: input.commitId ?? '0'.repeat(40),
      author_association: 'OWNER',
    };
    this.reviews.push(review);
    return review;
  }

  /** Registers a workflow run's jobs; `log` is served as that job's log text. */
  addWorkflowRun(
    runId: number,
    jobs: {
      name: string;
      conclusion: FakeJob['conclusion'];
      steps?: { name: string; conclusion: string | null }[];
      log?: string;
    }[],
  ): FakeJob[] {
    const made = jobs.map((j) => {
      const job: FakeJob = {
        id: this.nextId++,
        run_id: runId,
        name: j.name,
        status: 'completed',
        conclusion: j.conclusion,
        html_url: `${this.htmlBase}/actions/runs/${runId}/job/${this.nextId}`,
        steps: (j.steps ?? []).map((s, i) => ({
          name: s.name,
          number: i + 1,
          status: 'completed',
          conclusion: s.conclusion,
        })),
      };
      if (j.log !== undefined) this.jobLogs.set(job.id, j.log);
      return job;
    });
    this.jobs.set(runId, [...(this.jobs.get(runId) ?? []), ...made]);
    return made;
  }

  /** Registers a run of this repository's workflow `path` (default `.github/workflows/patchloop.yml`). */
  addRun(o: { id: number } & Partial<Omit<FakeRun, 'id'>>): FakeRun {
    const run: FakeRun = {
      path: '.github/workflows/patchloop.yml',
      event: 'issue_comment',
      headBranch: this.defaultBranch,
      headSha: '0'.repeat(40),
      startedAt: this.stamp(),
      ...o,
    };
    this.workflowRuns.set(run.id, run);
    return run;
  }

  /** A file the contents API serves at `ref` (a branch name or a commit sha). */
  setFile(ref: string, path: string, text: string): void {
    const tree = this.files.get(ref) ?? new Map<string, string>();
    tree.set(path, text);
    this.files.set(ref, tree);
  }

  protectBranch(name: string): void {
    this.protectedBranches.add(name);
  }

  /**
   * The PR's author pushes: the head moves to `sha` and the timeline gets a `committed` event
   * (or `head_ref_force_pushed`). `committedAt` is the commit's own date, which may lie.
   */
  pushToPull(
    number: number,
    input: { sha: string; force?: boolean; pushedAt?: string; committedAt?: string },
  ): void {
    const pull = this.pulls.get(number);
    if (!pull) throw new Error(`no pull request #${number}`);
    const pushedAt = input.pushedAt ?? this.stamp();
    this.activity.push({
      repo: pull.head.repo.full_name,
      ref: `refs/heads/${pull.head.ref}`,
      before: pull.head.sha,
      after: input.sha,
      timestamp: pushedAt,
      activity_type: input.force ? 'force_push' : 'push',
      actor: 'mallory',
    });
    pull.head.sha = input.sha;
    pull.updated_at = pushedAt;
    const list = this.headChanges.get(number) ?? [];
    list.push({
      kind: input.force ? 'head_ref_force_pushed' : 'committed',
      sha: input.sha,
      pushedAt,
      committedAt: input.committedAt ?? pushedAt,
    });
    this.headChanges.set(number, list);
  }

  // ---- faults and canned responses -------------------------------------------------------

  /** The next `times` requests matching `path` (and `method`) get `status` instead of an answer. */
  fail(fault: Omit<Fault, 'times'> & { times?: number }): void {
    this.faults.push({ times: 1, ...fault });
  }

  /** GitHub's secondary rate limit: 403 with `retry-after` (seconds). */
  secondaryRateLimit(
    path: RegExp,
    options: { method?: string; retryAfter?: number; times?: number } = {},
  ): void {
    this.fail({
      method: options.method,
      path,
      status: 403,
      times: options.times ?? 1,
      headers: { 'retry-after': String(options.retryAfter ?? 1) },
      body: {
        message: SECONDARY_RATE_LIMIT_MESSAGE,
        documentation_url:
          'https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits',
        status: '403',
      },
    });
  }

  /** The organisation setting that keeps GITHUB_TOKEN from opening PRs. */
  forbidPullRequestCreation(): void {
    this.fail({
      method: 'POST',
      path: /^\/repos\/[^/]+\/[^/]+\/pulls$/,
      status: 403,
      times: Infinity,
      body: {
        message: ACTIONS_MAY_NOT_CREATE_PRS,
        documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
        status: '403',
      },
    });
  }

  /**
   * The next request matching `method` and `path` waits for `before` (a test acting on GitHub at
   * that very moment of a run), then is answered as usual. With `match`, only a request it
   * accepts (by its query or body: which run sent it) is held.
   */
  hold(
    method: string,
    path: RegExp,
    before: () => Promise<void>,
    match?: (req: HeldRequest) => boolean,
  ): void {
    this.holds.push({ method, path, before, ...(match ? { match } : {}) });
  }

  /** Replaces the answer of a route with a handler of the test's own. */
  override(method: string, path: RegExp, handler: Handler): void {
    this.overrides.unshift({ method, path, handler });
  }

  // ---- queries for assertions -------------------------------------------------------------

  commentsOn(issueNumber: number): FakeComment[] {
    return this.issueComments.filter((c) => c.issue_url.endsWith(`/issues/${issueNumber}`));
  }

  requestsTo(method: string, path: RegExp): LoggedRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  // ---- the wire -----------------------------------------------------------------------------

  private stamp(): string {
    return this.now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
  }

  private ref(branch: string, sha: string, forkRepo?: string): FakeRef {
    const full = forkRepo ?? this.fullName;
    const [owner, name] = full.split('/') as [string, string];
    return {
      ref: branch,
      sha,
      label: `${owner}:${branch}`,
      repo: {
        full_name: full,
        name,
        owner: { login: owner },
        fork: forkRepo !== undefined,
        clone_url: `https://github.com/${full}.git`,
      },
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = undefined;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const at = Date.now();
    const send = (reply: Reply): void => {
      this.requests.push({
        method,
        path,
        query: url.searchParams,
        headers: req.headers,
        body,
        status: reply.status,
        at,
      });
      const headers: Record<string, string> = {
        'x-github-api-version-selected': '2022-11-28',
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '4999',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
        ...reply.headers,
      };
      if (reply.body === undefined) {
        res.writeHead(reply.status, headers);
        res.end();
      } else if (Buffer.isBuffer(reply.body)) {
        res.writeHead(reply.status, { 'content-type': 'application/octet-stream', ...headers });
        res.end(reply.body);
      } else if (typeof reply.body === 'string') {
        res.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
        res.end(reply.body);
      } else {
        res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(reply.body));
      }
    };

    // Signed image URLs and GitHub's image proxy need no token, as on GitHub.
    const image = await this.images.serve(path, url.searchParams);
    if (image) return send(image);

    // Log downloads are served from a separate (unauthenticated) location, as blob storage is.
    const logMatch = /^\/_logs\/jobs\/(\d+)$/.exec(path);
    if (logMatch) {
      const text = this.jobLogs.get(Number(logMatch[1]));
      return send(text === undefined ? notFound() : { status: 200, body: text });
    }

    const held = this.holds.findIndex(
      (h) =>
        h.method === method && h.path.test(path) && (!h.match || h.match({ query: url.searchParams, body })),
    );
    if (held !== -1) await this.holds.splice(held, 1)[0]!.before();

    const fault = this.faults.find(
      (f) => f.times > 0 && f.path.test(path) && (!f.method || f.method === method),
    );
    if (fault) {
      fault.times--;
      return send({
        status: fault.status,
        headers: fault.headers,
        body: fault.body ?? { message: `injected fault ${fault.status}`, status: String(fault.status) },
      });
    }

    const auth = req.headers.authorization ?? '';
    const token = auth.replace(/^(token|bearer)\s+/i, '');
    const user = this.tokens[token];
    if (!user) {
      return send({
        status: 401,
        body: {
          message: 'Bad credentials',
          documentation_url: 'https://docs.github.com/rest',
          status: '401',
        },
      });
    }
    // A token of a job with read-only permissions: any write not allowed for it is refused as
    // GitHub refuses it, and recorded.
    const readOnly = this.readOnlyTokens.get(token);
    // A GraphQL query is a read (a read-only token may ask it); a mutation is a write.
    const graphQlQuery =
      method === 'POST' &&
      path === '/graphql' &&
      !/^\s*mutation\b/.test(String((body as { query?: unknown } | undefined)?.query ?? ''));
    if (
      readOnly &&
      method !== 'GET' &&
      method !== 'HEAD' &&
      !graphQlQuery &&
      !readOnly.some((p) => p.test(`${method} ${path}`))
    ) {
      this.refusedWrites.push({ method, path });
      return send({
        status: 403,
        body: {
          message: 'Resource not accessible by integration',
          documentation_url: 'https://docs.github.com/rest',
          status: '403',
        },
      });
    }
    const parsed: ParsedRequest = {
      method,
      path,
      params: [],
      query: url.searchParams,
      body,
      user,
      headers: req.headers,
    };
    for (const o of this.overrides) {
      const m = o.method === method ? o.path.exec(path) : null;
      if (m) return send(await o.handler({ ...parsed, params: m.slice(1) }));
    }
    for (const [routeMethod, pattern, handler] of [...this.extraRoutes, ...this.routes()]) {
      if (routeMethod !== method) continue;
      const m = pattern.exec(path);
      if (!m) continue;
      // as GitHub does, a write missing a field its description requires (or of the wrong type) is a 422
      if (this.checkRequests && (method === 'POST' || method === 'PATCH' || method === 'PUT')) {
        const wrong = requestMismatches(method, path, body);
        if (wrong.length > 0) return send(invalid(`Invalid request: ${wrong.join('; ')}`));
      }
      return send(await handler({ ...parsed, params: m.slice(1) }));
    }
    send(notFound());
  }

  private routes(): [string, RegExp, Handler][] {
    const repo = `^/repos/${escapeRe(this.owner)}/${escapeRe(this.repo)}`;
    const r = (s: string): RegExp => new RegExp(`${repo}${s}$`, 'i');
    return [
      ['GET', r(''), () => ({ status: 200, body: this.repoWire() })],
      [
        'GET',
        r('/issues/(\\d+)'),
        (q) =>
          this.withIssue(q.params[0]!, (issue) => ({
            status: 200,
            body: this.full(q, this.issueWire(issue)),
          })),
      ],
      [
        'GET',
        r('/issues/(\\d+)/comments'),
        (q) => {
          // `since`: only those updated at or after it (GitHub: "last updated after the given time")
          const from = sinceOf(q);
          if (Number.isNaN(from)) return invalid('since is not a timestamp');
          return this.page(
            q,
            this.commentsOn(Number(q.params[0]))
              .filter((c) => Date.parse(c.updated_at) >= from)
              .map((c) => this.full(q, this.commentWire(c))),
          );
        },
      ],
      ['POST', r('/issues/(\\d+)/comments'), (q) => this.createComment(q)],
      // the repository's issue comments, oldest first; `since` keeps those updated at or after it
      [
        'GET',
        r('/issues/comments'),
        (q) => {
          const since = q.query.get('since');
          const from = since ? Date.parse(since) : -Infinity;
          if (Number.isNaN(from)) return invalid('since is not a timestamp');
          return this.page(
            q,
            this.issueComments
              .filter((c) => Date.parse(c.updated_at) >= from)
              .map((c) => this.full(q, this.commentWire(c))),
          );
        },
      ],
      [
        'GET',
        r('/issues/comments/(\\d+)'),
        (q) =>
          this.withComment(q.params[0]!, (c) => ({ status: 200, body: this.full(q, this.commentWire(c)) })),
      ],
      ['PATCH', r('/issues/comments/(\\d+)'), (q) => this.updateComment(q)],
      ['POST', r('/issues/comments/(\\d+)/reactions'), (q) => this.react(q, 'issue-comment')],
      ['POST', r('/issues/(\\d+)/reactions'), (q) => this.react(q, 'issue')],
      ['POST', r('/pulls/comments/(\\d+)/reactions'), (q) => this.react(q, 'review-comment')],
      [
        'GET',
        r('/pulls/(\\d+)'),
        async (q) => {
          // As GitHub does, the head of a PR opened through the API follows its branch on origin.
          const p = this.pulls.get(Number(q.params[0]!));
          if (p && this.origin && this.openedByApi.has(p.number)) {
            const tip = await this.commitOf(`refs/heads/${p.head.ref}`);
            if (tip) p.head.sha = tip;
          }
          return this.withPull(q.params[0]!, (x) => ({ status: 200, body: this.pullWire(x) }));
        },
      ],
      [
        'GET',
        r('/pulls/(\\d+)/comments'),
        (q) =>
          this.page(
            q,
            this.reviewComments
              .filter((c) => c.pull_request_url.endsWith(`/pulls/${q.params[0]}`))
              .filter((c) => Date.parse(c.updated_at) >= sinceOf(q))
              .map((c) => this.full(q, this.reviewCommentWire(c))),
          ),
      ],
      [
        'GET',
        r('/pulls/(\\d+)/reviews/(\\d+)'),
        (q) => {
          const review = this.reviews.find(
            (v) => v.id === Number(q.params[1]) && v.pull_request_url.endsWith(`/pulls/${q.params[0]}`),
          );
          return review ? { status: 200, body: this.full(q, this.reviewWire(review)) } : notFound();
        },
      ],
      [
        'GET',
        r('/pulls/(\\d+)/files'),
        (q) =>
          this.withPull(q.params[0]!, (p) =>
            this.page(
              q,
              (this.pullFiles.get(p.number) ?? []).map((f) => this.pullFileWire(f, p.head.sha)),
            ),
          ),
      ],
      [
        'GET',
        r('/pulls/(\\d+)/reviews'),
        (q) =>
          this.withPull(q.params[0]!, (p) =>
            this.page(
              q,
              this.reviews
                .filter((v) => v.pull_request_url.endsWith(`/pulls/${p.number}`))
                .map((v) => this.reviewWire(v)),
            ),
          ),
      ],
      ['POST', r('/pulls/(\\d+)/reviews'), (q) => this.createReview(q)],
      ['POST', r('/pulls/(\\d+)/comments'), (q) => this.createReplyComment(q)],
      ['GET', r('/pulls'), (q) => this.listPulls(q)],
      ['POST', r('/pulls'), (q) => this.createPull(q)],
      ['GET', r('/collaborators/([^/]+)/permission'), (q) => this.permission(q)],
      ['GET', r('/issues/(\\d+)/timeline'), (q) => this.timeline(q)],
      ['GET', /^\/repos\/([^/]+)\/([^/]+)\/activity$/i, (q) => this.activityOf(q)],
      ['GET', r('/branches/([^/]+)'), (q) => this.branch(q)],
      ['GET', r('/compare/([^/]+)'), (q) => this.compare(q)],
      ['GET', r('/contents/(.+)'), (q) => this.contents(q)],
      [
        'GET',
        r('/actions/runs/(\\d+)/jobs'),
        (q) =>
          this.page(
            q,
            (this.jobs.get(Number(q.params[0])) ?? []).map((j) => this.jobWire(j)),
            'jobs',
          ),
      ],
      [
        'GET',
        r('/actions/runs/(\\d+)/attempts/(\\d+)/jobs'),
        (q) =>
          this.page(
            q,
            (this.jobs.get(Number(q.params[0])) ?? []).map((j) => this.jobWire(j)),
            'jobs',
          ),
      ],
      ['GET', r('/actions/jobs/(\\d+)/logs'), (q) => this.jobLogRedirect(q)],
      ['GET', r('/actions/runs/(\\d+)'), (q) => this.workflowRun(q)],
      ['POST', /^\/graphql$/, (q) => this.graphql(q)],
    ];
  }

  /** `GET /repos/{owner}/{repo}/actions/runs/{run_id}`: 404 for a run this repository does not have. */
  private workflowRun(q: ParsedRequest): Reply {
    const run = this.workflowRuns.get(Number(q.params[0]));
    if (!run) return notFound();
    const api = `${this.url}/repos/${this.fullName}`;
    const runApi = `${api}/actions/runs/${run.id}`;
    const repo = this.repoWire();
    return {
      status: 200,
      body: {
        id: run.id,
        name: 'patchloop',
        node_id: `WFR_${run.id}`,
        head_branch: run.headBranch,
        head_sha: run.headSha,
        path: run.path,
        display_title: 'patchloop',
        run_number: run.id % 1000,
        run_attempt: 1,
        event: run.event,
        status: run.updatedAt ? 'completed' : 'in_progress',
        conclusion: run.updatedAt ? 'success' : null,
        workflow_id: 161335,
        check_suite_id: 40_000 + run.id,
        check_suite_node_id: `CS_${run.id}`,
        url: runApi,
        html_url: `${this.htmlBase}/actions/runs/${run.id}`,
        pull_requests: [],
        created_at: run.startedAt,
        updated_at: run.updatedAt ?? this.stamp(),
        run_started_at: run.startedAt,
        actor: this.userWire(ACTIONS_BOT),
        triggering_actor: this.userWire(ACTIONS_BOT),
        jobs_url: `${runApi}/jobs`,
        logs_url: `${runApi}/logs`,
        check_suite_url: `${api}/check-suites/${40_000 + run.id}`,
        artifacts_url: `${runApi}/artifacts`,
        cancel_url: `${runApi}/cancel`,
        rerun_url: `${runApi}/rerun`,
        previous_attempt_url: null,
        workflow_url: `${api}/actions/workflows/161335`,
        head_commit: {
          id: run.headSha,
          tree_id: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
          message: 'initial',
          timestamp: run.startedAt,
          author: { name: 'Test Author', email: 'author@example.com' },
          committer: { name: 'Test Author', email: 'author@example.com' },
        },
        repository: repo,
        head_repository: repo,
      },
    };
  }

  /** GraphQL, checked against GitHub's published schema (github-graphql.ts). */
  private graphql(q: ParsedRequest): Reply {
    return {
      status: 200,
      body: answerGraphQL(q.body, {
        viewerLogin: q.user.login,
        owner: this.owner,
        repo: this.repo,
        threadsOf: (number) =>
          this.reviewComments
            .filter((c) => c.pull_request_url.endsWith(`/pulls/${number}`) && c.in_reply_to_id === undefined)
            .map((c) => ({ firstCommentId: c.id, isResolved: this.resolvedThreads.has(c.id) })),
        resolve: (id) => {
          if (!this.reviewComments.some((c) => c.id === id && c.in_reply_to_id === undefined)) return false;
          this.resolvedThreads.add(id);
          return true;
        },
      }),
    };
  }

  // ---- the full shapes GitHub answers with (github-wire.ts) ---------------------------------

  private wireContext(): WireContext {
    return { api: this.url, web: 'https://github.com' };
  }

  /** With `Accept: application/vnd.github.full+json`, GitHub adds `body_html` and `body_text`. */
  private full(q: ParsedRequest, wire: Record<string, unknown>): Record<string, unknown> {
    return wantsFull(q.headers.accept) ? this.images.full(wire) : wire;
  }

  private userWire(u: FakeUser): Record<string, unknown> {
    return userWire(u, this.wireContext());
  }

  private repoWire(fullName = this.fullName): Record<string, unknown> {
    return repoWire(
      fullName,
      { defaultBranch: this.defaultBranch, fork: fullName !== this.fullName },
      this.wireContext(),
    );
  }

  private issueWire(issue: FakeIssue): Record<string, unknown> {
    const api = `${this.url}/repos/${this.fullName}`;
    const n = issue.number;
    return {
      ...issue,
      id: 100_000 + n,
      node_id: `I_${n}`,
      url: `${api}/issues/${n}`,
      repository_url: api,
      labels_url: `${api}/issues/${n}/labels{/name}`,
      comments_url: `${api}/issues/${n}/comments`,
      events_url: `${api}/issues/${n}/events`,
      user: this.userWire(issue.user),
      labels: issue.labels.map((l, i) => ({
        id: 200_000 + i,
        node_id: `LA_${i}`,
        url: `${api}/labels/${encodeURIComponent(l.name)}`,
        name: l.name,
        description: null,
        color: 'ededed',
        default: false,
      })),
      assignee: null,
      assignees: [],
      milestone: null,
      locked: false,
      active_lock_reason: null,
      comments: this.commentsOn(n).length,
      closed_at: null,
      author_association: 'OWNER',
      ...(issue.pull_request
        ? {
            pull_request: {
              ...issue.pull_request,
              diff_url: `${issue.html_url}.diff`,
              patch_url: `${issue.html_url}.patch`,
              merged_at: null,
            },
          }
        : {}),
    };
  }

  private commentWire(c: FakeComment): Record<string, unknown> {
    return { ...c, user: this.userWire(c.user) };
  }

  private reviewCommentWire(c: FakeReviewComment): Record<string, unknown> {
    const { lineText: _text, ...wire } = c;
    return {
      ...wire,
      user: this.userWire(c.user),
      original_commit_id: c.commit_id,
      _links: {
        self: { href: c.url },
        html: { href: c.html_url },
        pull_request: { href: c.pull_request_url },
      },
    };
  }

  private reviewWire(v: FakeReview): Record<string, unknown> {
    return {
      ...v,
      user: this.userWire(v.user),
      _links: { html: { href: v.html_url }, pull_request: { href: v.pull_request_url } },
    };
  }

  private pullFileWire(f: FakePullFile, sha: string): Record<string, unknown> {
    const path = f.filename.split('/').map(encodeURIComponent).join('/');
    return {
      sha: 'e'.repeat(40),
      ...f,
      changes: f.additions + f.deletions,
      blob_url: `${this.htmlBase}/blob/${sha}/${path}`,
      raw_url: `${this.htmlBase}/raw/${sha}/${path}`,
      contents_url: `${this.url}/repos/${this.fullName}/contents/${path}?ref=${sha}`,
    };
  }

  private refWire(ref: FakeRef): Record<string, unknown> {
    return {
      label: ref.label,
      ref: ref.ref,
      sha: ref.sha,
      user: this.userWire(this.user(ref.repo.owner.login)),
      repo: this.repoWire(ref.repo.full_name),
    };
  }

  private pullWire(p: FakePull): Record<string, unknown> {
    const api = `${this.url}/repos/${this.fullName}`;
    const n = p.number;
    const link = (href: string) => ({ href });
    return {
      ...p,
      id: 300_000 + n,
      node_id: `PR_${n}`,
      url: `${api}/pulls/${n}`,
      diff_url: `${p.html_url}.diff`,
      patch_url: `${p.html_url}.patch`,
      issue_url: `${api}/issues/${n}`,
      commits_url: `${api}/pulls/${n}/commits`,
      review_comments_url: `${api}/pulls/${n}/comments`,
      review_comment_url: `${api}/pulls/comments{/number}`,
      comments_url: `${api}/issues/${n}/comments`,
      statuses_url: `${api}/statuses/${p.head.sha}`,
      user: this.userWire(p.user),
      head: this.refWire(p.head),
      base: this.refWire(p.base),
      labels: [],
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      milestone: null,
      locked: false,
      closed_at: null,
      merged_at: null,
      merge_commit_sha: null,
      author_association: 'CONTRIBUTOR',
      auto_merge: null,
      merged: false,
      mergeable: null,
      mergeable_state: 'unknown',
      merged_by: null,
      maintainer_can_modify: false,
      comments: this.commentsOn(n).length,
      review_comments: this.reviewComments.filter((c) => c.pull_request_url.endsWith(`/pulls/${n}`)).length,
      commits: 1,
      additions: 0,
      deletions: 0,
      changed_files: 0,
      _links: {
        self: link(`${api}/pulls/${n}`),
        html: link(p.html_url),
        issue: link(`${api}/issues/${n}`),
        comments: link(`${api}/issues/${n}/comments`),
        review_comments: link(`${api}/pulls/${n}/comments`),
        review_comment: link(`${api}/pulls/comments{/number}`),
        commits: link(`${api}/pulls/${n}/commits`),
        statuses: link(`${api}/statuses/${p.head.sha}`),
      },
    };
  }

  private jobWire(j: FakeJob): Record<string, unknown> {
    const api = `${this.url}/repos/${this.fullName}`;
    const at = '2026-01-01T00:00:00Z';
    return {
      ...j,
      node_id: `CR_${j.id}`,
      run_url: `${api}/actions/runs/${j.run_id}`,
      url: `${api}/actions/jobs/${j.id}`,
      check_run_url: `${api}/check-runs/${j.id}`,
      head_sha: '0'.repeat(40),
      head_branch: this.defaultBranch,
      workflow_name: 'CI',
      created_at: at,
      started_at: at,
      completed_at: j.status === 'completed' ? at : null,
      labels: ['ubuntu-latest'],
      runner_id: 1,
      runner_name: 'GitHub Actions 1',
      runner_group_id: 1,
      runner_group_name: 'GitHub Actions',
      steps: j.steps.map((s) => ({ ...s, started_at: at, completed_at: at })),
    };
  }

  private repoJson(): Record<string, unknown> {
    return {
      id: 1296269,
      name: this.repo,
      full_name: this.fullName,
      owner: { login: this.owner, id: 1, type: 'Organization' },
      private: false,
      fork: false,
      default_branch: this.defaultBranch,
      html_url: this.htmlBase,
      clone_url: `${this.htmlBase}.git`,
    };
  }

  private page(q: ParsedRequest, items: unknown[], key?: string): Reply {
    const perPage = Math.min(100, Number(q.query.get('per_page') ?? 30) || 30);
    const page = Math.max(1, Number(q.query.get('page') ?? 1) || 1);
    const slice = items.slice((page - 1) * perPage, page * perPage);
    const headers: Record<string, string> = {};
    const last = Math.max(1, Math.ceil(items.length / perPage));
    if (page < last) {
      const next = new URL(`${this.url}${q.path}`);
      q.query.forEach((v, k) => next.searchParams.set(k, v));
      next.searchParams.set('page', String(page + 1));
      next.searchParams.set('per_page', String(perPage));
      const lastUrl = new URL(next);
      lastUrl.searchParams.set('page', String(last));
      headers.link = `<${next.toString()}>; rel="next", <${lastUrl.toString()}>; rel="last"`;
    }
    return { status: 200, headers, body: key ? { total_count: items.length, [key]: slice } : slice };
  }

  private withIssue(n: string, f: (issue: FakeIssue) => Reply): Reply {
    const issue = this.issues.get(Number(n));
    return issue ? f(issue) : notFound();
  }

  private withPull(n: string, f: (pull: FakePull) => Reply): Reply {
    const pull = this.pulls.get(Number(n));
    return pull ? f(pull) : notFound();
  }

  private withComment(id: string, f: (c: FakeComment) => Reply): Reply {
    const c = this.issueComments.find((x) => x.id === Number(id));
    return c ? f(c) : notFound();
  }

  private createComment(q: ParsedRequest): Reply {
    const n = Number(q.params[0]);
    if (!this.issues.has(n)) return notFound();
    const body = (q.body as { body?: unknown } | undefined)?.body;
    if (typeof body !== 'string') return invalid('body is missing');
    if (body.length > 65536) return invalid('Body is too long (maximum is 65536 characters)');
    const c = this.addComment(n, { body, author: q.user.login });
    c.user = q.user;
    c.author_association = 'NONE';
    return { status: 201, body: this.commentWire(c), headers: { location: c.url } };
  }

  private updateComment(q: ParsedRequest): Reply {
    return this.withComment(q.params[0]!, (c) => {
      const body = (q.body as { body?: unknown } | undefined)?.body;
      if (typeof body !== 'string') return invalid('body is missing');
      if (body.length > 65536) return invalid('Body is too long (maximum is 65536 characters)');
      c.body = body;
      c.updated_at = this.stamp();
      return { status: 200, body: this.commentWire(c) };
    });
  }

  private react(q: ParsedRequest, subject: 'issue' | 'issue-comment' | 'review-comment'): Reply {
    const id = Number(q.params[0]);
    const exists =
      subject === 'issue'
        ? this.issues.has(id)
        : subject === 'issue-comment'
          ? this.issueComments.some((c) => c.id === id)
          : this.reviewComments.some((c) => c.id === id);
    if (!exists) return notFound();
    const content = (q.body as { content?: unknown } | undefined)?.content;
    const allowed = ['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes'];
    if (typeof content !== 'string' || !allowed.includes(content))
      return invalid('content is not a valid reaction');
    const already = this.reactions.find(
      (r) => r.subject === subject && r.id === id && r.content === content && r.user === q.user.login,
    );
    if (!already) this.reactions.push({ subject, id, content, user: q.user.login });
    return {
      status: already ? 200 : 201,
      body: {
        id: this.nextId++,
        node_id: 'REA_x',
        user: this.userWire(q.user),
        content,
        created_at: this.stamp(),
      },
    };
  }

  private listPulls(q: ParsedRequest): Reply {
    const head = q.query.get('head');
    const base = q.query.get('base');
    const state = q.query.get('state') ?? 'open';
    const list = [...this.pulls.values()].filter(
      (p) =>
        (state === 'all' || p.state === state) &&
        (!head || p.head.label === head) &&
        (!base || p.base.ref === base),
    );
    return this.page(
      q,
      list.map((p) => this.pullWire(p)),
    );
  }

  private async createPull(q: ParsedRequest): Promise<Reply> {
    const b = (q.body ?? {}) as {
      title?: unknown;
      body?: unknown;
      head?: unknown;
      base?: unknown;
      draft?: unknown;
    };
    if (typeof b.head !== 'string' || typeof b.base !== 'string')
      return invalid('head and base are required');
    if (typeof b.title !== 'string' || b.title === '') return invalid('title is required');
    if (typeof b.body === 'string' && b.body.length > 65536)
      return invalid('body is too long (maximum is 65536 characters)');
    const headBranch = b.head.includes(':') ? b.head.split(':')[1]! : b.head;
    const label = b.head.includes(':') ? b.head : `${this.owner}:${b.head}`;
    const existing = [...this.pulls.values()].find(
      (p) => p.state === 'open' && p.head.label === label && p.base.ref === b.base,
    );
    if (existing) {
      return {
        status: 422,
        body: {
          message: 'Validation Failed',
          errors: [
            {
              resource: 'PullRequest',
              code: 'custom',
              message: `A pull request already exists for ${label}.`,
            },
          ],
          documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
          status: '422',
        },
      };
    }
    // As GitHub does, the PR's head is the branch's commit on origin (when the fake has one).
    const headSha = b.head.includes(':') ? undefined : await this.commitOf(`refs/heads/${headBranch}`);
    const pull = this.addPull({
      title: b.title,
      body: typeof b.body === 'string' ? b.body : null,
      author: q.user.login,
      head: headBranch,
      ...(headSha ? { headSha } : {}),
      base: b.base,
    });
    pull.user = q.user;
    pull.draft = b.draft === true;
    this.openedByApi.add(pull.number);
    return {
      status: 201,
      body: this.pullWire(pull),
      headers: { location: `${this.url}/repos/${this.fullName}/pulls/${pull.number}` },
    };
  }

  private permission(q: ParsedRequest): Reply {
    const login = decodeURIComponent(q.params[0]!);
    const p = this.permissions.get(login.toLowerCase());
    if (!p) {
      return {
        status: 404,
        body: {
          message: `${login} is not a user`,
          documentation_url: 'https://docs.github.com/rest',
          status: '404',
        },
      };
    }
    return {
      status: 200,
      body: {
        permission: p.permission,
        role_name: p.role_name,
        user: { ...this.userWire(this.user(login)), role_name: p.role_name },
      },
    };
  }

  /** The issue's comments and its PR's head changes, oldest first, as GitHub's timeline lists them. */
  private timeline(q: ParsedRequest): Reply {
    const n = Number(q.params[0]);
    if (!this.issues.has(n)) return notFound();
    const api = `${this.url}/repos/${this.fullName}`;
    const items: { at: string; order: number; item: unknown }[] = [];
    for (const c of this.commentsOn(n)) {
      items.push({
        at: c.created_at,
        order: c.id,
        item: { ...this.commentWire(c), event: 'commented', actor: this.userWire(c.user) },
      });
    }
    for (const [i, h] of (this.headChanges.get(n) ?? []).entries()) {
      const person = { name: 'Mallory', email: 'mallory@example.com', date: h.committedAt };
      const item =
        h.kind === 'committed'
          ? {
              event: 'committed',
              sha: h.sha,
              node_id: `C_${h.sha.slice(0, 8)}`,
              url: `${api}/git/commits/${h.sha}`,
              html_url: `${this.htmlBase}/commit/${h.sha}`,
              author: person,
              committer: person,
              message: 'more changes',
              tree: { sha: '4b825dc642cb6eb9a060e54bf8d69288fbee4904', url: `${api}/git/trees/4b825dc6` },
              parents: [],
              verification: {
                verified: false,
                reason: 'unsigned',
                signature: null,
                payload: null,
                verified_at: null,
              },
            }
          : {
              id: this.nextId++,
              node_id: `HRFPE_${i}`,
              url: `${api}/issues/events/${i}`,
              actor: this.userWire(this.user('mallory')),
              event: 'head_ref_force_pushed',
              commit_id: h.sha,
              commit_url: `${api}/commits/${h.sha}`,
              created_at: h.pushedAt,
              performed_via_github_app: null,
            };
      items.push({ at: h.pushedAt, order: Number.MAX_SAFE_INTEGER - 1000 + i, item });
    }
    items.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.order - b.order);
    return this.page(
      q,
      items.map((x) => x.item),
    );
  }

  /** A repository's pushes, newest first unless `direction=asc`, filtered by `ref`. */
  private activityOf(q: ParsedRequest): Reply {
    const full = `${decodeURIComponent(q.params[0]!)}/${decodeURIComponent(q.params[1]!)}`.toLowerCase();
    const known =
      full === this.fullName.toLowerCase() ||
      [...this.pulls.values()].some((p) => p.head.repo.full_name.toLowerCase() === full);
    if (!known) return notFound();
    const ref = q.query.get('ref');
    const wanted = ref ? (ref.startsWith('refs/') ? ref : `refs/heads/${ref}`) : undefined;
    const list = this.activity
      .map((a, i) => ({ a, i }))
      .filter(({ a }) => a.repo.toLowerCase() === full && (!wanted || a.ref === wanted))
      .sort((x, y) => Date.parse(x.a.timestamp) - Date.parse(y.a.timestamp) || x.i - y.i)
      .map(({ a, i }) => ({
        id: 9000 + i,
        node_id: `RA_${i}`,
        before: a.before,
        after: a.after,
        ref: a.ref,
        timestamp: a.timestamp,
        activity_type: a.activity_type,
        actor: this.userWire(this.user(a.actor)),
      }));
    if (q.query.get('direction') !== 'asc') list.reverse();
    return this.page(q, list);
  }

  private async branch(q: ParsedRequest): Promise<Reply> {
    const name = decodeURIComponent(q.params[0]!);
    const tip = this.origin ? await this.commitOf(`refs/heads/${name}`) : undefined;
    const known =
      tip !== undefined ||
      name === this.defaultBranch ||
      this.files.has(name) ||
      this.protectedBranches.has(name) ||
      [...this.pulls.values()].some((p) => p.head.ref === name || p.base.ref === name);
    if (!known)
      return {
        status: 404,
        body: {
          message: 'Branch not found',
          documentation_url: 'https://docs.github.com/rest/branches/branches#get-a-branch',
          status: '404',
        },
      };
    const api = `${this.url}/repos/${this.fullName}`;
    const sha = tip ?? [...this.pulls.values()].find((p) => p.head.ref === name)?.head.sha ?? '0'.repeat(40);
    const person = { name: 'Octo', email: 'octo@example.com', date: this.stamp() };
    const isProtected = this.protectedBranches.has(name);
    return {
      status: 200,
      body: {
        name,
        commit: {
          sha,
          node_id: `C_${sha.slice(0, 8)}`,
          url: `${api}/commits/${sha}`,
          html_url: `${this.htmlBase}/commit/${sha}`,
          comments_url: `${api}/commits/${sha}/comments`,
          commit: {
            url: `${api}/git/commits/${sha}`,
            author: person,
            committer: person,
            message: 'tip',
            comment_count: 0,
            tree: { sha: '4b825dc642cb6eb9a060e54bf8d69288fbee4904', url: `${api}/git/trees/4b825dc6` },
          },
          author: this.userWire(this.user('octo')),
          committer: this.userWire(this.user('octo')),
          parents: [],
        },
        _links: {
          html: `${this.htmlBase}/tree/${name}`,
          self: `${api}/branches/${encodeURIComponent(name)}`,
        },
        protected: isProtected,
        protection: {
          enabled: isProtected,
          required_status_checks: { enforcement_level: 'off', contexts: [], checks: [] },
        },
        protection_url: `${api}/branches/${encodeURIComponent(name)}/protection`,
      },
    };
  }

  // ---- the compare route, answered by real git over the origin (setOrigin) -------------------

  private async gitIn(args: string[], raw = false): Promise<string> {
    return new Promise((resolve, reject) =>
      execFile('git', args, { cwd: this.origin, maxBuffer: 16 << 20 }, (err, stdout) =>
        err ? reject(err) : resolve(raw ? stdout : stdout.trim()),
      ),
    );
  }

  /** The commit a name (a sha, `refs/heads/x`, a branch) resolves to in the origin, or undefined. */
  private async commitOf(name: string): Promise<string | undefined> {
    if (!this.origin || name.startsWith('-') || name.includes(':')) return undefined;
    return this.gitIn(['rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`]).catch(
      () => undefined,
    );
  }

  /** A commit as the REST API describes one (schema `commit`), read from the origin. */
  private async commitWire(sha: string): Promise<Record<string, unknown>> {
    const [tree, parents, an, ae, ad, cn, ce, cd, ...message] = (
      await this.gitIn([
        'show',
        '-s',
        '--format=%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B',
        sha,
      ])
    ).split('\0');
    const api = `${this.url}/repos/${this.fullName}`;
    return {
      sha,
      node_id: `C_${sha.slice(0, 12)}`,
      url: `${api}/commits/${sha}`,
      html_url: `${this.htmlBase}/commit/${sha}`,
      comments_url: `${api}/commits/${sha}/comments`,
      commit: {
        url: `${api}/git/commits/${sha}`,
        author: { name: an, email: ae, date: ad },
        committer: { name: cn, email: ce, date: cd },
        message: message.join('\0').trim(),
        comment_count: 0,
        tree: { sha: tree, url: `${api}/git/trees/${tree}` },
        verification: {
          verified: false,
          reason: 'unsigned',
          signature: null,
          payload: null,
          verified_at: null,
        },
      },
      // GitHub's account for the commit's e-mail (null when none matches)
      author: this.userWire(this.user(an || 'octo')),
      committer: this.userWire(this.user(cn || 'octo')),
      parents: (parents ?? '')
        .split(' ')
        .filter(Boolean)
        .map((p) => ({ sha: p, url: `${api}/commits/${p}`, html_url: `${this.htmlBase}/commit/${p}` })),
    };
  }

  /**
   * `GET /compare/{base}...{head}` as GitHub answers it: `status` ahead, behind, identical or
   * diverged with `ahead_by`/`behind_by` and the merge base, from `git merge-base` and `git
   * rev-list --count` over the origin; 404 when either side is unknown or they share no history.
   */
  private async compare(q: ParsedRequest): Promise<Reply> {
    if (!this.origin)
      return {
        status: 500,
        body: { message: 'the fake GitHub was given no origin (setOrigin) to compare in' },
      };
    const basehead = decodeURIComponent(q.params[0]!);
    const at = basehead.indexOf('...');
    if (at <= 0) return notFound();
    const [baseName, headName] = [basehead.slice(0, at), basehead.slice(at + 3)];
    const [base, head] = await Promise.all([this.commitOf(baseName), this.commitOf(headName)]);
    if (!base || !head) return notFound();
    const mergeBase = await this.gitIn(['merge-base', base, head]).catch(() => undefined);
    if (!mergeBase)
      return {
        status: 404,
        body: {
          message: `No common ancestor between ${baseName} and ${headName}.`,
          documentation_url: 'https://docs.github.com/rest/commits/commits#compare-two-commits',
          status: '404',
        },
      };
    const count = async (range: string) => Number(await this.gitIn(['rev-list', '--count', range]));
    const [ahead, behind] = await Promise.all([count(`${base}..${head}`), count(`${head}..${base}`)]);
    const status =
      ahead === 0 && behind === 0
        ? 'identical'
        : behind === 0
          ? 'ahead'
          : ahead === 0
            ? 'behind'
            : 'diverged';
    const perPage = Math.min(Math.max(Number(q.query.get('per_page') ?? 250) || 250, 1), 250);
    const page = Math.max(Number(q.query.get('page') ?? 1) || 1, 1);
    const listed = ahead
      ? (await this.gitIn(['rev-list', '--reverse', `${base}..${head}`]))
          .split('\n')
          .slice((page - 1) * perPage, page * perPage)
      : [];
    const html = `${this.htmlBase}/compare/${baseName}...${headName}`;
    return {
      status: 200,
      body: {
        url: `${this.url}/repos/${this.fullName}/compare/${baseName}...${headName}`,
        html_url: html,
        permalink_url: `${this.htmlBase}/compare/${this.owner}:${base.slice(0, 7)}...${this.owner}:${head.slice(0, 7)}`,
        diff_url: `${html}.diff`,
        patch_url: `${html}.patch`,
        base_commit: await this.commitWire(base),
        merge_base_commit: await this.commitWire(mergeBase),
        status,
        ahead_by: ahead,
        behind_by: behind,
        total_commits: ahead,
        commits: await Promise.all(listed.map((c) => this.commitWire(c))),
        // GitHub lists the files of the merge base's diff with the head, at most 300 (and only on
        // the first page of a paged compare)
        files:
          page === 1
            ? (await this.diffEntries(mergeBase, head))
                .slice(0, COMPARE_FILES_MAX)
                .map((f) => this.pullFileWire(f, head))
            : [],
      },
    };
  }

  /**
   * The files of `git diff from to` as GitHub's diff entries (`diff-entry`): status, counts and
   * each file's `patch` (its hunks, without the `diff --git` and `---`/`+++` lines; none for a
   * binary file), computed by real git over the origin.
   */
  async diffEntries(from: string, to: string): Promise<FakePullFile[]> {
    const status = (await this.gitIn(['diff', '--name-status', '-z', '-M', from, to])).split('\0');
    const numstat = (await this.gitIn(['diff', '--numstat', '-z', '-M', from, to])).split('\0');
    const counts = new Map<string, [number, number]>();
    // -z numstat: "A\tD\tpath" or, for a rename, "A\tD\t" then the old and the new path
    for (let i = 0; i < numstat.length; i++) {
      const m = /^(\d+|-)\t(\d+|-)\t(.*)$/.exec(numstat[i]!);
      if (!m) continue;
      let path = m[3]!;
      if (path === '') {
        path = numstat[i + 2]!;
        i += 2;
      }
      counts.set(path, [m[1] === '-' ? 0 : Number(m[1]), m[2] === '-' ? 0 : Number(m[2])]);
    }
    const names: Record<string, FakePullFile['status']> = {
      A: 'added',
      D: 'removed',
      M: 'modified',
      R: 'renamed',
      C: 'copied',
      T: 'changed',
    };
    const out: FakePullFile[] = [];
    for (let i = 0; i < status.length; i++) {
      const code = status[i];
      if (!code) continue;
      const kind = names[code[0]!] ?? 'modified';
      const previous = kind === 'renamed' || kind === 'copied' ? status[++i] : undefined;
      const filename = status[++i]!;
      const diff = await this.gitIn(
        ['diff', '-M', from, to, '--', ...(previous ? [previous] : []), filename],
        true,
      );
      const at = diff.indexOf('\n@@');
      const [additions, deletions] = counts.get(filename) ?? [0, 0];
      out.push({
        filename,
        status: kind,
        additions,
        deletions,
        // GitHub's patch ends without the diff's last newline
        ...(at >= 0 ? { patch: diff.slice(at + 1).replace(/\n$/, '') } : {}),
        ...(previous ? { previous_filename: previous } : {}),
      });
    }
    return out;
  }

  /**
   * The PR's files are now those of `git diff base...head` over the origin (GitHub's own diff of a
   * pull request: from the merge base), as after a push.
   */
  async syncPullFiles(number: number, base: string, head: string): Promise<FakePullFile[]> {
    const [b, h] = await Promise.all([this.commitOf(base), this.commitOf(head)]);
    if (!b || !h) throw new Error(`syncPullFiles: ${base} or ${head} is not in the origin`);
    const files = await this.diffEntries(await this.gitIn(['merge-base', b, h]), h);
    this.setPullFiles(number, files);
    return files;
  }

  /** A file's bytes with the raw media type, or the content-file object (base64) otherwise. */
  private contents(q: ParsedRequest): Reply {
    const path = q.params[0]!.split('/').map(decodeURIComponent).join('/');
    const ref = q.query.get('ref') ?? this.defaultBranch;
    const text = this.files.get(ref)?.get(path);
    if (text === undefined) return notFound();
    const accept = String(q.headers.accept ?? '');
    if (/application\/vnd\.github(?:\.v3)?\.raw/i.test(accept)) return { status: 200, body: text };
    const api = `${this.url}/repos/${this.fullName}`;
    const sha = 'f'.repeat(40);
    return {
      status: 200,
      body: {
        type: 'file',
        encoding: 'base64',
        size: Buffer.byteLength(text),
        name: path.split('/').pop(),
        path,
        content: Buffer.from(text).toString('base64'),
        sha,
        url: `${api}/contents/${path}?ref=${ref}`,
        git_url: `${api}/git/blobs/${sha}`,
        html_url: `${this.htmlBase}/blob/${ref}/${path}`,
        download_url: `https://raw.githubusercontent.com/${this.fullName}/${ref}/${path}`,
        _links: {
          self: `${api}/contents/${path}?ref=${ref}`,
          git: `${api}/git/blobs/${sha}`,
          html: `${this.htmlBase}/blob/${ref}/${path}`,
        },
      },
    };
  }

  /**
   * The PR's diff is now `files` (its author pushed): GitHub keeps a review thread on its line
   * while that line's text is unchanged, and marks it outdated (`line: null`) otherwise.
   */
  setPullFiles(number: number, files: FakePullFile[]): void {
    this.pullFiles.set(number, files);
    for (const c of this.reviewComments) {
      if (!c.pull_request_url.endsWith(`/pulls/${number}`) || c.line === null || c.in_reply_to_id) continue;
      const now = rightLines(files, c.path).get(c.line);
      if (c.lineText === undefined || now !== c.lineText) c.line = null;
    }
  }

  // POST /pulls/{n}/reviews: GitHub places every comment before it keeps anything; one that is
  // not on a line of the diff fails the whole review with 422 ("Line could not be resolved").
  private createReview(q: ParsedRequest): Reply {
    return this.withPull(q.params[0]!, (p) => {
      const b = (q.body ?? {}) as {
        body?: unknown;
        event?: unknown;
        commit_id?: unknown;
        comments?: {
          path?: unknown;
          line?: unknown;
          start_line?: unknown;
          side?: unknown;
          body?: unknown;
        }[];
      };
      const doc = 'https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request';
      const unprocessable = (errors: string[]): Reply => ({
        status: 422,
        body: { message: 'Unprocessable Entity', errors, documentation_url: doc, status: '422' },
      });
      if (b.event === 'APPROVE' && q.user.login === ACTIONS_BOT.login)
        return unprocessable([ACTIONS_MAY_NOT_CREATE_PRS.replace('create or approve', 'approve')]);
      if (b.event !== undefined && !['COMMENT', 'APPROVE', 'REQUEST_CHANGES'].includes(String(b.event)))
        return invalid('event is not one of APPROVE, REQUEST_CHANGES, COMMENT');
      const files = this.pullFiles.get(p.number) ?? [];
      const placed: {
        path: string;
        line: number;
        startLine: number | null;
        body: string;
        hunk: string;
        text: string;
      }[] = [];
      for (const c of b.comments ?? []) {
        if (typeof c.path !== 'string' || typeof c.body !== 'string' || typeof c.line !== 'number')
          return invalid('comments need path, line and body');
        const file = files.find((f) => f.filename === c.path);
        if (!file) return unprocessable(['Path could not be resolved']);
        const hunks = hunksOf(file.patch ?? '');
        const hunk = hunks.find((h) => h.right.has(c.line as number));
        if (!hunk) return unprocessable(['Line could not be resolved']);
        if (typeof c.start_line === 'number' && !hunk.right.has(c.start_line))
          return unprocessable(['Start line could not be resolved']);
        placed.push({
          path: c.path,
          line: c.line,
          startLine: typeof c.start_line === 'number' ? c.start_line : null,
          body: c.body,
          hunk: hunk.text,
          text: hunk.right.get(c.line)!,
        });
      }
      const review = this.addReview(p.number, {
        body: typeof b.body === 'string' ? b.body : '',
        state:
          b.event === 'APPROVE'
            ? 'APPROVED'
            : b.event === 'REQUEST_CHANGES'
              ? 'CHANGES_REQUESTED'
              : 'COMMENTED',
        commitId: typeof b.commit_id === 'string' ? b.commit_id : p.head.sha,
      });
      review.user = q.user;
      review.author_association = 'NONE';
      for (const c of placed) {
        const made = this.addReviewComment(p.number, {
          body: c.body,
          path: c.path,
          line: c.line,
          diffHunk: c.hunk,
          commitId: review.commit_id,
        });
        made.user = q.user;
        made.pull_request_review_id = review.id;
        made.start_line = c.startLine;
        made.lineText = c.text;
      }
      return { status: 200, body: this.reviewWire(review) };
    });
  }

  // POST /pulls/{n}/comments with in_reply_to: a reply in the thread of a top-level comment.
  private createReplyComment(q: ParsedRequest): Reply {
    return this.withPull(q.params[0]!, (p) => {
      const b = (q.body ?? {}) as { body?: unknown; in_reply_to?: unknown };
      if (typeof b.body !== 'string') return invalid('body is missing');
      if (typeof b.in_reply_to !== 'number')
        return invalid('only replies (in_reply_to) are served by this fake');
      const root = this.reviewComments.find(
        (c) => c.id === b.in_reply_to && c.pull_request_url.endsWith(`/pulls/${p.number}`),
      );
      if (!root) return notFound();
      if (root.in_reply_to_id !== undefined) return invalid('in_reply_to must be a top-level comment');
      const made = this.addReviewComment(p.number, {
        body: b.body,
        path: root.path,
        line: root.line ?? undefined,
        diffHunk: root.diff_hunk,
        commitId: root.commit_id,
        inReplyTo: root.id,
      });
      made.user = q.user;
      made.line = root.line;
      return { status: 201, body: this.reviewCommentWire(made), headers: { location: made.url } };
    });
  }

  private jobLogRedirect(q: ParsedRequest): Reply {
    const id = Number(q.params[0]);
    if (!this.jobLogs.has(id)) return notFound();
    return { status: 302, headers: { location: `${this.url}/_logs/jobs/${id}` } };
  }
}

function notFound(): Reply {
  return {
    status: 404,
    body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' },
  };
}

function invalid(message: string): Reply {
  return {
    status: 422,
    body: {
      message: 'Validation Failed',
      errors: [{ message }],
      documentation_url: 'https://docs.github.com/rest',
      status: '422',
    },
  };
}

/** The hunks of a unified-diff patch: their text and right-side line → text. */
function hunksOf(patch: string): { text: string; right: Map<number, string> }[] {
  const hunks: { text: string; right: Map<number, string> }[] = [];
  let right = 0;
  let current: { lines: string[]; right: Map<number, string> } | undefined;
  const done = () => current && hunks.push({ text: current.lines.join('\n'), right: current.right });
  for (const line of patch.replace(/\n$/, '').split('\n')) {
    const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (m) {
      done();
      current = { lines: [line], right: new Map() };
      right = Number(m[1]);
      continue;
    }
    if (!current) continue;
    current.lines.push(line);
    if (line.startsWith('+') || line.startsWith(' ')) current.right.set(right++, line.slice(1));
  }
  done();
  return hunks;
}

function rightLines(files: FakePullFile[], path: string): Map<number, string> {
  const all = new Map<number, string>();
  for (const h of hunksOf(files.find((f) => f.filename === path)?.patch ?? ''))
    for (const [n, t] of h.right) all.set(n, t);
  return all;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A listing's `since` (ISO 8601) in ms; -Infinity without one, NaN for one that is not a time. */
function sinceOf(q: ParsedRequest): number {
  const since = q.query.get('since');
  return since ? Date.parse(since) : -Infinity;
}

export async function startFakeGitHub(options?: FakeGitHubOptions): Promise<FakeGitHub> {
  return new FakeGitHub(options).start();
}
