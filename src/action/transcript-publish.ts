// The transcript's page and artifact (CONTRACT §5): the HTML page made beside the JSONL, both
// uploaded when the runner allows it, a cancelled run's too.
import * as core from './runner-commands.js';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { chooseArtifactUploader } from '../github/delivery/artifact.js';
import { renderHtml } from '../report/html.js';
import { loadRunView } from '../report/load.js';
import type { RunState } from './state.js';
import { timed } from './timings.js';

/** The largest transcript whose HTML page is still made when the run was cancelled. */
const HTML_IN_A_HURRY_BYTES = 2 * 1024 * 1024;

/**
 * Starts what publishing will wait for, while the push runs beside it (delivery/apply.ts): the
 * artifact client's module, when the transcript is to be uploaded.
 */
export function preparePublishing(s: RunState): void {
  if (!s.transcript || !s.inputs.uploadArtifact) return;
  chooseArtifactUploader(s.env).uploader?.preload();
}

/**
 * The HTML page beside the JSONL, both uploaded as an artifact when the runner allows it; a
 * cancelled run's too. The upload is given up at `signal` (its deadline, or the runner's SIGTERM).
 */
export async function publishTranscript(
  s: RunState,
  signal: AbortSignal,
  hurried: boolean,
): Promise<string | undefined> {
  if (!s.transcript || !existsSync(s.transcriptPath)) return undefined;
  const htmlPath = s.transcriptPath.replace(/\.jsonl$/, '.html');
  const files = [s.transcriptPath];
  // Rendering a long session's page takes seconds a cancelled run does not have: then the JSONL
  // goes alone (`patchloop export` makes the page from it).
  const htmlFits = !hurried || statSync(s.transcriptPath).size <= HTML_IN_A_HURRY_BYTES;
  if (!htmlFits) {
    s.notice(
      'The run was cancelled: the HTML page of its long transcript was not made (`patchloop export` makes it from the JSONL).',
    );
  } else {
    try {
      await timed('transcript page', async () => {
        const view = await loadRunView(s.transcriptPath);
        writeFileSync(
          htmlPath,
          s.redact(renderHtml(view, { source: 'transcript.jsonl', generatedAt: new Date() })),
        );
      });
      files.push(htmlPath);
    } catch (err) {
      core.warning(
        `patchloop: the HTML page of the transcript could not be made (${(err as Error).message}).`,
      );
    }
  }
  const local = `${s.transcriptPath} on the runner`;
  if (!s.inputs.uploadArtifact) return local;
  const choice = chooseArtifactUploader(s.env);
  if (!choice.uploader) {
    s.notice(choice.notice);
    return local;
  }
  try {
    const uploaded = await timed(
      'artifact upload',
      choice.uploader.uploadTranscript(
        { jsonlPath: s.transcriptPath, htmlPath: files[1], taskNumber: s.task.number },
        { signal },
      ),
    );
    s.artifactUrl = uploaded.url;
    s.artifactName = uploaded.name;
    s.artifactId = uploaded.id;
    return uploaded.url ? `artifact [${uploaded.name}](${uploaded.url})` : `artifact ${uploaded.name}`;
  } catch (err) {
    s.notice(`The transcript artifact could not be uploaded (${(err as Error).message}).`);
    return local;
  }
}
