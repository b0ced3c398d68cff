// stage: agent (CONTRACT §11): the run up to delivery is the same as in one job, and ends in the
// same delivery plan (run-plan.ts); the plan is handed on instead of pushed: this uploads the
// delivery artifact (the plan as its manifest, a bundle of the new commits on the recorded base,
// the transcript) that a later `stage: deliver` job checks and applies.
import * as core from './runner-commands.js';
import { copyFileSync, existsSync, mkdirSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseArtifactUploader } from '../github/delivery/artifact.js';
import type { DeliveryPlan } from '../delivery/plan.js';
import {
  BUNDLE_FILE,
  bundleDigest,
  deliveryArtifactName,
  MANIFEST_FILE,
  type DeliveryManifest,
} from '../github/delivery/delivery-artifact.js';
import { createBundle, type GitAt } from '../git/bundle.js';
import type { FinishInput, RunState } from './state.js';

export const TRANSCRIPT_IN_ARTIFACT = 'transcript.jsonl';

/**
 * Uploads the delivery artifact: the plan as its manifest, the bundle of the plan's commits on
 * its recorded base, the transcript. Returns its name, or undefined (with a notice) when it could
 * not be made; gives the upload up at `signal`.
 */
export async function uploadDeliveryArtifact(
  s: RunState,
  plan: DeliveryPlan,
  signal: AbortSignal,
): Promise<string | undefined> {
  const base = plan.baseCommit;
  const branch = plan.branch;
  if (!base || !branch || plan.prBase === undefined) {
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
    if (plan.headCommit && s.repo) {
      const g: GitAt = {
        runner: s.repo.runner,
        call: {
          cwd: s.repo.dir,
          env: s.repo.privateGitDir ? { GIT_DIR: s.repo.privateGitDir, GIT_WORK_TREE: s.repo.dir } : {},
        },
      };
      const path = join(dir, BUNDLE_FILE);
      await createBundle(g, { path, base, head: plan.headCommit, branch });
      bundleSha256 = bundleDigest(readFileSync(path));
      files.push(path);
    }
    if (s.transcript && existsSync(s.transcriptPath)) {
      copyFileSync(s.transcriptPath, join(dir, TRANSCRIPT_IN_ARTIFACT));
      files.push(join(dir, TRANSCRIPT_IN_ARTIFACT));
    }
    const manifest: DeliveryManifest = {
      ...plan,
      ...(files.some((f) => f.endsWith(TRANSCRIPT_IN_ARTIFACT))
        ? { transcript: TRANSCRIPT_IN_ARTIFACT }
        : {}),
      ...(bundleSha256 ? { bundleSha256 } : {}),
    };
    writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2));
    files.push(join(dir, MANIFEST_FILE));
    const name = deliveryArtifactName(s.env, s.task.number);
    await choice.uploader.upload(name, files, dir, { signal });
    core.info(`patchloop: delivery artifact ${name} uploaded; a stage: deliver job pushes and posts it.`);
    return name;
  } catch (err) {
    s.notice(`The delivery artifact could not be made: ${(err as Error).message}`);
    return undefined;
  }
}

/** The plan's hand-off in stage: agent (delivery/apply.ts): the upload, and a notice saying where the work is. */
export async function stageAgentArtifact(
  s: RunState,
  _o: FinishInput,
  plan: DeliveryPlan,
  signal: AbortSignal,
): Promise<string | undefined> {
  const name = await uploadDeliveryArtifact(s, plan, signal);
  // said in this job's summary alone (not a warning: it is how two stages work)
  if (name)
    s.notices.push(
      `stage: agent — nothing was pushed or posted by this job: the work is in the delivery artifact \`${name}\`, which the stage: deliver job checks and delivers.`,
    );
  return name;
}
