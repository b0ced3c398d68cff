// The delivery artifact (CONTRACT §11): what the delivery step of an agent-stage run would have
// done, written down instead of done: the manifest, a git bundle of the new commits on the
// recorded base commit, and the transcript. The deliver stage reads it with the checks here
// before anything of it is pushed or posted; a failed check names itself.
import { createHash } from 'node:crypto';
import {
  commitsBetween,
  linkStaysInside,
  readBlob,
  treeEntries,
  type GitAt,
  type TreeEntry,
} from '../../git/bundle.js';
import { protectedMatcher } from '../../git/stage.js';
import { PLAN_SCHEMA_VERSION, planErrors, type DeliveryPlan } from '../../delivery/plan.js';
import { jobKey, type ArtifactEnvironment } from './artifact.js';
import { apiMessageOf, describeGitHubError, statusOf, type GitHubClient } from '../octokit.js';

export const DELIVERY_ARTIFACT_PREFIX = 'patchloop-delivery';
export const MANIFEST_FILE = 'manifest.json';
export const BUNDLE_FILE = 'commits.bundle';
export const MANIFEST_SCHEMA = PLAN_SCHEMA_VERSION;

/** `patchloop-delivery[-<issue>]-<run id>-<attempt>-<job>[-<job run>]`, unique per job like the transcript's. */
export function deliveryArtifactName(env: ArtifactEnvironment, taskNumber?: number): string {
  return [
    DELIVERY_ARTIFACT_PREFIX,
    ...(taskNumber !== undefined ? [String(taskNumber)] : []),
    env.GITHUB_RUN_ID || 'local',
    env.GITHUB_RUN_ATTEMPT || '1',
    jobKey(env),
  ].join('-');
}

/** The manifest is the run's delivery plan (src/delivery/plan.ts). */
export type DeliveryManifest = DeliveryPlan;

/** A check of the deliver stage that did not pass: `check` names it, `message` says what was found. */
export class DeliveryCheckError extends Error {
  constructor(
    readonly check: string,
    message: string,
  ) {
    super(`Delivery check "${check}" failed: ${message}`);
  }
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * Reads the manifest through the plan's JSON Schema: every field typed and bounded (the
 * conclusion one of the contract's words, numbers numbers, texts and URLs bounded), whether or not
 * it carries commits; otherwise a DeliveryCheckError("manifest") naming the first field found wrong.
 */
export function parseManifest(text: string): DeliveryManifest {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch (err) {
    throw new DeliveryCheckError('manifest', `not JSON (${(err as Error).message})`);
  }
  const wrong = planErrors(m);
  if (wrong !== undefined) throw new DeliveryCheckError('manifest', wrong);
  return m as DeliveryManifest;
}

/** The artifact must come from this workflow run of this repository. */
export function checkProvenance(
  m: DeliveryManifest,
  env: { GITHUB_REPOSITORY?: string; GITHUB_RUN_ID?: string },
): void {
  if (m.repository !== env.GITHUB_REPOSITORY)
    throw new DeliveryCheckError(
      'same run',
      `the manifest names repository ${m.repository}, not ${env.GITHUB_REPOSITORY}`,
    );
  if (m.runId !== env.GITHUB_RUN_ID)
    throw new DeliveryCheckError(
      'same run',
      `the manifest names run ${m.runId}, not this run ${env.GITHUB_RUN_ID}`,
    );
}

/** A commit the recorded base may be (or be an ancestor of): a branch of origin by name, or a commit by id. */
export interface BaseCandidate {
  /** what it is, for the message: "`main` (the branch the PR would merge into)" */
  what: string;
  /** a branch of origin, resolved to its tip through the API now */
  branch?: string;
  /** a commit id the deliver job knows from GitHub itself (the PR's head, a failed run's commit) */
  sha?: string;
}

/**
 * The recorded base must be a commit the run could have started from: equal to or an ancestor of
 * one of `candidates`. GitHub serves any commit of the repository's network by its id (a fork's
 * commits included), so a base that origin merely *has* proves nothing; a compromised agent job
 * could name one that carries a workflow, and only the commits after it are checked. Each branch
 * is resolved to its tip (`GET /branches/{branch}`, so a manifest cannot name `owner:branch` of a
 * fork or a tag), then `GET /compare/{base}...{tip}` says `ahead` or `identical` exactly when the
 * base is reachable from the tip. Returns the candidate that holds the base; otherwise throws
 * DeliveryCheckError('base on a branch') naming the base and every candidate tried. Fails closed:
 * an API error counts as "not shown to hold it", and its message (with the permission to add on
 * 403/404) is in the refusal.
 *
 * Why the API and not git: the deliver job's checkout is usually one commit deep (actions/checkout's
 * default), so `git merge-base --is-ancestor` there would answer "no" at the shallow boundary, and
 * deepening it costs a fetch of history of unbounded size; a fork PR's head is on no branch the
 * checkout fetches; and the checkout's remote-tracking refs are only as fresh as its fetch, while
 * the API answers from origin as it is at delivery. A local check would be better only on a full
 * clone fetched at delivery time, which the deliver job cannot assume.
 */
export async function checkBaseOnBranch(
  github: GitHubClient,
  where: { owner: string; repo: string },
  base: string,
  candidates: readonly BaseCandidate[],
): Promise<string> {
  const tried: string[] = [];
  let accepted: string | undefined;
  for (const c of candidates) {
    let sha = c.sha;
    if (c.branch !== undefined) {
      try {
        sha = (await github.rest.repos.getBranch({ ...where, branch: c.branch })).data.commit.sha;
      } catch (err) {
        tried.push(
          statusOf(err) === 404
            ? `${c.what}: no such branch on origin`
            : `${c.what}: ${describeGitHubError(err, 'read-contents', `Reading the branch ${c.branch}`)}`,
        );
        continue;
      }
    }
    if (!sha) continue;
    if (sha === base) {
      accepted = c.what;
      break;
    }
    try {
      const { data } = await github.rest.repos.compareCommitsWithBasehead({
        ...where,
        basehead: `${base}...${sha}`,
        per_page: 1,
      });
      if (data.status === 'ahead' || data.status === 'identical') {
        accepted = c.what;
        break;
      }
      tried.push(
        `${c.what} at ${sha.slice(0, 12)}: ${data.status} (the base is not an ancestor; merge base ${data.merge_base_commit.sha.slice(0, 12)})`,
      );
    } catch (err) {
      tried.push(
        statusOf(err) === 404
          ? `${c.what} at ${sha.slice(0, 12)}: GitHub answered 404 (${apiMessageOf(err)}): no history in common, a commit GitHub does not know, or a token without \`contents: read\``
          : `${c.what} at ${sha.slice(0, 12)}: ${describeGitHubError(err, 'read-contents', 'Comparing the commits')}`,
      );
    }
  }
  if (!accepted)
    throw new DeliveryCheckError(
      'base on a branch',
      `the recorded base ${base} is not a commit this run could have started from: it is neither equal to nor an ancestor of ${tried.length ? tried.join('; ') : 'any branch (none to try)'}`,
    );
  return accepted;
}

export function bundleDigest(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface ContentPolicy {
  protectedPaths: readonly string[];
  maxFileBytes: number;
}

/**
 * What the commits of `base..head` may carry. Every commit's whole tree: no path with a `.git`
 * component (any case). Every entry that differs from the base's (added, changed or removed): not
 * under protected-paths, no gitlink, no blob over the size limit, no symbolic link whose target
 * leaves the tree. Throws a DeliveryCheckError naming the check.
 */
export async function checkCommits(
  g: GitAt,
  base: string,
  head: string,
  policy: ContentPolicy,
): Promise<void> {
  const commits = await commitsBetween(g, base, head);
  if (commits.length === 0) throw new DeliveryCheckError('commits', `${head} adds nothing to ${base}`);
  const isProtected = protectedMatcher(policy.protectedPaths);
  const baseTree = new Map((await treeEntries(g, base)).map((e) => [e.path, e]));
  const seenLinks = new Set<string>();
  for (const commit of commits) {
    const entries = await treeEntries(g, commit);
    const present = new Set<string>();
    for (const e of entries) {
      present.add(e.path);
      if (e.path.split('/').some((c) => c.toLowerCase() === '.git'))
        throw new DeliveryCheckError(
          'no .git path',
          `commit ${commit.slice(0, 12)} has ${JSON.stringify(e.path)}`,
        );
      const before = baseTree.get(e.path);
      if (before && before.mode === e.mode && before.sha === e.sha) continue;
      await checkChanged(g, commit, e, before, isProtected, policy, seenLinks);
    }
    for (const path of baseTree.keys()) {
      if (present.has(path)) continue;
      const glob = isProtected(path);
      if (glob)
        throw new DeliveryCheckError(
          'protected-paths',
          `commit ${commit.slice(0, 12)} removes ${path} (protected by ${glob})`,
        );
      if (baseTree.get(path)!.mode === '160000')
        throw new DeliveryCheckError(
          'no submodule change',
          `commit ${commit.slice(0, 12)} removes the submodule ${path}`,
        );
    }
  }
}

async function checkChanged(
  g: GitAt,
  commit: string,
  e: TreeEntry,
  before: TreeEntry | undefined,
  isProtected: (p: string) => string | undefined,
  policy: ContentPolicy,
  seenLinks: Set<string>,
): Promise<void> {
  const at = `commit ${commit.slice(0, 12)}`;
  const glob = isProtected(e.path);
  if (glob) throw new DeliveryCheckError('protected-paths', `${at} changes ${e.path} (protected by ${glob})`);
  if (e.mode === '160000' || before?.mode === '160000')
    throw new DeliveryCheckError('no submodule change', `${at} changes the submodule entry ${e.path}`);
  if (e.type !== 'blob')
    throw new DeliveryCheckError('commits', `${at} has an entry ${e.path} of type ${e.type}`);
  if ((e.size ?? 0) > policy.maxFileBytes)
    throw new DeliveryCheckError(
      'size limit',
      `${at} has ${e.path} of ${e.size} bytes, over the ${policy.maxFileBytes} allowed`,
    );
  if (e.mode === '120000' && !seenLinks.has(`${e.path}\0${e.sha}`)) {
    const target = (await readBlob(g, e.sha)).toString('utf8');
    if (!linkStaysInside(e.path, target))
      throw new DeliveryCheckError(
        'symlink inside the tree',
        `${at} makes ${e.path} a link to ${JSON.stringify(target)}, outside the tree`,
      );
    seenLinks.add(`${e.path}\0${e.sha}`);
  }
}

/** Whether SHA looks like a commit id. */
export function isCommitId(s: string): boolean {
  return SHA.test(s);
}
