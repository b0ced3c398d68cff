// The runner's side of an action, through the Actions toolkit (@actions/core): inputs from
// `INPUT_*`, workflow commands on stdout (`::warning::`, `::add-mask::`, `::group::`, …), outputs
// and the step summary through the files the runner names (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY),
// and the job's OIDC token for keyless cloud auth. The rest of src/action imports this module, not
// the toolkit, so the runner protocol stays in one place.
import * as core from '@actions/core';

export {
  debug,
  endGroup,
  error,
  getIDToken,
  info,
  notice,
  setFailed,
  setOutput,
  setSecret,
  startGroup,
  warning,
} from '@actions/core';

/** An input as the runner passes it (`INPUT_<NAME>`, spaces as underscores), trimmed; '' when unset. */
export function getInput(name: string): string {
  return core.getInput(name);
}

/**
 * Appends markdown to the job's summary page (GITHUB_STEP_SUMMARY); rejects when the runner gave
 * the step no such file.
 */
export async function appendSummary(markdown: string): Promise<void> {
  try {
    await core.summary.addRaw(markdown).write();
  } finally {
    // a failed write leaves the text in the toolkit's buffer, where the next write would repeat it
    core.summary.emptyBuffer();
  }
}
