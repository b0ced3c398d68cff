// Daily budgets (CONTRACT §13): `max-cost-usd-per-day` counts what patchloop's own summaries of the
// last 24 hours say they cost, repository-wide and by requester. The record is patchloop's own: the
// session marker that ends each final summary carries the run's cost and requester, and only
// comments by the identity that posts patchloop's comments are read (anyone can paste a marker).
// GitHub lists a repository's issue and PR comments updated since a time in one paginated call;
// the time a cost counts from is the comment's `updated_at` (GitHub's clock, the final edit's).
import { readSessionMarker } from '../comment.js';
import type { GitHubClient } from '../octokit.js';

export const DAY_MS = 24 * 3600_000;

export interface DailyBudgetLimits {
  repository?: number;
  requester?: number;
}

/** One earlier run's cost as its summary recorded it. */
export interface SpentEntry {
  costUsd: number;
  requester?: string;
  /** when GitHub last updated the summary (ms since the epoch) */
  at: number;
  commentUrl: string;
}

export interface BudgetCheck {
  /** what the repository and this requester spent in the window */
  spent: { repository: number; requester: number };
  /** the first budget the request is over, when it is over one */
  over?: {
    which: 'repository' | 'requester';
    limit: number;
    spent: number;
    /** when enough of the counted cost has left the 24-hour window for a run to start again */
    freesAt: number;
  };
  /** the summaries counted */
  runs: number;
}

/** The costs patchloop's own summaries in this repository recorded since `now - 24 h`. */
export async function listSpent(
  github: GitHubClient,
  o: { owner: string; repo: string; botLogin: string; now: number },
): Promise<SpentEntry[]> {
  const since = new Date(o.now - DAY_MS).toISOString();
  const comments = await github.paginate(github.rest.issues.listCommentsForRepo, {
    owner: o.owner,
    repo: o.repo,
    since,
    per_page: 100,
  });
  const out: SpentEntry[] = [];
  for (const c of comments) {
    if (c.user?.login !== o.botLogin) continue;
    const marker = readSessionMarker(c.body);
    if (marker?.costUsd === undefined) continue;
    const at = Date.parse(c.updated_at);
    if (!Number.isFinite(at) || at < o.now - DAY_MS) continue;
    out.push({
      costUsd: marker.costUsd,
      ...(marker.requester ? { requester: marker.requester } : {}),
      at,
      commentUrl: c.html_url,
    });
  }
  return out;
}

/**
 * Whether a request by `requester` is over a daily budget. A budget that is reached counts as
 * over: the next run would spend more. `freesAt` is the earliest time at which the entries still
 * inside the window add up to less than the limit.
 */
export function checkBudget(
  entries: readonly SpentEntry[],
  limits: DailyBudgetLimits,
  requester: string | undefined,
): BudgetCheck {
  const mine = (e: SpentEntry) =>
    requester !== undefined && e.requester?.toLowerCase() === requester.toLowerCase();
  const sum = (list: readonly SpentEntry[]) => list.reduce((n, e) => n + e.costUsd, 0);
  const byRequester = entries.filter(mine);
  const spent = { repository: sum(entries), requester: sum(byRequester) };
  const check = (
    which: 'repository' | 'requester',
    limit: number | undefined,
    list: readonly SpentEntry[],
  ) => {
    if (limit === undefined) return undefined;
    const total = which === 'repository' ? spent.repository : spent.requester;
    if (total < limit) return undefined;
    let left = total;
    let freesAt = 0;
    for (const e of [...list].sort((a, b) => a.at - b.at)) {
      left -= e.costUsd;
      freesAt = e.at + DAY_MS;
      if (left < limit) break;
    }
    return { which, limit, spent: total, freesAt };
  };
  const over =
    check('repository', limits.repository, entries) ?? check('requester', limits.requester, byRequester);
  return { spent, ...(over ? { over } : {}), runs: entries.length };
}

/** The comment a request over budget gets. */
export function overBudgetText(c: BudgetCheck, requester: string | undefined, runUrl: string): string {
  const o = c.over!;
  const usd = (n: number) => `$${n.toFixed(2)}`;
  const whose = o.which === 'repository' ? 'this repository' : `@${requester ?? 'this requester'}`;
  return [
    `⚠️ **patchloop: daily budget reached** — no model was asked.`,
    '',
    `The \`max-cost-usd-per-day\` budget for ${whose} is ${usd(o.limit)}; patchloop's summaries of the last 24 hours report ${usd(o.spent)} spent.`,
    `It frees up at ${new Date(o.freesAt).toISOString().replace(/\.\d{3}Z$/, 'Z')}, when earlier runs leave the 24-hour window; ask again then, or raise the budget.`,
    '',
    `[This run](${runUrl})`,
  ].join('\n');
}
