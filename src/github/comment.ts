// The run's single comment: created at the start, edited as the run goes (throttled and
// serialised), edited at the end into the summary.
import type { GitHubClient, LogSink } from './octokit.js';
import { describeGitHubError, statusOf } from './octokit.js';
import { TRACKING_MARKER } from './context/trigger.js';
import { neutralizeHiddenMarkup } from '../report/hidden-markup.js';

/** GitHub refuses comment bodies longer than this many characters. */
export const COMMENT_LIMIT = 65_536;

export interface TrackingCommentOptions {
  github: GitHubClient;
  owner: string;
  repo: string;
  issueNumber: number;
  /** least time between two progress edits (default 3000 ms); the final edit does not wait */
  minIntervalMs?: number;
  /** applied to every body before it leaves the process */
  redact?: (text: string) => string;
  log?: LogSink;
  now?: () => number;
}

/**
 * What a later run needs to continue this run's session (CONTRACT §5, following up), kept in a
 * hidden comment at the very end of the tracking comment (after the tracking marker) and of the PR
 * body. Trusted only as that trailer, on comments by the identity that posts patchloop's own
 * comments, and once the earlier run it names is confirmed (github/follow-up.ts): anyone can
 * paste a marker, and a command can name a file like one.
 */
export interface SessionMarker {
  runId: string;
  sessionId: string;
  branch?: string;
  artifactId?: number;
  artifactName?: string;
  /** the run's estimated cost in USD, for the daily budgets (CONTRACT §13); absent while working or unpriced */
  costUsd?: number;
  /** who asked (a login), for the requester's daily budget */
  requester?: string;
  /** the run ended with a plan (conclusion `planned`): `approve` may continue it (CONTRACT §13) */
  planned?: true;
  /**
   * Joining (CONTRACT §13): `working` while the agent loop runs, `done` once it ended and the run
   * is delivering; absent on the final summary (and on markers of runs before joining existed).
   */
  loop?: 'working' | 'done';
  /** the ids of the late issue comments the running agent took as requests (joining) */
  joined?: number[];
  /** the ids of the late pull-request review comments it took */
  joinedReview?: number[];
}

/** The most ids a marker lists per kind (the marker's text is bounded). */
export const MAX_JOINED_IDS = 60;

const SESSION_MARKER = /<!-- patchloop:session ([A-Za-z0-9_-]{1,4000}) -->/;
/** The trailer: the marker alone on the body's last line. */
const SESSION_TRAILER = new RegExp(`\n${SESSION_MARKER.source}$`);
const MARKER_KEYS: ReadonlySet<string> = new Set([
  'runId',
  'sessionId',
  'branch',
  'artifactId',
  'artifactName',
  'costUsd',
  'requester',
  'planned',
  'loop',
  'joined',
  'joinedReview',
]);

/** The hidden session marker: base64url JSON, so no branch name can end the HTML comment early. */
export function sessionMarkerText(m: SessionMarker): string {
  return `<!-- patchloop:session ${Buffer.from(JSON.stringify(m), 'utf8').toString('base64url')} -->`;
}

/**
 * The session marker a body ends with, when it ends with a well-formed one. Whatever comes before
 * the last line is ignored: the summary above it echoes file names, the final message and the
 * tool log, which may hold text shaped like a marker (they are neutralised too, see
 * report/hidden-markup.ts, but the reader does not count on it).
 */
export function readSessionMarker(body: string | null | undefined): SessionMarker | undefined {
  const match = body ? SESSION_TRAILER.exec(`\n${body.replace(/\r\n?/g, '\n').trimEnd()}`) : null;
  if (!match) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (Object.keys(v).some((k) => !MARKER_KEYS.has(k))) return undefined;
  const str = (x: unknown): x is string => typeof x === 'string' && x.length > 0 && x.length <= 255;
  const absentOr = (x: unknown, ok: (x: unknown) => boolean) => x === undefined || ok(x);
  if (!str(v.runId) || !/^\d{1,20}$/.test(v.runId) || !str(v.sessionId)) return undefined;
  const artifactId = (x: unknown) => typeof x === 'number' && Number.isSafeInteger(x) && x > 0;
  const cost = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x >= 0;
  const ids = (x: unknown) =>
    Array.isArray(x) && x.length <= MAX_JOINED_IDS && x.every((id) => artifactId(id));
  if (
    !absentOr(v.branch, str) ||
    !absentOr(v.artifactName, str) ||
    !absentOr(v.artifactId, artifactId) ||
    !absentOr(v.costUsd, cost) ||
    !absentOr(v.requester, str) ||
    !absentOr(v.planned, (x) => x === true) ||
    !absentOr(v.loop, (x) => x === 'working' || x === 'done') ||
    !absentOr(v.joined, ids) ||
    !absentOr(v.joinedReview, ids)
  )
    return undefined;
  const m: SessionMarker = { runId: v.runId, sessionId: v.sessionId };
  if (v.branch !== undefined) m.branch = v.branch as string;
  if (v.artifactId !== undefined) m.artifactId = v.artifactId as number;
  if (v.artifactName !== undefined) m.artifactName = v.artifactName as string;
  if (v.costUsd !== undefined) m.costUsd = v.costUsd as number;
  if (v.requester !== undefined) m.requester = v.requester as string;
  if (v.planned === true) m.planned = true;
  if (v.loop !== undefined) m.loop = v.loop as 'working' | 'done';
  if (v.joined !== undefined) m.joined = [...(v.joined as number[])];
  if (v.joinedReview !== undefined) m.joinedReview = [...(v.joinedReview as number[])];
  return m;
}

/** Removes both markers (for quoting an earlier summary). */
export function withoutMarkers(body: string): string {
  return body.replace(new RegExp(SESSION_MARKER.source, 'g'), '').replaceAll(TRACKING_MARKER, '').trim();
}

/**
 * What a comment carries besides its text: a visible footer kept under every edit (a sticky
 * review summary's history), and hidden markers of patchloop's own placed after the tracking
 * marker, before the session marker (which stays the last line).
 */
export interface CommentExtras {
  footer?: string;
  /** patchloop's own hidden markers, written as they are (never text from elsewhere) */
  hidden?: string;
}

/**
 * Adds the marker that keeps the run's own comment from triggering a run and, last, the session
 * marker; keeps the length legal (the text is cut, never the footer or the markers). Everything
 * above the markers is redacted and holds no `<!`.
 */
export function commentBody(
  text: string,
  redact?: (text: string) => string,
  marker?: SessionMarker,
  extras?: CommentExtras,
): string {
  const shown = (t: string) => neutralizeHiddenMarkup(redact ? redact(t) : t);
  const clean = shown(text);
  const foot = extras?.footer ? `\n\n${shown(extras.footer)}` : '';
  const tail = `${TRACKING_MARKER}${extras?.hidden ? `\n${extras.hidden}` : ''}${marker ? `\n${sessionMarkerText(marker)}` : ''}`;
  const marked = `${clean}${foot}\n\n${tail}`;
  if (marked.length <= COMMENT_LIMIT) return marked;
  const note = '\n\n[… cut to fit GitHub’s comment limit]';
  const room = Math.max(0, COMMENT_LIMIT - note.length - foot.length - tail.length - 2);
  return `${clean.slice(0, room)}${note}${foot}\n\n${tail}`.slice(0, COMMENT_LIMIT);
}

export class TrackingComment {
  /** the comment's id and address: those of the summary posted anew when the first was deleted */
  private currentId: number;
  private currentUrl: string;
  /** the login that posted it: the identity whose earlier markers are trusted */
  readonly author?: string;
  /** the session marker every later edit carries */
  marker?: SessionMarker;
  /** the footer and hidden markers every later edit carries */
  extras?: CommentExtras;
  /** number of edits written (progress and final) */
  edits = 0;
  lastError?: string;
  private readonly interval: number;
  private readonly now: () => number;
  private lastWriteAt: number;
  private lastBody: string;
  /** the latest progress text asked for (a marker change is written with it) */
  private text: string;
  private pending?: string;
  private inFlight?: Promise<void>;
  private timer?: ReturnType<typeof setTimeout>;
  private closed = false;

  private constructor(
    private readonly options: TrackingCommentOptions,
    id: number,
    url: string,
    body: string,
    text: string,
    author: string | undefined,
    marker: SessionMarker | undefined,
  ) {
    this.text = text;
    this.currentId = id;
    this.currentUrl = url;
    this.author = author;
    this.marker = marker;
    this.interval = options.minIntervalMs ?? 3000;
    this.now = options.now ?? Date.now;
    this.lastWriteAt = this.now();
    this.lastBody = body;
  }

  get id(): number {
    return this.currentId;
  }

  get url(): string {
    return this.currentUrl;
  }

  /** Posts the comment. Throws an Error whose message names the missing permission. */
  static async create(
    options: TrackingCommentOptions,
    text: string,
    marker?: SessionMarker,
    extras?: CommentExtras,
  ): Promise<TrackingComment> {
    const body = commentBody(text, options.redact, marker, extras);
    try {
      const { data } = await options.github.rest.issues.createComment({
        owner: options.owner,
        repo: options.repo,
        issue_number: options.issueNumber,
        body,
      });
      const made = new TrackingComment(options, data.id, data.html_url, body, text, data.user?.login, marker);
      made.extras = extras;
      return made;
    } catch (err) {
      throw new Error(
        describeGitHubError(err, 'comment', `Creating the tracking comment on #${options.issueNumber}`),
        {
          cause: err,
        },
      );
    }
  }

  /**
   * Takes over an earlier comment of patchloop's own (a sticky review summary) instead of posting
   * one: edits it into `text` with `extras`. A comment deleted since is posted anew; a refused edit
   * throws as create does.
   */
  static async adopt(
    options: TrackingCommentOptions,
    existing: { id: number; url: string; author: string },
    text: string,
    marker?: SessionMarker,
    extras?: CommentExtras,
  ): Promise<TrackingComment> {
    const body = commentBody(text, options.redact, marker, extras);
    const comment = new TrackingComment(
      options,
      existing.id,
      existing.url,
      '',
      text,
      existing.author,
      marker,
    );
    comment.extras = extras;
    if (await comment.write(body, true)) return comment;
    throw new Error(comment.lastError ?? `Editing the comment ${existing.url} failed`);
  }

  /**
   * A tracking comment posted earlier (by the agent job of this run), taken on to be edited into
   * the summary; the caller has checked it is this run's own.
   */
  static resume(
    options: TrackingCommentOptions,
    comment: { id: number; url: string; body: string; author?: string },
    marker?: SessionMarker,
  ): TrackingComment {
    return new TrackingComment(options, comment.id, comment.url, comment.body, '', comment.author, marker);
  }

  /** Asks for a progress edit. Returns at once; only the latest text is written, at most once per interval. */
  update(text: string): void {
    if (this.closed) return;
    this.pending = text;
    this.text = text;
    this.schedule();
  }

  /**
   * A new session marker, written with the next progress edit (at most once per interval, like
   * any): a later run reads it (joining, CONTRACT §13).
   */
  remark(marker: SessionMarker): void {
    if (this.closed) return;
    this.marker = marker;
    this.pending ??= this.text;
    this.schedule();
  }

  /** The final edit: waits for an edit in flight, then writes `text`. False when GitHub refused it. */
  async finish(text: string): Promise<boolean> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
    await this.inFlight;
    return this.write(commentBody(text, this.options.redact, this.marker, this.extras), true);
  }

  private schedule(): void {
    if (this.inFlight || this.timer || this.pending === undefined) return;
    const wait = this.lastWriteAt + this.interval - this.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, wait);
      return;
    }
    this.flush();
  }

  private flush(): void {
    if (this.closed || this.pending === undefined) return;
    const body = commentBody(this.pending, this.options.redact, this.marker, this.extras);
    this.pending = undefined;
    if (body === this.lastBody) return;
    this.inFlight = this.write(body, false).then(() => {
      this.inFlight = undefined;
      this.schedule();
    });
  }

  private async write(body: string, final: boolean): Promise<boolean> {
    const { github, owner, repo, log } = this.options;
    try {
      await github.rest.issues.updateComment({ owner, repo, comment_id: this.id, body });
      this.edits++;
      this.lastBody = body;
      return true;
    } catch (err) {
      this.lastError = describeGitHubError(err, 'comment', `Editing the tracking comment ${this.url}`);
      log?.warning(this.lastError);
      if (final && statusOf(err) === 404) return this.repost(body);
      return false;
    } finally {
      this.lastWriteAt = this.now();
    }
  }

  /** Someone deleted the comment mid-run: the summary still gets posted, as a new comment. */
  private async repost(body: string): Promise<boolean> {
    const { github, owner, repo, issueNumber, log } = this.options;
    try {
      const { data } = await github.rest.issues.createComment({
        owner,
        repo,
        issue_number: issueNumber,
        body,
      });
      this.currentId = data.id;
      this.currentUrl = data.html_url;
      this.edits++;
      this.lastBody = body;
      return true;
    } catch (err) {
      log?.warning(describeGitHubError(err, 'comment', `Posting the summary on #${issueNumber}`));
      return false;
    }
  }
}
