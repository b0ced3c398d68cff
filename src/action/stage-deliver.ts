// stage: deliver (CONTRACT §11): a job that runs no agent and no command. It downloads the
// delivery artifact of this workflow run, checks it (delivery-artifact.ts), then applies the plan
// through the same apply as stage: all (delivery/apply.ts): pushes, opens or updates the PR, posts
// the review and the summary and sets the outputs. Its transcript artifact is the agent job's
// with what this job did added (the comment, the push, the PR), so a later follow-up finds and
// confirms the session from the summary comment or the PR. A failed check delivers nothing and
// says which check failed.
import * as core from './runner-commands.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyPlan, type ApplyTarget } from '../delivery/apply.js';
import type { DeliveryPlan } from '../delivery/plan.js';
import { deriveTarget, type Target } from '../delivery/target.js';
import { downloadRunArtifact } from '../github/follow-up/artifact-download.js';
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
} from '../github/delivery/delivery-artifact.js';
import { cleanPrefix } from '../git/branch-name.js';
import { fetchBundle, hasCommit, listBundle, verifyBundle, type GitAt } from '../git/bundle.js';
import { DEFAULT_MAX_FILE_BYTES, GitRepo, restoreCheckoutCredential } from '../git/index.js';
import { commentBody, readSessionMarker, TrackingComment } from '../github/comment.js';
import { createRedactor } from '../protocol/redact.js';
import { TranscriptWriter } from '../protocol/transcript.js';
import { recordDeliveredSummary } from '../run/phases.js';
import { renderSummaryMarkdown, type RunSummaryInput } from '../report/summary.js';
import { actionHost } from './apply-host.js';
import { setRunOutputs } from './outputs.js';
import type { RunState } from './state.js';
import { TRANSCRIPT_IN_ARTIFACT } from './stage-agent.js';

const HEAD_REF = 'refs/patchloop-delivery/head';

export async function runDeliverStage(s: RunState): Promise<number> {
  let manifest: DeliveryManifest | undefined;
  try {
    const read = await readArtifact(s);
    manifest = read.manifest;
    // Every check before any write: the plan's fields (its schema), where the work goes (derived
    // here), the commits, the review, the answer and the summary's rendering.
    const checked = await checkPlan(s, manifest, read.agentJob);
    const plan = trustedFields(manifest);
    await adoptComment(s, plan);
    const agentSummary = startTranscript(s, read.transcript);
    const host = actionHost(s, {
      noticesFrom: 0,
      summaryLine: (end) => {
        // the agent's summary line, with how the delivery ended and where the work went
        if (s.transcript) recordDeliveredSummary(s.transcript, agentSummary, end);
      },
      postsReview: true,
      postsComment: true,
    });
    return (await applyPlan(host, plan, checked)).code;
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
async function readArtifact(
  s: RunState,
): Promise<{ manifest: DeliveryManifest; agentJob?: string; transcript?: Buffer }> {
  const n = s.task.number !== undefined ? `${s.task.number}-` : '';
  const prefix = `${DELIVERY_ARTIFACT_PREFIX}-${n}${s.runner.runId}-`;
  const got = await downloadRunArtifact(s.github, {
    owner: s.task.owner,
    repo: s.task.repo,
    runId: s.runner.runId,
    prefix,
    files: [MANIFEST_FILE, BUNDLE_FILE, TRANSCRIPT_IN_ARTIFACT],
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
  // `<prefix><attempt>-<job key>`: the agent job's key names a prompt task's branch
  const agentJob = /^[0-9]+-(.+)$/.exec(got.artifact.name.slice(prefix.length))?.[1];
  const transcript = manifest.transcript ? got.entries.get(TRANSCRIPT_IN_ARTIFACT) : undefined;
  return { manifest, ...(agentJob ? { agentJob } : {}), ...(transcript ? { transcript } : {}) };
}

/**
 * The plan with what this job knows itself taken out of its summary (where the work is, the PR,
 * the review, the answer, the transcript's artifact): apply fills them in from what it did.
 */
function trustedFields(m: DeliveryManifest): DeliveryPlan {
  const {
    branch: _branch,
    commitSha: _commit,
    prUrl: _prUrl,
    prNumber: _prNumber,
    compareUrl: _compare,
    pushed: _pushed,
    reviewUrl: _review,
    structuredOutput: _answer,
    artifactUrl: _artifactUrl,
    artifactName: _artifactName,
    ...summary
  } = m.summary as Record<string, unknown>;
  return { ...m, summary };
}

/**
 * The agent job's tracking comment, when the plan names one that is this run's own (on this issue,
 * posted by a bot, carrying this run's marker): the summary is written into it. Otherwise apply
 * posts one.
 */
async function adoptComment(s: RunState, m: DeliveryPlan): Promise<void> {
  const { task } = s;
  if (task.number === undefined || m.commentId === undefined) return;
  try {
    const { data } = await s.github.rest.issues.getComment({
      owner: task.owner,
      repo: task.repo,
      comment_id: m.commentId,
    });
    const ours =
      data.issue_url.endsWith(`/issues/${task.number}`) &&
      data.user?.type === 'Bot' &&
      readSessionMarker(data.body)?.runId === s.runner.runId;
    if (!ours) {
      core.warning(
        `patchloop: comment ${m.commentId} is not this run's tracking comment; posting a new one.`,
      );
      return;
    }
    s.comment = TrackingComment.resume(
      {
        github: s.github,
        owner: task.owner,
        repo: task.repo,
        issueNumber: task.number,
        redact: (t) => s.redact(t),
      },
      {
        id: data.id,
        url: data.html_url,
        body: data.body ?? '',
        ...(data.user?.login ? { author: data.user.login } : {}),
      },
    );
  } catch (err) {
    core.warning(
      s.redact(
        `patchloop: the tracking comment could not be read (${(err as Error).message}); posting a new one.`,
      ),
    );
  }
}

/**
 * This job's transcript: the agent job's, without its summary line (returned), written on by this
 * job (the comment, the push, the PR, the review) and ended with the delivery's summary line.
 */
function startTranscript(s: RunState, agent: Buffer | undefined): Record<string, unknown> | undefined {
  if (!agent) return undefined;
  const lines = agent
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  let summary: Record<string, unknown> | undefined;
  try {
    const last = JSON.parse(lines.at(-1) ?? '') as Record<string, unknown>;
    if (last && last.type === 'summary') {
      summary = last;
      lines.pop();
    }
  } catch {
    // a last line cut short: left as it is
  }
  try {
    mkdirSync(s.dir, { recursive: true, mode: 0o700 });
    writeFileSync(s.transcriptPath, lines.length ? `${lines.join('\n')}\n` : '');
    s.transcript = new TranscriptWriter(s.transcriptPath, {
      redact: s.redact,
      onError: (err) => core.warning(`patchloop: the transcript could not be written (${err.message}).`),
    });
  } catch (err) {
    core.warning(
      `patchloop: the agent job's transcript could not be carried on (${(err as Error).message}).`,
    );
    return undefined;
  }
  s.transcript.event('deliver', { job: s.env.GITHUB_JOB ?? '', runAttempt: s.runner.runAttempt });
  return summary;
}

function bundlePath(s: RunState): string {
  return join(s.dir, 'delivery-in', BUNDLE_FILE);
}

/** Every check of the plan, before anything is written; returns where the work goes and the checkout on its commit. */
async function checkPlan(s: RunState, m: DeliveryManifest, agentJob?: string): Promise<ApplyTarget> {
  if (m.branch === undefined || m.prBase === undefined || m.baseCommit === undefined)
    throw new DeliveryCheckError('manifest', 'the plan names no branch, pull-request base or base commit');
  const target = await deriveTarget(s, { branch: m.branch, prBase: m.prBase }, agentJob);
  const review = s.task.mode === 'review';
  if (review && m.headCommit)
    throw new DeliveryCheckError('review', 'a review pushes nothing, yet the plan carries commits');
  if (!review && m.review)
    throw new DeliveryCheckError('review', 'the plan carries a review for a task that is not one');
  if (m.answer !== undefined) checkAnswer(s, m.answer);
  checkSummary(s, m, target);
  if (!m.headCommit) return { target };
  const repo = await openRepo(s);
  const g: GitAt = {
    runner: repo.runner,
    call: { cwd: repo.dir, env: { GIT_DIR: repo.privateGitDir!, GIT_WORK_TREE: repo.dir } },
  };
  await checkBundle(s, repo, g, m);
  await checkBase(s, m.baseCommit, target);
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
  await checkBranch(s, target);
  await g.runner.text(['checkout', '--quiet', '--force', '-B', target.branch, m.headCommit], g.call);
  return { target, repo };
}

/** The answer is JSON, and valid against this job's `output-schema` when it is given one. */
function checkAnswer(s: RunState, answer: string): void {
  let value: unknown;
  try {
    value = JSON.parse(answer);
  } catch (err) {
    throw new DeliveryCheckError('answer', `the structured answer is not JSON (${(err as Error).message})`);
  }
  if (s.answerSchema && !s.answerSchema.validate(value))
    throw new DeliveryCheckError('answer', 'the structured answer does not validate against output-schema');
}

/** The summary renders (with what this job will fill in) before anything is written. */
function checkSummary(s: RunState, m: DeliveryManifest, target: Target): void {
  try {
    renderSummaryMarkdown(
      {
        ...(m.summary as unknown as RunSummaryInput),
        conclusion: m.outputs.conclusion,
        branch: target.branch,
        commitSha: m.headCommit,
        runUrl: s.runUrl,
      },
      { redact: s.redact },
    );
  } catch (err) {
    throw new DeliveryCheckError('summary', `the plan's summary does not render (${(err as Error).message})`);
  }
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
async function checkBase(s: RunState, baseCommit: string, target: Target): Promise<void> {
  const prBase = target.prBases[0]!;
  const candidates: BaseCandidate[] = [
    { what: `\`${prBase}\` (the branch a pull request would merge into)`, branch: prBase },
  ];
  if (target.branch !== prBase)
    candidates.push({ what: `\`${target.branch}\` (the branch the commits go to)`, branch: target.branch });
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
    baseCommit,
    candidates,
  );
  core.info(`patchloop: the recorded base ${baseCommit.slice(0, 12)} is on ${on}.`);
}

/** The branch is one patchloop may push: the PR's own head under today's rules, or a prefixed branch that is neither default nor protected. */
async function checkBranch(s: RunState, t: Target): Promise<void> {
  const fail = (message: string) => new DeliveryCheckError('branch', message);
  const { task } = s;
  const defaultBranch =
    task.defaultBranch ??
    (await s.github.rest.repos.get({ owner: task.owner, repo: task.repo })).data.default_branch;
  if (t.branch === defaultBranch) throw fail(`\`${t.branch}\` is the default branch`);
  if (t.mode === 'pr-head') return;
  const prefix = cleanPrefix(s.inputs.branchPrefix);
  if (!prefix || !t.branch.startsWith(prefix))
    throw fail(`\`${t.branch}\` does not start with the branch prefix \`${prefix}\``);
  if (!/^[A-Za-z0-9._/-]+$/.test(t.branch) || t.branch.includes('..') || t.branch.endsWith('.lock'))
    throw fail(`\`${t.branch}\` is not a branch name patchloop makes`);
  const branch = await s.github.rest.repos
    .getBranch({ owner: task.owner, repo: task.repo, branch: t.branch })
    .then((r) => r.data)
    .catch((err: { status?: number }) => {
      if (err.status === 404) return undefined;
      throw fail(`\`${t.branch}\` could not be checked: ${String((err as Error).message)}`);
    });
  if (branch?.protected) throw fail(`\`${t.branch}\` is protected`);
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
  await refusalComment(
    s,
    check === 'manifest' || check === 'same run' || check === 'plan' ? undefined : m,
    text,
  );
  setRunOutputs({ conclusion: 'failure' });
  core.setFailed(s.redact(`patchloop: failure: delivery check "${check}" failed`));
  return 1;
}

/**
 * The refusal, written into the agent job's tracking comment when the plan names this run's own
 * (adoptComment's check), otherwise posted as a new comment.
 */
async function refusalComment(s: RunState, m: DeliveryManifest | undefined, text: string): Promise<void> {
  const { task } = s;
  if (task.number === undefined) return;
  try {
    if (m && !s.comment) await adoptComment(s, m);
    if (s.comment) {
      if (await s.comment.finish(text)) return;
    }
    await s.github.rest.issues.createComment({
      owner: task.owner,
      repo: task.repo,
      issue_number: task.number,
      body: commentBody(text, s.redact),
    });
  } catch (err) {
    core.warning(s.redact(`patchloop: the summary comment could not be written: ${(err as Error).message}`));
  }
}
