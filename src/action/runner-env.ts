// What the Actions runner tells a step through its environment.
//
// Not @actions/github's `context`: it is built once, from process.env, when the module loads (so a
// run cannot be given another environment), it turns an unset GITHUB_RUN_ID into NaN where
// patchloop names artifacts and branches with 'local', and it parses the event payload without
// saying what was wrong with it (start-up reads the payload itself and reports a bad one; the
// bundle keeps the toolkit's parse from throwing, see scripts/bundle.mjs). getOctokit, which does
// fit, reads the same variables.
import { tmpdir } from 'node:os';

export interface RunnerEnv {
  eventName: string;
  eventPath?: string;
  /** owner/name */
  repository: string;
  runId: string;
  runAttempt: string;
  job: string;
  actor?: string;
  serverUrl: string;
  apiUrl: string;
  runnerTemp: string;
  workspace: string;
}

export function readRunnerEnv(env: NodeJS.ProcessEnv, cwd: string): RunnerEnv {
  return {
    eventName: env.GITHUB_EVENT_NAME ?? '',
    eventPath: env.GITHUB_EVENT_PATH || undefined,
    repository: env.GITHUB_REPOSITORY ?? '',
    runId: env.GITHUB_RUN_ID || 'local',
    runAttempt: env.GITHUB_RUN_ATTEMPT || '1',
    job: env.GITHUB_JOB || 'job',
    actor: env.GITHUB_ACTOR || undefined,
    serverUrl: (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, ''),
    apiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    runnerTemp: env.RUNNER_TEMP || tmpdir(),
    // The runner starts JavaScript actions in the workspace; the working folder is the checkout.
    workspace: cwd,
  };
}

export function runUrlOf(r: RunnerEnv): string {
  return `${r.serverUrl}/${r.repository}/actions/runs/${r.runId}`;
}
