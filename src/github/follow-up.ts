// Following up (CONTRACT §5): a trigger on an issue or PR where patchloop ran before continues
// that session. The earlier run is found by the session marker of its tracking comment — only on
// comments by the identity that posts patchloop's own comments, since anyone can paste a marker —
// and its transcript comes from its artifact; when that cannot be had, its summary stands in.
import { downloadTranscriptArtifact } from './artifact-download.js';
import { readSessionMarker, withoutMarkers, type SessionMarker } from './comment.js';
import type { GitHubClient } from './octokit.js';
import { describeGitHubError } from './octokit.js';
import { listIssueComments, type IssueComment } from './context.js';
import { clip, sanitizeUntrusted } from './sanitize.js';
import { parseTranscript, type RecordedLine, type SessionLine } from '../protocol/transcript.js';
import type { Message } from '../protocol/types.js';

export interface EarlierComment {
  id: number;
  url: string;
  marker: SessionMarker;
  body: string;
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
    return { id: c.id, url: c.html_url, marker, body: c.body ?? '' };
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
  return { id: pr.id, url: pr.html_url, marker, body: pr.body ?? '' };
}

/** The earlier session as this run gets it: its recorded messages, or why not and its summary. */
export interface EarlierSession {
  comment: EarlierComment;
  runUrl: string;
  /** the branch the earlier run worked on */
  branch?: string;
  /** the earlier messages, and the line of each in the downloaded transcript */
  transcript?: { session?: SessionLine; messages: Message[]; rows: RecordedLine[] };
  /** when the transcript could not be had: why, and the earlier summary's text (sanitised) */
  fallback?: { reason: string; summary: string };
}

export interface LoadEarlierOptions {
  owner: string;
  repo: string;
  serverUrl: string;
  /** where the artifact is unpacked */
  dest: string;
  signal?: AbortSignal;
}

const SUMMARY_LIMIT = 20_000;

/** Downloads and reads the earlier transcript; never throws: a failure becomes the summary fallback. */
export async function loadEarlierSession(
  github: GitHubClient,
  comment: EarlierComment,
  o: LoadEarlierOptions,
): Promise<EarlierSession> {
  const { marker } = comment;
  const out: EarlierSession = {
    comment,
    runUrl: `${o.serverUrl}/${o.owner}/${o.repo}/actions/runs/${marker.runId}`,
    ...(marker.branch ? { branch: marker.branch } : {}),
  };
  const fallback = (reason: string): EarlierSession => ({
    ...out,
    // The bot's own comment, but people with write access can edit any comment: untrusted text.
    fallback: { reason, summary: clip(sanitizeUntrusted(withoutMarkers(comment.body)), SUMMARY_LIMIT) },
  });
  let download;
  try {
    download = await downloadTranscriptArtifact(github, {
      owner: o.owner,
      repo: o.repo,
      runId: marker.runId,
      ...(marker.artifactId ? { artifactId: marker.artifactId } : {}),
      ...(marker.artifactName ? { name: marker.artifactName } : {}),
      dest: o.dest,
      html: false,
      ...(o.signal ? { signal: o.signal } : {}),
    });
  } catch (err) {
    return fallback(describeGitHubError(err, 'read-actions', 'Downloading the earlier transcript'));
  }
  if (!download.ok) return fallback(download.message);
  let parsed;
  try {
    parsed = parseTranscript(download.jsonl);
  } catch (err) {
    return fallback(`the earlier transcript could not be read (${(err as Error).message})`);
  }
  // A transcript of another session (a pasted or stale artifact id) is not this one.
  if (parsed.session && parsed.session.id !== marker.sessionId)
    return fallback(`the artifact holds session ${String(parsed.session.id)}, not ${marker.sessionId}`);
  if (parsed.messages.length === 0) return fallback('the earlier transcript holds no messages');
  const branch =
    out.branch ?? (typeof parsed.session?.branch === 'string' ? parsed.session.branch : undefined);
  return {
    ...out,
    ...(branch ? { branch } : {}),
    transcript: {
      ...(parsed.session ? { session: parsed.session } : {}),
      messages: parsed.messages,
      rows: parsed.messageRows,
    },
  };
}
