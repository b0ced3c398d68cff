// The run's single comment: created at the start, edited as the run goes (throttled and
// serialised), edited at the end into the summary.
import type { GitHubClient, LogSink } from './octokit.js';
import { describeGitHubError, statusOf } from './octokit.js';
import { TRACKING_MARKER } from './trigger.js';
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
}

const SESSION_MARKER = /<!-- patchloop:session ([A-Za-z0-9_-]{1,4000}) -->/;
/** The trailer: the marker alone on the body's last line. */
const SESSION_TRAILER = new RegExp(`\n${SESSION_MARKER.source}$`);
const MARKER_KEYS: ReadonlySet<string> = new Set([
  'runId',
  'sessionId',
  'branch',
  'artifactId',
  'artifactName',
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
  if (!absentOr(v.branch, str) || !absentOr(v.artifactName, str) || !absentOr(v.artifactId, artifactId))
    return undefined;
  const m: SessionMarker = { runId: v.runId, sessionId: v.sessionId };
  if (v.branch !== undefined) m.branch = v.branch as string;
  if (v.artifactId !== undefined) m.artifactId = v.artifactId as number;
  if (v.artifactName !== undefined) m.artifactName = v.artifactName as string;
  return m;
}

/** Removes both markers (for quoting an earlier summary). */
export function withoutMarkers(body: string): string {
  return body.replace(new RegExp(SESSION_MARKER.source, 'g'), '').replaceAll(TRACKING_MARKER, '').trim();
}

/**
 * Adds the marker that keeps the run's own comment from triggering a run and, last, the session
 * marker; keeps the length legal. Everything above the markers is redacted and holds no `<!`.
 */
export function commentBody(text: string, redact?: (text: string) => string, marker?: SessionMarker): string {
  const clean = neutralizeHiddenMarkup(redact ? redact(text) : text);
  const tail = `${TRACKING_MARKER}${marker ? `\n${sessionMarkerText(marker)}` : ''}`;
  const marked = `${clean}\n\n${tail}`;
  if (marked.length <= COMMENT_LIMIT) return marked;
  const note = '\n\n[… cut to fit GitHub’s comment limit]';
  return `${clean.slice(0, COMMENT_LIMIT - note.length - tail.length - 2)}${note}\n\n${tail}`;
}

export class TrackingComment {
  /** the comment's id and address: those of the summary posted anew when the first was deleted */
  private currentId: number;
  private currentUrl: string;
  /** the login that posted it: the identity whose earlier markers are trusted */
  readonly author?: string;
  /** the session marker every later edit carries */
  marker?: SessionMarker;
  /** number of edits written (progress and final) */
  edits = 0;
  lastError?: string;
  private readonly interval: number;
  private readonly now: () => number;
  private lastWriteAt: number;
  private lastBody: string;
  private pending?: string;
  private inFlight?: Promise<void>;
  private timer?: ReturnType<typeof setTimeout>;
  private closed = false;

  private constructor(
    private readonly options: TrackingCommentOptions,
    id: number,
    url: string,
    body: string,
    author: string | undefined,
    marker: SessionMarker | undefined,
  ) {
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
  ): Promise<TrackingComment> {
    const body = commentBody(text, options.redact, marker);
    try {
      const { data } = await options.github.rest.issues.createComment({
        owner: options.owner,
        repo: options.repo,
        issue_number: options.issueNumber,
        body,
      });
      return new TrackingComment(options, data.id, data.html_url, body, data.user?.login, marker);
    } catch (err) {
      throw new Error(
        describeGitHubError(err, 'comment', `Creating the tracking comment on #${options.issueNumber}`),
        {
          cause: err,
        },
      );
    }
  }

  /** Asks for a progress edit. Returns at once; only the latest text is written, at most once per interval. */
  update(text: string): void {
    if (this.closed) return;
    this.pending = text;
    this.schedule();
  }

  /** The final edit: waits for an edit in flight, then writes `text`. False when GitHub refused it. */
  async finish(text: string): Promise<boolean> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
    await this.inFlight;
    return this.write(commentBody(text, this.options.redact, this.marker), true);
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
    const body = commentBody(this.pending, this.options.redact, this.marker);
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
