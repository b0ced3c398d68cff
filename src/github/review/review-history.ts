// Quiet reviews (CONTRACT §9): an automatic review keeps one sticky summary comment per pull
// request, edited by each push's run, and reviews only what changed since patchloop last reviewed
// the PR. What it remembers is patchloop's own record, trusted only on patchloop's own identity:
// the sticky comment's hidden `review-summary` marker (each push: the head reviewed, what was
// reviewed, the review's link) and the hidden `reviewed` marker at the end of each review body.
import type { IssueComment } from '../context/context.js';
import { tokenLogin } from '../identity.js';
import { describeGitHubError, type GitHubClient } from '../octokit.js';
import { TRACKING_MARKER } from '../context/trigger.js';

/** The kind of marker the sticky review summary carries (its trailer, before the session marker). */
const SUMMARY_MARKER = /<!-- patchloop:review-summary ([A-Za-z0-9_-]{1,40000}) -->/;
/** At the end of each review body patchloop posts: the head commit the review read. */
const REVIEWED_MARKER = /<!-- patchloop:reviewed ([0-9a-f]{40}) -->/;
/** The pushes a sticky comment keeps line by line; older ones are counted. */
export const HISTORY_KEPT = 30;

/** One push's review, as the sticky comment records it. */
export interface ReviewPush {
  /** the head commit reviewed */
  head: string;
  /** `since`: only the commits after `from`; `whole`: the whole pull request */
  scope: 'whole' | 'since';
  from?: string;
  /** why a push was reviewed whole although an earlier review existed (a force-push, …) */
  why?: string;
  /** ISO time of the run's end */
  at: string;
  /** the review posted, when one was (nothing new to say: none) */
  reviewUrl?: string;
  runUrl: string;
  conclusion: string;
  /** inline comments and comments in the body, new in this review */
  comments: number;
  /** files whose diffs were not reviewed (paging) */
  notReviewed?: number;
  costUsd?: number;
}

export interface ReviewHistory {
  pushes: ReviewPush[];
  /** pushes older than those kept */
  dropped: number;
}

export function reviewSummaryMarkerText(h: ReviewHistory): string {
  return `<!-- patchloop:review-summary ${Buffer.from(JSON.stringify(h), 'utf8').toString('base64url')} -->`;
}

export function reviewedMarkerText(head: string): string {
  return `<!-- patchloop:reviewed ${head} -->`;
}

const SHA = /^[0-9a-f]{40}$/;

/** The text after the body's last tracking marker: where patchloop's own hidden markers are. */
function trailerOf(body: string | null | undefined): string | undefined {
  if (!body) return undefined;
  const at = body.lastIndexOf(TRACKING_MARKER);
  return at < 0 ? undefined : body.slice(at);
}

/** The history a sticky summary's trailer records; undefined when it has none (or a malformed one). */
export function readReviewSummaryMarker(body: string | null | undefined): ReviewHistory | undefined {
  const m = SUMMARY_MARKER.exec(trailerOf(body) ?? '');
  if (!m) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object') return undefined;
  const h = v as { pushes?: unknown; dropped?: unknown };
  if (!Array.isArray(h.pushes) || typeof h.dropped !== 'number' || !Number.isSafeInteger(h.dropped))
    return undefined;
  const pushes: ReviewPush[] = [];
  const str = (x: unknown): x is string => typeof x === 'string' && x.length <= 2000;
  const url = (x: unknown): x is string => str(x) && /^https?:\/\//.test(x);
  const count = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
  for (const raw of h.pushes.slice(-HISTORY_KEPT)) {
    const p = raw as Record<string, unknown>;
    if (!p || typeof p !== 'object') return undefined;
    if (!str(p.head) || !SHA.test(p.head) || (p.scope !== 'whole' && p.scope !== 'since')) return undefined;
    if (!str(p.at) || Number.isNaN(Date.parse(p.at)) || !url(p.runUrl) || !str(p.conclusion))
      return undefined;
    if (!count(p.comments)) return undefined;
    pushes.push({
      head: p.head,
      scope: p.scope,
      ...(str(p.from) && SHA.test(p.from) ? { from: p.from } : {}),
      ...(str(p.why) ? { why: p.why } : {}),
      at: p.at,
      ...(url(p.reviewUrl) ? { reviewUrl: p.reviewUrl } : {}),
      runUrl: p.runUrl,
      conclusion: p.conclusion,
      comments: p.comments,
      ...(count(p.notReviewed) ? { notReviewed: p.notReviewed } : {}),
      ...(typeof p.costUsd === 'number' && Number.isFinite(p.costUsd) && p.costUsd >= 0
        ? { costUsd: p.costUsd }
        : {}),
    });
  }
  return { pushes, dropped: Math.max(0, h.dropped) + Math.max(0, h.pushes.length - HISTORY_KEPT) };
}

/** The head a review body's trailer says the review read. */
export function readReviewedMarker(body: string | null | undefined): string | undefined {
  return REVIEWED_MARKER.exec(trailerOf(body) ?? '')?.[1];
}

/** The sticky review summary of a pull request: patchloop's own comment with a review-summary marker. */
export interface StickySummary {
  id: number;
  url: string;
  body: string;
  author: string;
  history: ReviewHistory;
}

/**
 * The sticky summary among a PR's comments: the earliest comment by `botLogin` whose trailer holds
 * a review-summary marker (anyone can paste a marker; only patchloop's identity can post one).
 */
export function findStickySummary(
  comments: readonly IssueComment[],
  botLogin: string,
): StickySummary | undefined {
  for (const c of comments) {
    if (c.user?.login?.toLowerCase() !== botLogin.toLowerCase()) continue;
    const history = readReviewSummaryMarker(c.body);
    if (!history) continue;
    return { id: c.id, url: c.html_url, body: c.body ?? '', author: c.user.login, history };
  }
  return undefined;
}

/** The head patchloop reviewed last on a PR, and where that is recorded. */
export interface LastReviewed {
  head: string;
  at: number;
  source: 'summary' | 'review';
}

interface RawReview {
  body?: string | null;
  user?: { login?: string } | null;
  commit_id?: string | null;
  submitted_at?: string | null;
}

/**
 * The head of patchloop's latest review of the PR: the latest push its sticky summary records, or
 * the latest review by `botLogin` with patchloop's marker (a review asked for by a comment), the
 * later of the two. Reviews posted before the `reviewed` marker existed count by their commit.
 */
export async function findLastReviewed(
  github: GitHubClient,
  where: { owner: string; repo: string; number: number },
  botLogin: string,
  sticky: StickySummary | undefined,
): Promise<LastReviewed | undefined> {
  const reviews = (await github
    .paginate(github.rest.pulls.listReviews, {
      owner: where.owner,
      repo: where.repo,
      pull_number: where.number,
      per_page: 100,
    })
    .catch((err: unknown) => {
      throw new Error(
        describeGitHubError(err, 'read-pull', `Reading the reviews of pull request #${where.number}`),
        { cause: err },
      );
    })) as RawReview[];
  let last: LastReviewed | undefined;
  const later = (c: LastReviewed) => {
    if (!last || c.at >= last.at) last = c;
  };
  for (const r of reviews) {
    if (r.user?.login?.toLowerCase() !== botLogin.toLowerCase() || !r.body?.includes(TRACKING_MARKER))
      continue;
    const head = readReviewedMarker(r.body) ?? r.commit_id ?? undefined;
    const at = Date.parse(r.submitted_at ?? '');
    if (head && SHA.test(head) && Number.isFinite(at)) later({ head, at, source: 'review' });
  }
  const push = sticky?.history.pushes.at(-1);
  if (push) later({ head: push.head, at: Date.parse(push.at), source: 'summary' });
  return last;
}

/** The history kept with one more push (the oldest lines counted once more than are kept). */
export function withPush(h: ReviewHistory | undefined, push: ReviewPush): ReviewHistory {
  const pushes = [...(h?.pushes ?? []), push];
  const over = Math.max(0, pushes.length - HISTORY_KEPT);
  return { pushes: pushes.slice(over), dropped: (h?.dropped ?? 0) + over };
}

/**
 * What the daily budget (github/daily-budget.ts) counts for the sticky comment: it is one comment
 * however many runs edited it, so its marker carries what the pushes of the last 24 hours cost
 * together (counted from its latest edit: a little longer than each run's own, never less).
 */
export function costOfLastDay(h: ReviewHistory, now: number): number | undefined {
  const recent = h.pushes.filter((p) => p.costUsd !== undefined && Date.parse(p.at) >= now - 24 * 3600_000);
  return recent.length === 0 ? undefined : recent.reduce((n, p) => n + p.costUsd!, 0);
}

/** The history as the sticky comment shows it: one line per push, latest last. */
export function historyMarkdown(h: ReviewHistory, commitUrl: (sha: string) => string): string {
  const lines = ['### Reviews of this pull request', ''];
  if (h.dropped > 0) lines.push(`- … ${h.dropped} earlier push(es)`);
  for (const p of h.pushes) {
    const sha = (s: string) => `[\`${s.slice(0, 7)}\`](${commitUrl(s)})`;
    const what =
      p.scope === 'since' && p.from
        ? `the commits since ${sha(p.from)}`
        : `the whole pull request${p.why ? ` (${p.why})` : ''}`;
    const said =
      p.conclusion !== 'success'
        ? `run ended: ${p.conclusion}`
        : p.reviewUrl
          ? `[review](${p.reviewUrl}) with ${p.comments} comment(s)`
          : 'nothing new to remark: no review posted';
    const skipped = p.notReviewed ? `; ${p.notReviewed} file(s) not reviewed` : '';
    lines.push(
      `- ${p.at.replace(/\.\d{3}Z$/, 'Z')} · ${sha(p.head)}: ${what} — ${said}${skipped} · [run](${p.runUrl})`,
    );
  }
  return lines.join('\n');
}

/** An automatic review's look-ups, started beside the permission check and shared by the comment and the context. */
export interface QuietReview {
  /** the identity patchloop posts as: whose sticky summary and reviews count */
  botLogin: Promise<string>;
  sticky: Promise<StickySummary | undefined>;
  last: Promise<LastReviewed | undefined>;
}

export function startQuietReview(
  github: GitHubClient,
  where: { owner: string; repo: string; number: number },
  comments: Promise<readonly IssueComment[]>,
): QuietReview {
  const botLogin = tokenLogin(github);
  const sticky = Promise.all([botLogin, comments]).then(([login, list]) => findStickySummary(list, login));
  const last = Promise.all([botLogin, sticky]).then(([login, s]) =>
    findLastReviewed(github, where, login, s),
  );
  // each is awaited (and its failure told) by whoever needs it
  for (const p of [botLogin, sticky, last]) p.catch(() => undefined);
  return { botLogin, sticky, last };
}
