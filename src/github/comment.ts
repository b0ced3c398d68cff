// The run's single comment: created at the start, edited as the run goes (throttled and
// serialised), edited at the end into the summary.
import type { GitHubClient, LogSink } from './octokit.js';
import { describeGitHubError, statusOf } from './octokit.js';
import { TRACKING_MARKER } from './trigger.js';

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

/** Adds the marker that keeps the run's own comment from triggering a run, and keeps the length legal. */
export function commentBody(text: string, redact?: (text: string) => string): string {
  const clean = redact ? redact(text) : text;
  const marked = `${clean}\n\n${TRACKING_MARKER}`;
  if (marked.length <= COMMENT_LIMIT) return marked;
  const note = '\n\n[… cut to fit GitHub’s comment limit]';
  return `${clean.slice(0, COMMENT_LIMIT - note.length - TRACKING_MARKER.length - 2)}${note}\n\n${TRACKING_MARKER}`;
}

export class TrackingComment {
  readonly id: number;
  readonly url: string;
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
  ) {
    this.id = id;
    this.url = url;
    this.interval = options.minIntervalMs ?? 3000;
    this.now = options.now ?? Date.now;
    this.lastWriteAt = this.now();
    this.lastBody = body;
  }

  /** Posts the comment. Throws an Error whose message names the missing permission. */
  static async create(options: TrackingCommentOptions, text: string): Promise<TrackingComment> {
    const body = commentBody(text, options.redact);
    try {
      const { data } = await options.github.rest.issues.createComment({
        owner: options.owner,
        repo: options.repo,
        issue_number: options.issueNumber,
        body,
      });
      return new TrackingComment(options, data.id, data.html_url, body);
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
    return this.write(commentBody(text, this.options.redact), true);
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
    const body = commentBody(this.pending, this.options.redact);
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
      await github.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
      return true;
    } catch (err) {
      log?.warning(describeGitHubError(err, 'comment', `Posting the summary on #${issueNumber}`));
      return false;
    }
  }
}
