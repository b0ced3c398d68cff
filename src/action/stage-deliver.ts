// stage: deliver (CONTRACT §11): a job that runs no agent and no command. It downloads the
// delivery artifact of this workflow run, checks it (delivery-artifact.ts), then pushes, opens or
// updates the PR, posts the summary and sets the outputs as stage: all would. A failed check
// delivers nothing and says which check failed.
import * as core from './runner-commands.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { downloadRunArtifact } from '../github/artifact-download.js';
import { commentBody, readSessionMarker, TrackingComment, type SessionMarker } from '../github/comment.js';
import {
  BUNDLE_FILE,
  bundleDigest,
  checkBaseOnBranch,
  checkCommits,
  checkProvenance,
  DELIVERY_ARTIFACT_PREFIX,
  DeliveryCheckError,
  MANIFEST_FILE,
  parseManifest,
  type BaseCandidate,
  type DeliveryManifest,
} from '../github/delivery-artifact.js';
import { headRefusal, pushAndPropose, type Delivery, type WorkPlan } from '../github/delivery.js';
import { cleanPrefix } from '../git/branch-name.js';
import { fetchBundle, hasCommit, listBundle, verifyBundle, type GitAt } from '../git/bundle.js';
import { DEFAULT_MAX_FILE_BYTES, GitRepo, restoreCheckoutCredential } from '../git/index.js';
import { createRedactor } from '../protocol/redact.js';
import type { Usage } from '../protocol/types.js';
import { renderSummaryMarkdown, STEP_SUMMARY_MAX_BYTES, type RunSummaryInput } from '../report/summary.js';
import { setRunOutputs } from './outputs.js';
import type { RunState } from './state.js';

const FAILING: ReadonlySet<string> = new Set(['failure', 'budget-exceeded', 'cancelled']);
const HEAD_REF = 'refs/patchloop-delivery/head';

export async function runDeliverStage(s: RunState): Promise<number> {
  let manifest: DeliveryManifest | undefined;
  try {
    manifest = await readArtifact(s);
    return await apply(s, manifest);
  } catch (err) {
    const check = err instanceof DeliveryCheckError ? err.check : 'delivery';
    const message = err instanceof Error ? err.message : String(err);
    return refuse(s, manifest, check, message);
  } finally {
    // Later steps of the workflow may push with the checkout's credential, as before the run.
    await s.credentialReady
      .then((credential) =>
        s.repo
          ? s.repo.restoreCredential(credential)
          : restoreCheckoutCredential(s.runner.workspace, credential),
      )
      .catch((err: Error) =>
        core.warning(`patchloop: the checkout credential was not put back: ${err.message}`),
      );
    await s.repo?.dispose().catch(() => undefined);
  }
}

/** Downloads this run's delivery artifact and reads its manifest; the bundle is left in `s.dir`. */
async function readArtifact(s: RunState): Promise<DeliveryManifest> {
  const n = s.task.number !== undefined ? `${s.task.number}-` : '';
  const got = await downloadRunArtifact(s.github, {
    owner: s.task.owner,
    repo: s.task.repo,
    runId: s.runner.runId,
    prefix: `${DELIVERY_ARTIFACT_PREFIX}-${n}${s.runner.runId}-`,
    files: [MANIFEST_FILE, BUNDLE_FILE],
  });
  if (!got.ok) throw new DeliveryCheckError('artifact of this run', got.message);
  const text = got.entries.get(MANIFEST_FILE);
  if (!text)
    throw new DeliveryCheckError('manifest', `the artifact ${got.artifact.name} holds no ${MANIFEST_FILE}`);
  const manifest = parseManifest(text.toString('utf8'));
  checkProvenance(manifest, s.env);
  const bundle = got.entries.get(BUNDLE_FILE);
  if (manifest.headCommit) {
    if (!bundle) throw new DeliveryCheckError('bundle', `the artifact holds no ${BUNDLE_FILE}`);
    if (manifest.bundleSha256 !== undefined && bundleDigest(bundle) !== manifest.bundleSha256)
      throw new DeliveryCheckError('bundle', 'the bundle does not match the digest the manifest gives');
    mkdirSync(join(s.dir, 'delivery-in'), { recursive: true, mode: 0o700 });
    writeFileSync(bundlePath(s), bundle);
  }
  core.info(`patchloop: delivery artifact ${got.artifact.name} read (run ${manifest.runId}).`);
  return manifest;
}

function bundlePath(s: RunState): string {
  return join(s.dir, 'delivery-in', BUNDLE_FILE);
}

async function apply(s: RunState, m: DeliveryManifest): Promise<number> {
  const out: Delivery = { notices: [], leftOut: [] };
  if (m.headCommit) {
    const repo = await openRepo(s);
    const g: GitAt = {
      runner: repo.runner,
      call: { cwd: repo.dir, env: { GIT_DIR: repo.privateGitDir!, GIT_WORK_TREE: repo.dir } },
    };
    await checkBundle(s, repo, g, m);
    await checkBase(s, m);
    await fetchBundle(
      g,
      bundlePath(s),
      (await listBundle(g, bundlePath(s))).refs.keys().next().value!,
      HEAD_REF,
    );
    await checkCommits(g, m.baseCommit, m.headCommit, {
      protectedPaths: s.inputs.protectedPaths,
      maxFileBytes: DEFAULT_MAX_FILE_BYTES,
    });
    await checkBranch(s, m);
    await g.runner.text(['checkout', '--quiet', '--force', '-B', m.branch, m.headCommit], g.call);
    out.commit = { sha: m.headCommit, files: [], leftOut: [] };
    const plan: WorkPlan = {
      mode: m.prHead ? 'pr-head' : 'new-branch',
      branch: m.branch,
      prBase: m.prBase,
      openPr: m.openPr && !m.prHead,
      note: '',
    };
    await pushAndPropose(
      {
        checkout: repo,
        plan,
        message: '',
        baselineUntracked: [],
        push: true,
        github: s.github,
        owner: s.task.owner,
        repo: s.task.repo,
        serverUrl: s.runner.serverUrl,
        draft: m.draft,
        prTitle: m.prTitle,
        prBody: () => m.prBody,
      },
      out,
    );
  }
  return publish(s, m, out);
}

async function openRepo(s: RunState): Promise<GitRepo> {
  const credential = await s.credentialReady;
  s.redact = createRedactor([...s.secrets, ...credential.secrets]);
  const repo = (s.repo = new GitRepo({
    dir: s.runner.workspace,
    credential,
    identitySource: 'local',
    protectedPaths: s.inputs.protectedPaths,
    privateParent: s.runner.runnerTemp,
  }));
  await repo.isolate();
  return repo;
}

/** The bundle needs exactly the recorded base commit, holds exactly the recorded head, and verifies. */
async function checkBundle(s: RunState, repo: GitRepo, g: GitAt, m: DeliveryManifest): Promise<void> {
  const heads = await listBundle(g, bundlePath(s)).catch((err: Error) => {
    throw new DeliveryCheckError('bundle', err.message);
  });
  const pre = heads.prerequisites;
  if (pre.length !== 1 || pre[0] !== m.baseCommit)
    throw new DeliveryCheckError(
      'bundle on the recorded base',
      `the bundle needs ${pre.join(', ') || 'no commit'}, not exactly the recorded base ${m.baseCommit}`,
    );
  const refs = [...heads.refs.values()];
  if (refs.length !== 1 || refs[0] !== m.headCommit)
    throw new DeliveryCheckError(
      'bundle on the recorded base',
      `the bundle's tip is not the recorded head ${m.headCommit}`,
    );
  if (!(await hasCommit(g, m.baseCommit))) {
    await repo.fetchCommit(m.baseCommit).catch(() => undefined);
    if (!(await hasCommit(g, m.baseCommit)))
      throw new DeliveryCheckError(
        'bundle on the recorded base',
        `the base commit ${m.baseCommit} is neither in this checkout nor on origin`,
      );
  }
  await verifyBundle(g, bundlePath(s)).catch((err: Error) => {
    throw new DeliveryCheckError('bundle verify', err.message);
  });
}

/**
 * The recorded base is a commit the run could have started from (checkBaseOnBranch): the branch a
 * PR would merge into, the branch the commits go to (a follow-up continues an existing branch; a
 * PR's own head branch), and what the deliver job learns from GitHub itself, not from the
 * artifact: the PR's head for a run about a pull request (a fork's head is on no branch of
 * origin), the failed commit for a run about a failed workflow run.
 */
async function checkBase(s: RunState, m: DeliveryManifest): Promise<void> {
  const candidates: BaseCandidate[] = [
    { what: `\`${m.prBase}\` (the branch a pull request would merge into)`, branch: m.prBase },
  ];
  if (m.branch !== m.prBase)
    candidates.push({ what: `\`${m.branch}\` (the branch the commits go to)`, branch: m.branch });
  if (s.task.isPullRequest) {
    const pr = await s.contextReady.then(
      (c) => c.pr,
      () => undefined,
    );
    if (pr?.headSha) candidates.push({ what: `the head of pull request #${s.task.number}`, sha: pr.headSha });
  }
  const run = s.task.workflowRun;
  if (run?.headSha)
    candidates.push({ what: `the commit workflow run ${run.id} failed on`, sha: run.headSha });
  const on = await checkBaseOnBranch(
    s.github,
    { owner: s.task.owner, repo: s.task.repo },
    m.baseCommit,
    candidates,
  );
  core.info(`patchloop: the recorded base ${m.baseCommit.slice(0, 12)} is on ${on}.`);
}

/** The branch is one patchloop may push: the PR's own head under today's rules, or a prefixed branch that is neither default nor protected. */
async function checkBranch(s: RunState, m: DeliveryManifest): Promise<void> {
  const fail = (message: string) => new DeliveryCheckError('branch', message);
  const { task } = s;
  const defaultBranch =
    task.defaultBranch ??
    (await s.github.rest.repos.get({ owner: task.owner, repo: task.repo })).data.default_branch;
  if (m.branch === defaultBranch) throw fail(`\`${m.branch}\` is the default branch`);
  if (m.prHead) {
    const pr = (await s.contextReady).pr;
    if (!task.isPullRequest || !pr || m.pullNumber !== task.number || pr.headRef !== m.branch)
      throw fail(`\`${m.branch}\` is not the head branch of the pull request this run is about`);
    const refusal = await headRefusal({ ...task, defaultBranch }, pr, s.github);
    if (refusal) throw fail(`pull request #${task.number} may not be pushed to: ${refusal}`);
    return;
  }
  const prefix = cleanPrefix(s.inputs.branchPrefix);
  if (!prefix || !m.branch.startsWith(prefix))
    throw fail(`\`${m.branch}\` does not start with the branch prefix \`${prefix}\``);
  if (!/^[A-Za-z0-9._/-]+$/.test(m.branch) || m.branch.includes('..') || m.branch.endsWith('.lock'))
    throw fail(`\`${m.branch}\` is not a branch name patchloop makes`);
  const branch = await s.github.rest.repos
    .getBranch({ owner: task.owner, repo: task.repo, branch: m.branch })
    .then((r) => r.data)
    .catch((err: { status?: number }) => {
      if (err.status === 404) return undefined;
      throw fail(`\`${m.branch}\` could not be checked: ${String((err as Error).message)}`);
    });
  if (branch?.protected) throw fail(`\`${m.branch}\` is protected`);
}

async function publish(s: RunState, m: DeliveryManifest, d: Delivery): Promise<number> {
  const pr = d.pr && (d.pr.kind === 'created' || d.pr.kind === 'existing') ? d.pr : undefined;
  const compare = d.pr && (d.pr.kind === 'forbidden' || d.pr.kind === 'failed') ? d.pr.compareUrl : undefined;
  const summary = m.summary as unknown as RunSummaryInput;
  let conclusion = m.outputs.conclusion;
  if (d.error) conclusion = 'failure';
  const input: RunSummaryInput = {
    ...summary,
    conclusion: conclusion as RunSummaryInput['conclusion'],
    branch: d.push?.branch ?? summary.branch,
    commitSha: d.push?.sha ?? summary.commitSha,
    prUrl: pr?.url,
    prNumber: pr?.number,
    compareUrl: compare,
    pushed: Boolean(d.push),
    error: [summary.error, d.error].filter(Boolean).join(' ') || undefined,
    notices: [...(summary.notices ?? []), ...d.notices, ...s.notices],
  };
  const text = renderSummaryMarkdown(input, { redact: s.redact });
  const marker: SessionMarker = {
    runId: s.runner.runId,
    sessionId: m.marker.sessionId,
    ...(input.branch ? { branch: input.branch } : {}),
    ...(m.marker.artifactId !== undefined ? { artifactId: m.marker.artifactId } : {}),
    ...(m.marker.artifactName ? { artifactName: m.marker.artifactName } : {}),
  };
  const commentUrl = await postSummary(s, m, text, marker);
  try {
    await core.appendSummary(
      renderSummaryMarkdown(input, { redact: s.redact, maxBytes: STEP_SUMMARY_MAX_BYTES }),
    );
  } catch (err) {
    core.warning(`patchloop: the step summary could not be written (${(err as Error).message}).`);
  }
  setRunOutputs(
    {
      conclusion,
      branch: input.branch,
      commitSha: input.commitSha,
      prNumber: input.prNumber,
      prUrl: input.prUrl,
      commentUrl,
      transcriptPath: m.outputs.transcriptPath,
      artifactUrl: m.outputs.artifactUrl,
      model: m.outputs.model,
      turns: m.outputs.turns,
      usage: m.outputs.usage as unknown as Usage,
    },
    s.redact,
  );
  s.log.outcome(input);
  if (FAILING.has(conclusion)) {
    core.setFailed(
      s.redact(input.error ? `patchloop: ${conclusion}: ${input.error}` : `patchloop: ${conclusion}`),
    );
    return 1;
  }
  return 0;
}

/**
 * Edits the agent stage's tracking comment into `text` when the manifest names one that is this
 * run's own (on this issue, posted by a bot, carrying this run's marker); otherwise posts a new comment.
 */
async function postSummary(
  s: RunState,
  m: DeliveryManifest | undefined,
  text: string,
  marker?: SessionMarker,
): Promise<string | undefined> {
  const { task } = s;
  if (task.number === undefined) return undefined;
  const body = commentBody(text, s.redact, marker);
  try {
    if (m?.commentId !== undefined) {
      const { data } = await s.github.rest.issues.getComment({
        owner: task.owner,
        repo: task.repo,
        comment_id: m.commentId,
      });
      const ours =
        data.issue_url.endsWith(`/issues/${task.number}`) &&
        data.user?.type === 'Bot' &&
        readSessionMarker(data.body)?.runId === s.runner.runId;
      if (ours) {
        await s.github.rest.issues.updateComment({
          owner: task.owner,
          repo: task.repo,
          comment_id: m.commentId,
          body,
        });
        return data.html_url;
      }
      core.warning(
        `patchloop: comment ${m.commentId} is not this run's tracking comment; posting a new one.`,
      );
    }
    const c = await TrackingComment.create(
      { github: s.github, owner: task.owner, repo: task.repo, issueNumber: task.number, redact: s.redact },
      text,
      marker,
    );
    return c.url;
  } catch (err) {
    core.warning(s.redact(`patchloop: the summary comment could not be written: ${(err as Error).message}`));
    return undefined;
  }
}

/** A check failed: nothing is pushed; the log, the step summary and (when it can) the comment say which. */
async function refuse(
  s: RunState,
  m: DeliveryManifest | undefined,
  check: string,
  message: string,
): Promise<number> {
  const text = [
    '### ❌ patchloop delivered nothing',
    '',
    `The delivery check **${check}** failed, so nothing was pushed and no pull request was opened or changed.`,
    '',
    `> ${message.replace(/\n/g, ' ')}`,
    '',
    `[The run](${s.runUrl})`,
  ].join('\n');
  core.error(s.redact(`patchloop: delivery check "${check}" failed: ${message}`));
  try {
    await core.appendSummary(s.redact(text));
  } catch {
    // the log above says it
  }
  // A manifest that failed its own checks names nothing to trust: only a new comment is posted then.
  await postSummary(s, check === 'manifest' || check === 'same run' ? undefined : m, text);
  setRunOutputs({ conclusion: 'failure' });
  core.setFailed(s.redact(`patchloop: failure: delivery check "${check}" failed`));
  return 1;
}
