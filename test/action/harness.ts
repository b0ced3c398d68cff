// Runs the bundled action the way the Actions runner does: `node index.js` in the workspace, with
// the runner's environment (GITHUB_*, RUNNER_TEMP, INPUT_* with hyphens kept), an event payload
// file, and files for GITHUB_OUTPUT and GITHUB_STEP_SUMMARY.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtBundle } from '../support/bundle-cache.js';

export interface BuiltAction {
  path: string;
  cleanup(): void;
}

/**
 * The bundle of src/index.ts, built exactly as `npm run build` does (once per content, shared
 * by the test files: test/support/bundle-cache.ts), in a temp folder of the caller's own, so the tests
 * run the real bundle without rewriting the dist/ others in the tree may be reading.
 */
export async function buildAction(): Promise<BuiltAction> {
  return builtBundle('src/index.ts', 'index.js', { prefix: 'patchloop-action-build-' });
}

export interface ActionRunOptions {
  script: string;
  /** the checkout: the process's working folder */
  workspace: string;
  eventName: string;
  payload: unknown;
  /** input name as in action.yml → value; becomes INPUT_<NAME> with hyphens kept */
  inputs: Record<string, string>;
  apiUrl: string;
  repository?: string;
  runId?: string;
  env?: Record<string, string>;
  /** sends SIGINT once this resolves (as the runner does on cancel), SIGTERM 7.5 s later */
  cancelWhen?: Promise<unknown>;
  /** after the cancel's SIGTERM, SIGKILL 2.5 s later, as the runner does */
  killAfterSigterm?: boolean;
  timeoutMs?: number;
}

export interface ActionRunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  stepSummary: string;
  runnerTemp: string;
  /** a cancel was sent and the process did not end before the runner's SIGTERM became due */
  neededSigterm: boolean;
  /** the runner's SIGKILL (killAfterSigterm) was sent: the process outlived the grace period */
  neededSigkill: boolean;
  cleanup(): void;
}

/** Parses the GITHUB_OUTPUT file format (`name<<DELIMITER` … `DELIMITER`). */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (m) {
      const [, name, delim] = m;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delim; i++) value.push(lines[i]!);
      out[name!] = value.join('\n');
    } else if (lines[i]!.includes('=')) {
      const at = lines[i]!.indexOf('=');
      out[lines[i]!.slice(0, at)] = lines[i]!.slice(at + 1);
    }
  }
  return out;
}

export async function runAction(o: ActionRunOptions): Promise<ActionRunResult> {
  const runnerTemp = mkdtempSync(join(tmpdir(), 'patchloop-runner-'));
  const files = join(runnerTemp, '_runner_file_commands');
  mkdirSync(files, { recursive: true });
  const eventPath = join(runnerTemp, 'event.json');
  const outputPath = join(files, 'set_output');
  const summaryPath = join(files, 'step_summary');
  writeFileSync(eventPath, JSON.stringify(o.payload));
  writeFileSync(outputPath, '');
  writeFileSync(summaryPath, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    LANG: 'C.UTF-8',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: o.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: o.repository ?? 'octo/demo',
    GITHUB_REPOSITORY_OWNER: (o.repository ?? 'octo/demo').split('/')[0]!,
    GITHUB_RUN_ID: o.runId ?? '9001',
    // the workflow file a run of this repository comes from (a follow-up checks the earlier run's)
    GITHUB_WORKFLOW_REF: `${o.repository ?? 'octo/demo'}/.github/workflows/patchloop.yml@refs/heads/main`,
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'patchloop',
    GITHUB_ACTOR: 'alice',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: o.apiUrl,
    GITHUB_WORKSPACE: o.workspace,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    RUNNER_TEMP: runnerTemp,
    RUNNER_OS: 'Linux',
    ...Object.fromEntries(
      Object.entries(o.inputs).map(([k, v]) => [`INPUT_${k.replace(/ /g, '_').toUpperCase()}`, v]),
    ),
    ...o.env,
  };
  const child = spawn(process.execPath, [o.script], {
    cwd: o.workspace,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let neededSigterm = false;
  let neededSigkill = false;
  let term: ReturnType<typeof setTimeout> | undefined;
  let runnerKill: ReturnType<typeof setTimeout> | undefined;
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  void o.cancelWhen?.then(() => {
    if (ended()) return;
    child.kill('SIGINT');
    term = setTimeout(() => {
      if (ended()) return;
      neededSigterm = true;
      child.kill('SIGTERM');
      if (o.killAfterSigterm) {
        runnerKill = setTimeout(() => {
          if (ended()) return;
          neededSigkill = true;
          child.kill('SIGKILL');
        }, 2500);
      }
    }, 7500);
  });
  const kill = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 60_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  clearTimeout(kill);
  if (term) clearTimeout(term);
  if (runnerKill) clearTimeout(runnerKill);
  return {
    code,
    signal,
    stdout,
    stderr,
    outputs: parseOutputFile(readFileSync(outputPath, 'utf8')),
    stepSummary: readFileSync(summaryPath, 'utf8'),
    runnerTemp,
    neededSigterm,
    neededSigkill,
    cleanup: () => rmSync(runnerTemp, { recursive: true, force: true }),
  };
}
