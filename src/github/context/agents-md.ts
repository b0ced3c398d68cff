// Which AGENTS.md the system prompt may carry. The system prompt is the maintainers' voice, so
// its AGENTS.md must be theirs: on a pull request from a fork the checkout holds the
// contributor's tree, and their AGENTS.md is as untrusted as the rest of their PR. That one is
// read from the base branch through the contents API instead (no git: the fork's objects never
// decide what the trusted copy says), and the head's version, when it differs, is given to the
// model as the PR's content, framed as the contributor's.
import type { GitHubClient } from '../octokit.js';
import { describeGitHubError, statusOf } from '../octokit.js';
import type { PullRequestRefs, Task } from './task.js';

// Far more than the system prompt keeps (16 KiB); the cut with its note happens there.
const MAX_CHARS = 64 * 1024;

export interface AgentsMdChoice {
  /** for the system prompt: the maintainers' file */
  trusted?: string;
  /** how the system prompt names where it came from, when not the checkout */
  source?: string;
  /** the fork head's own AGENTS.md, when it differs from the trusted one: untrusted PR content */
  contributed?: string;
  /** reading the base branch's file failed; the run goes on without an AGENTS.md */
  warning?: string;
}

/**
 * `workspaceText` is the checkout's AGENTS.md (read after the branch is checked out, so on a
 * fork PR it is the head's).
 */
export async function chooseAgentsMd(
  github: GitHubClient,
  task: Pick<Task, 'owner' | 'repo'>,
  pr: PullRequestRefs | undefined,
  workspaceText: string | undefined,
): Promise<AgentsMdChoice> {
  if (!pr?.fork) return { trusted: workspaceText };
  const ref = pr.baseSha || pr.baseRef;
  let trusted: string | undefined;
  let warning: string | undefined;
  try {
    trusted = await fetchFileText(github, task.owner, task.repo, 'AGENTS.md', ref);
  } catch (err) {
    warning = `${describeGitHubError(err, 'read-contents', `Reading AGENTS.md of ${pr.baseRef}`)} The run goes on without it.`;
  }
  const contributed =
    workspaceText !== undefined && workspaceText.trim() !== (trusted ?? '').trim()
      ? workspaceText
      : undefined;
  return {
    trusted,
    source: `as on the base branch ${pr.baseRef}; the pull request comes from a fork`,
    contributed,
    warning,
  };
}

/** A file's text at `ref` through the contents API; undefined when it does not exist there. */
export async function fetchFileText(
  github: GitHubClient,
  owner: string,
  repo: string,
  path: string,
  ref: string,
): Promise<string | undefined> {
  try {
    // `format: raw` asks for the bytes themselves (application/vnd.github.raw+json) instead of
    // base64 in JSON, which GitHub gives only for files up to 1 MB.
    const res = await github.rest.repos.getContent({ owner, repo, path, ref, mediaType: { format: 'raw' } });
    const data: unknown = res.data;
    const text = typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('utf8') : undefined;
    if (text === undefined) return undefined; // a folder: its listing, not a file
    return text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  } catch (err) {
    if (statusOf(err) === 404) return undefined;
    throw err;
  }
}
