// The failed jobs of a workflow run: names, failed steps and the tails of their logs.
import type { GitHubClient } from '../octokit.js';
import { describeGitHubError } from '../octokit.js';

export interface FailedJob {
  id: number;
  name: string;
  conclusion: string;
  url?: string;
  failedSteps: string[];
  /** the last lines of the job's log, cleaned of timestamps and colour codes */
  logTail: string;
  /** why the log could not be read, when it could not */
  logError?: string;
}

export interface FailedJobsOptions {
  owner: string;
  repo: string;
  runId: number;
  /** at most this many failed jobs get their logs read (default 5) */
  maxJobs?: number;
  /** lines kept from the end of each log (default 120) */
  tailLines?: number;
  /** characters kept from the end of each log (default 12,000) */
  tailChars?: number;
}

const FAILED = new Set(['failure', 'timed_out', 'startup_failure']);

export async function fetchFailedJobs(
  github: GitHubClient,
  options: FailedJobsOptions,
): Promise<FailedJob[]> {
  const { owner, repo, runId } = options;
  let jobs: {
    id: number;
    name: string;
    conclusion: string | null;
    html_url: string | null;
    steps?: { name: string; conclusion: string | null }[];
  }[];
  try {
    jobs = await github.paginate(github.rest.actions.listJobsForWorkflowRun, {
      owner,
      repo,
      run_id: runId,
      filter: 'latest',
      per_page: 100,
    });
  } catch (err) {
    throw new Error(describeGitHubError(err, 'read-actions', `Listing the jobs of run ${runId}`), {
      cause: err,
    });
  }
  const failed = jobs.filter((j) => j.conclusion && FAILED.has(j.conclusion));
  const out: FailedJob[] = [];
  for (const job of failed.slice(0, options.maxJobs ?? 5)) {
    const entry: FailedJob = {
      id: job.id,
      name: job.name,
      conclusion: job.conclusion ?? 'failure',
      url: job.html_url ?? undefined,
      failedSteps: (job.steps ?? [])
        .filter((s) => s.conclusion && FAILED.has(s.conclusion))
        .map((s) => s.name),
      logTail: '',
    };
    try {
      const res = await github.rest.actions.downloadJobLogsForWorkflowRun({ owner, repo, job_id: job.id });
      const text =
        typeof res.data === 'string' ? res.data : Buffer.from(res.data as ArrayBuffer).toString('utf8');
      entry.logTail = tailOfLog(text, options.tailLines ?? 120, options.tailChars ?? 12_000);
    } catch (err) {
      entry.logError = describeGitHubError(err, 'read-actions', `Reading the log of job "${job.name}"`);
    }
    out.push(entry);
  }
  return out;
}

/** The end of an Actions log, without timestamps, colour codes and group markers. */
export function tailOfLog(text: string, maxLines: number, maxChars: number): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) =>
      line
        .replace(/^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/, '')
        // eslint-disable-next-line no-control-regex
        .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
        .replace(/^##\[(?:group|endgroup)\]/, '')
        .replace(/^##\[(error|warning|notice)\]/, '$1: '),
    );
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const whole = lines.join('\n');
  let kept = lines.slice(-maxLines).join('\n');
  if (kept.length > maxChars) kept = kept.slice(kept.length - maxChars);
  return kept.length < whole.length ? `[… earlier log lines not shown]\n${kept}` : kept;
}
