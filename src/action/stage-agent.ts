// stage: agent (CONTRACT §11): the run up to delivery is the same as in one job; its delivery is
// written down instead of done. This uploads the delivery artifact (manifest, bundle of the new
// commits on the recorded base, transcript) that a later `stage: deliver` job checks and applies.
import * as core from './runner-commands.js';
import { copyFileSync, existsSync, mkdirSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseArtifactUploader } from '../github/artifact.js';
import {
  BUNDLE_FILE,
  bundleDigest,
  deliveryArtifactName,
  MANIFEST_FILE,
  MANIFEST_SCHEMA,
  type DeliveryManifest,
} from '../github/delivery-artifact.js';
import { createBundle, type GitAt } from '../git/bundle.js';
import { commitMessage } from '../github/commit-message.js';
import { renderSummaryMarkdown, type RunSummaryInput } from '../report/summary.js';
import type { FinishInput, RunState } from './state.js';

export const TRANSCRIPT_IN_ARTIFACT = 'transcript.jsonl';

/**
 * Uploads the delivery artifact; returns its name, or undefined (with a notice) when it could not
 * be made. `input` is the summary as this stage knows it; `prBody` renders the PR's body.
 */
export async function uploadDeliveryArtifact(
  s: RunState,
  o: FinishInput,
  input: RunSummaryInput,
  prBody: () => string,
): Promise<string | undefined> {
  const plan = o.plan;
  const commit = o.delivery?.commit;
  const base = plan?.startedFrom;
  if (!plan || !base) {
    s.notice('Nothing was delivered: the run stopped before its branch was ready.');
    return undefined;
  }
  const choice = chooseArtifactUploader(s.env);
  if (!choice.uploader) {
    s.notice(`The delivery artifact could not be uploaded: ${choice.notice}`);
    return undefined;
  }
  const dir = join(s.dir, 'delivery');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const files: string[] = [];
  try {
    let bundleSha256: string | undefined;
    if (commit && s.repo) {
      const g: GitAt = {
        runner: s.repo.runner,
        call: {
          cwd: s.repo.dir,
          env: s.repo.privateGitDir ? { GIT_DIR: s.repo.privateGitDir, GIT_WORK_TREE: s.repo.dir } : {},
        },
      };
      const path = join(dir, BUNDLE_FILE);
      await createBundle(g, { path, base, head: commit.sha, branch: plan.branch });
      bundleSha256 = bundleDigest(readFileSync(path));
      files.push(path);
    }
    if (s.transcript && existsSync(s.transcriptPath)) {
      copyFileSync(s.transcriptPath, join(dir, TRANSCRIPT_IN_ARTIFACT));
      files.push(join(dir, TRANSCRIPT_IN_ARTIFACT));
    }
    const manifest: DeliveryManifest = {
      schema: MANIFEST_SCHEMA,
      repository: s.runner.repository,
      runId: s.runner.runId,
      runAttempt: s.runner.runAttempt,
      workflowRef: s.env.GITHUB_WORKFLOW_REF ?? '',
      baseCommit: base,
      ...(commit ? { headCommit: commit.sha } : {}),
      branch: plan.branch,
      prHead: plan.mode === 'pr-head',
      prBase: plan.prBase,
      openPr: plan.openPr,
      draft: s.inputs.draftPr,
      ...(plan.pullNumber !== undefined ? { pullNumber: plan.pullNumber } : {}),
      prTitle: commitMessage({ task: s.task, runUrl: s.runUrl }).split('\n')[0]!,
      prBody: commit ? s.redact(prBody()) : '',
      ...(s.comment ? { commentId: s.comment.id } : {}),
      commentText: renderSummaryMarkdown(input, { redact: s.redact }),
      summary: JSON.parse(s.redact(JSON.stringify(input))) as Record<string, unknown>,
      outputs: {
        conclusion: o.conclusion,
        model: input.models.join(','),
        turns: input.turns,
        usage: { ...input.usage } as unknown as Record<string, number>,
        ...(s.transcript ? { transcriptPath: s.transcriptPath } : {}),
        ...(s.artifactUrl ? { artifactUrl: s.artifactUrl } : {}),
      },
      marker: {
        sessionId: s.sessionId,
        ...(s.artifactName ? { artifactName: s.artifactName } : {}),
        ...(s.artifactId !== undefined ? { artifactId: s.artifactId } : {}),
      },
      ...(files.some((f) => f.endsWith(TRANSCRIPT_IN_ARTIFACT))
        ? { transcript: TRANSCRIPT_IN_ARTIFACT }
        : {}),
      ...(bundleSha256 ? { bundleSha256 } : {}),
    };
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    files.push(join(dir, MANIFEST_FILE));
    const name = deliveryArtifactName(s.env, s.task.number);
    await choice.uploader.upload(name, files, dir);
    core.info(`patchloop: delivery artifact ${name} uploaded; a stage: deliver job pushes and posts it.`);
    return name;
  } catch (err) {
    s.notice(`The delivery artifact could not be made: ${(err as Error).message}`);
    return undefined;
  }
}

/** The hook publish.ts calls in stage: agent: uploads the artifact and says in the summary where the work is. */
export async function stageAgentArtifact(
  s: RunState,
  o: FinishInput,
  input: RunSummaryInput,
  prBody: () => string,
): Promise<string | undefined> {
  const before = s.notices.length;
  const name = await uploadDeliveryArtifact(s, o, input, prBody);
  const notices = [...(input.notices ?? []), ...s.notices.slice(before)];
  if (name)
    notices.push(
      `stage: agent — nothing was pushed or posted by this job: the work is in the delivery artifact \`${name}\`, which the stage: deliver job checks and delivers.`,
    );
  input.notices = notices;
  return name;
}
