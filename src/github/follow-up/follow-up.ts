// Following up (CONTRACT §5): a trigger on an issue or PR where patchloop ran before continues
// that session. The earlier run is found by the session marker at the end of its tracking comment
// — only on comments by the identity that posts patchloop's own comments, since anyone can paste a
// marker — and its transcript comes from its artifact; when that cannot be had, its summary stands
// in. The marker steers where the work goes (its branch), so it is followed only once the run it
// names is confirmed as a run of this workflow that wrote that very comment (confirmEarlierRun).
import { downloadTranscriptArtifact } from './artifact-download.js';
import { readSessionMarker, withoutMarkers, type SessionMarker } from '../comment.js';
import type { GitHubClient } from '../octokit.js';
import { describeGitHubError } from '../octokit.js';
import { listIssueComments, type IssueComment } from '../context/context.js';
import { clip, sanitizeUntrusted } from '../sanitize.js';
import {
  parseTranscript,
  type ParsedTranscript,
  type RecordedLine,
  type SessionLine,
} from '../../protocol/transcript.js';
import type { Message } from '../../protocol/types.js';

export interface EarlierComment {
  id: number;
  url: string;
  marker: SessionMarker;
  body: string;
  /** where the marker was read: a tracking comment, or the body of a PR patchloop opened */
  source: 'comment' | 'pull-request';
  /** the issue or PR it is on */
  issueNumber: number;
  /** when GitHub says it was created */
  createdAt?: string;
}

export interface FindEarlierOptions {
  owner: string;
  repo: string;
  issueNumber: number;
  /** the login whose markers are trusted (the author of this run's own comment) */
  botLogin: string;
  /** this run's own comment and session, never taken for the earlier one */
  ownCommentId?: number;
  ownSessionId: string;
  /** a PR: without a marked comment on it, the marker in its body counts when the bot opened it */
  pullRequest?: boolean;
}

/**
 * The latest tracking comment with a session marker by `botLogin` (for a PR it opened, else its
 * body); undefined when there is none.
 */
export async function findEarlierComment(
  github: GitHubClient,
  o: FindEarlierOptions,
  listed: Promise<readonly IssueComment[]> = listIssueComments(github, o),
): Promise<EarlierComment | undefined> {
  const comments = await listed;
  for (let i = comments.length - 1; i >= 0; i--) {
    const c = comments[i]!;
    if (c.id === o.ownCommentId || c.user?.login !== o.botLogin) continue;
    const marker = readSessionMarker(c.body);
    if (!marker || marker.sessionId === o.ownSessionId) continue;
    return {
      id: c.id,
      url: c.html_url,
      marker,
      body: c.body ?? '',
      source: 'comment',
      issueNumber: o.issueNumber,
      createdAt: c.created_at,
    };
  }
  if (!o.pullRequest) return undefined;
  // A PR patchloop opened names the session that opened it in its body.
  const { data: pr } = await github.rest.issues.get({
    owner: o.owner,
    repo: o.repo,
    issue_number: o.issueNumber,
  });
  if (pr.user?.login !== o.botLogin) return undefined;
  const marker = readSessionMarker(pr.body);
  if (!marker || marker.sessionId === o.ownSessionId) return undefined;
  return {
    id: pr.id,
    url: pr.html_url,
    marker,
    body: pr.body ?? '',
    source: 'pull-request',
    issueNumber: o.issueNumber,
    createdAt: pr.created_at,
  };
}

/** The earlier session as this run gets it: its recorded messages, or why not and its summary. */
export interface EarlierSession {
  comment: EarlierComment;
  runUrl: string;
  /** the branch the earlier run worked on: only once its run is confirmed (confirmEarlierRun) */
  branch?: string;
  /** why the marker's branch is not followed, when it is not */
  unconfirmed?: string;
  /** the earlier messages, and the line of each in the downloaded transcript */
  transcript?: { session?: SessionLine; messages: Message[]; rows: RecordedLine[] };
  /** when the transcript could not be had: why, and the earlier summary's text (sanitised) */
  fallback?: { reason: string; summary: string };
}

export interface LoadEarlierOptions {
  owner: string;
  repo: string;
  serverUrl: string;
  /**
   * The path of this run's workflow file in the repository (`.github/workflows/x.yml`, from
   * GITHUB_WORKFLOW_REF): the earlier run must be a run of the same workflow. Undefined: no
   * earlier run can be confirmed.
   */
  workflowPath: string | undefined;
  /** where the artifact is unpacked */
  dest: string;
  signal?: AbortSignal;
}

const SUMMARY_LIMIT = 20_000;

/** `owner/repo/.github/workflows/x.yml@refs/heads/main` (GITHUB_WORKFLOW_REF) → `.github/workflows/x.yml`. */
export function workflowPathOf(workflowRef: string | undefined, repository: string): string | undefined {
  if (!workflowRef) return undefined;
  const at = workflowRef.lastIndexOf('@');
  const path = at > 0 ? workflowRef.slice(0, at) : workflowRef;
  const prefix = `${repository}/`;
  return prefix.length > 1 && path.toLowerCase().startsWith(prefix.toLowerCase())
    ? path.slice(prefix.length)
    : undefined;
}

// Why a binding to the run and not a signature: a signature needs a key that this workflow holds
// and a fork's code never sees, kept from one run to the next. The GITHUB_TOKEN changes every run
// and any repository secret would have to be configured by hand (and is withheld from fork runs
// that may still read the marker). GitHub itself already records which workflow made a run and
// keeps what that run uploaded: a marker is believed when the run it names is a run of this
// repository's own workflow file, and that run's transcript names the comment the marker was read
// from as its own tracking comment (or the PR as the one it opened), holds the session the marker
// names and the branch it names. A marker text planted anywhere else names a run whose transcript
// points at another comment.

/** The earlier run as GitHub reports it, when it is a run of this workflow; else why not. */
async function confirmRun(
  github: GitHubClient,
  o: LoadEarlierOptions,
  runId: string,
): Promise<{ ok: true; startedAt?: string; updatedAt?: string } | { ok: false; reason: string }> {
  if (!o.workflowPath)
    return { ok: false, reason: "this run's workflow file is not known (GITHUB_WORKFLOW_REF is not set)" };
  let run;
  try {
    ({ data: run } = await github.rest.actions.getWorkflowRun({
      owner: o.owner,
      repo: o.repo,
      run_id: Number(runId),
    }));
  } catch (err) {
    return {
      ok: false,
      reason: describeGitHubError(err, 'read-actions', `Reading the earlier run ${runId}`),
    };
  }
  const here = `${o.owner}/${o.repo}`.toLowerCase();
  if (run.repository?.full_name?.toLowerCase() !== here)
    return { ok: false, reason: `run ${runId} is not a run of ${o.owner}/${o.repo}` };
  // GitHub answers `.github/workflows/x.yml`; its description's example has `owner/repo/…@ref`.
  const path =
    workflowPathOf(run.path ?? '', `${o.owner}/${o.repo}`) ?? (run.path ?? '').replace(/@[^@]*$/, '');
  if (path !== o.workflowPath)
    return {
      ok: false,
      reason: `run ${runId} is a run of \`${path}\`, not of this workflow \`${o.workflowPath}\``,
    };
  // created_at: the run's first attempt (run_started_at is the latest attempt's start); GitHub's
  // times are whole seconds, as are its comments'.
  return { ok: true, startedAt: run.created_at, updatedAt: run.updated_at };
}

/**
 * Whether the downloaded transcript is the one of the run that wrote `comment`: the session the
 * marker names, a session of the run it names, and a `comment` (or `pull-request`) event naming
 * where the marker was read. Returns the branch it recorded, or why it is not that run's.
 */
function confirmTranscript(
  parsed: ParsedTranscript,
  comment: EarlierComment,
  o: LoadEarlierOptions,
): { ok: true; branch?: string } | { ok: false; reason: string } {
  const { marker } = comment;
  const session = parsed.session;
  if (!session) return { ok: false, reason: 'the earlier transcript has no session line' };
  if (session.id !== marker.sessionId)
    return { ok: false, reason: `the artifact holds session ${String(session.id)}, not ${marker.sessionId}` };
  if (!session.id.startsWith(`${marker.runId}-`) || session.repository !== `${o.owner}/${o.repo}`)
    return {
      ok: false,
      reason: `the artifact's session is not one of run ${marker.runId} of ${o.owner}/${o.repo}`,
    };
  const names = parsed.events.some((e) =>
    comment.source === 'comment'
      ? e.event === 'comment' && e.id === comment.id
      : e.event === 'pull-request' && e.number === comment.issueNumber,
  );
  if (!names)
    return {
      ok: false,
      reason: `run ${marker.runId} did not write ${comment.source === 'comment' ? `the comment ${comment.url}` : `pull request #${comment.issueNumber}`}`,
    };
  const recorded = [session.branch, parsed.summary?.branch].filter((b): b is string => typeof b === 'string');
  if (marker.branch !== undefined && !recorded.includes(marker.branch))
    return { ok: false, reason: `run ${marker.runId} worked on another branch than \`${marker.branch}\`` };
  const branch = marker.branch ?? recorded[0];
  return { ok: true, ...(branch ? { branch } : {}) };
}

/** Without the transcript: whether `comment` was written while the run it names ran. */
function withinRun(comment: EarlierComment, run: { startedAt?: string; updatedAt?: string }): boolean {
  const at = Date.parse(comment.createdAt ?? '');
  const from = Date.parse(run.startedAt ?? '');
  const to = Date.parse(run.updatedAt ?? '');
  return Number.isFinite(at) && Number.isFinite(from) && Number.isFinite(to) && at >= from && at <= to;
}

/**
 * Downloads and reads the earlier transcript and confirms the run the marker names; never throws:
 * a failure becomes the summary fallback, and a run that is not confirmed leaves no branch.
 */
export async function loadEarlierSession(
  github: GitHubClient,
  comment: EarlierComment,
  o: LoadEarlierOptions,
): Promise<EarlierSession> {
  const { marker } = comment;
  const out: EarlierSession = {
    comment,
    runUrl: `${o.serverUrl}/${o.owner}/${o.repo}/actions/runs/${marker.runId}`,
  };
  const summary = () => clip(sanitizeUntrusted(withoutMarkers(comment.body)), SUMMARY_LIMIT);
  const runChecked = confirmRun(github, o, marker.runId);
  // The run's check and the download go out together; nothing downloaded is used unless both agree.
  const downloaded = downloadTranscriptArtifact(github, {
    owner: o.owner,
    repo: o.repo,
    runId: marker.runId,
    ...(marker.artifactId ? { artifactId: marker.artifactId } : {}),
    ...(marker.artifactName ? { name: marker.artifactName } : {}),
    dest: o.dest,
    html: false,
    ...(o.signal ? { signal: o.signal } : {}),
  }).then(
    (d) => d,
    (err: unknown) => ({
      ok: false as const,
      message: describeGitHubError(err, 'read-actions', 'Downloading the earlier transcript'),
    }),
  );
  const [run, download] = await Promise.all([runChecked, downloaded]);
  // The bot's own comment, but people with write access can edit any comment: untrusted text.
  if (!run.ok) {
    const why = `the earlier run could not be confirmed as one of this workflow (${run.reason})`;
    return { ...out, unconfirmed: why, fallback: { reason: why, summary: summary() } };
  }
  // Without its transcript, the comment must at least have been written while that run ran.
  const fallback = (reason: string): EarlierSession => {
    const base = { ...out, fallback: { reason, summary: summary() } };
    if (!marker.branch) return base;
    if (withinRun(comment, run)) return { ...base, branch: marker.branch };
    return {
      ...base,
      unconfirmed: `${reason}, and the comment was not written while run ${marker.runId} ran`,
    };
  };
  if (!download.ok) return fallback(download.message);
  let parsed;
  try {
    parsed = parseTranscript(download.jsonl);
  } catch (err) {
    return fallback(`the earlier transcript could not be read (${(err as Error).message})`);
  }
  const confirmed = confirmTranscript(parsed, comment, o);
  // A transcript of another session or run (a pasted or stale marker) is not this one's.
  if (!confirmed.ok)
    return {
      ...out,
      unconfirmed: confirmed.reason,
      fallback: { reason: confirmed.reason, summary: summary() },
    };
  if (parsed.messages.length === 0)
    return {
      ...out,
      ...(confirmed.branch ? { branch: confirmed.branch } : {}),
      fallback: { reason: 'the earlier transcript holds no messages', summary: summary() },
    };
  return {
    ...out,
    ...(confirmed.branch ? { branch: confirmed.branch } : {}),
    transcript: {
      session: parsed.session!,
      messages: parsed.messages,
      rows: parsed.messageRows,
    },
  };
}
