// The one line of what to do next after a run that did not succeed, in the words of the surface
// the summary shows on: a comment, an input of the workflow step or a repository secret on
// GitHub; a command and its flags in the CLI.
import type { FailedRequest } from '../agent/index.js';
import { formatCost, formatCount } from './format.js';

export interface NextStepContext {
  surface: 'action' | 'cli';
  /** The budget that ran out, for a budget-exceeded run. */
  budget?: 'turns' | 'cost' | 'time';
  /** The budgets the run had (the inputs or flags), to say what they are now. */
  maxTurns?: number;
  maxCostUsd?: number;
  timeoutMinutes?: number;
  /** Action: the trigger phrase (`/patchloop`). */
  triggerPhrase?: string;
  /** Action: a new comment continues this session (the continue-session input). */
  continueSession?: boolean;
  /** Action: the run is about an issue or pull request that a comment can be left on. */
  onThread?: boolean;
  /** CLI: the transcript `patchloop run --continue` takes. */
  transcriptPath?: string;
  /** CLI: whether the run's work was committed (false: nothing had changed); undefined when unknown. */
  committed?: boolean;
  /** The failure came before the model could work (a key, a model id, the endpoint): fix, then rerun. */
  beforeWork?: boolean;
  /** The model request that ended the run; an outage (5xx, 429, 529, a timeout) is named, not blamed on the set-up. */
  failedRequest?: FailedRequest;
  /** The tests still failed at the end: the work is kept, unfinished. */
  testsFailing?: boolean;
  /** The run gave its structured answer: no change was asked of it. */
  answered?: boolean;
}

/**
 * The provider's outage that ended a run, in words (`anthropic answered HTTP 529 (overloaded)`);
 * undefined when the failure was no outage (a key, a model id, a request the API refused, an
 * address where nothing answers).
 */
export function outageOf(f: FailedRequest | undefined): string | undefined {
  if (!f) return undefined;
  const answered = (what: string) =>
    f.status !== undefined
      ? `${f.provider} answered HTTP ${f.status} (${what})`
      : `${f.provider} was ${what}`;
  switch (f.kind) {
    case 'overloaded':
      return answered('overloaded');
    case 'rate_limit':
      return answered('rate limited');
    case 'server':
      return answered('a server error');
    case 'network':
      return f.unreachable
        ? undefined
        : f.status !== undefined
          ? answered('timed out')
          : `the connection to ${f.provider} failed or timed out`;
    default:
      return undefined;
  }
}

/** The next step for `conclusion`; undefined after a success, or when nothing useful can be said. */
export function nextStep(conclusion: string, c: NextStepContext | undefined): string | undefined {
  if (!c) return undefined;
  return c.surface === 'cli' ? cliNext(conclusion, c) : actionNext(conclusion, c);
}

function actionNext(conclusion: string, c: NextStepContext): string | undefined {
  const phrase = c.triggerPhrase || '/patchloop';
  const goOn = c.onThread
    ? c.continueSession === false
      ? `comment \`${phrase}\` with the request again (continue-session is off, so that run starts afresh)`
      : `comment \`${phrase} continue\` to go on from where it stopped (same branch, same conversation)`
    : 're-run the workflow';
  switch (conclusion) {
    case 'planned':
      return c.onThread
        ? `Comment \`${phrase} approve\` to carry out this plan, or comment \`${phrase}\` with what to change in it.`
        : undefined;
    case 'budget-exceeded': {
      const raise =
        c.budget === 'cost'
          ? `raise the \`max-cost-usd\` input${c.maxCostUsd !== undefined ? ` (${formatCost(c.maxCostUsd)} now)` : ''}`
          : c.budget === 'time'
            ? `raise the \`timeout-minutes\` input${c.timeoutMinutes !== undefined ? ` (${formatCount(c.timeoutMinutes)} now)` : ''} and the job's own \`timeout-minutes\` above it`
            : `raise the \`max-turns\` input${c.maxTurns !== undefined ? ` (${formatCount(c.maxTurns)} now)` : ''}`;
      return `${capital(goOn)}, or ${raise} in the workflow.`;
    }
    case 'cancelled':
      return `The work so far was kept; ${goOn}.`;
    case 'failure': {
      const outage = outageOf(c.failedRequest);
      if (outage) {
        const rerun = c.beforeWork
          ? 're-run the job from the workflow run page'
          : c.onThread
            ? goOn
            : 're-run the job from the workflow run page';
        return `${capital(outage)} after patchloop's retries: an outage on the provider's side, nothing to fix in the workflow or its secrets. Wait a few minutes, then ${rerun}${rateNote(c.failedRequest)}.`;
      }
      if (c.testsFailing)
        return `The tests still fail; the work so far is kept on its branch. ${capital(goOn)}, or finish it by hand.`;
      return c.beforeWork
        ? 'Fix what the error names (a repository secret, or an input of the patchloop step in the workflow), then re-run the job from the workflow run page.'
        : `${capital(goOn)}, or read the workflow run's log for what failed.`;
    }
    case 'no-changes':
      if (c.answered) return undefined;
      return c.onThread
        ? `If a change was expected, comment \`${phrase}\` again with more detail (the file, the behaviour, the test that should pass).`
        : 'If a change was expected, re-run the workflow with a more precise prompt.';
    default:
      return undefined;
  }
}

function cliNext(conclusion: string, c: NextStepContext): string | undefined {
  const goOn = c.transcriptPath
    ? `run patchloop run --continue ${shellWord(c.transcriptPath)} "go on"`
    : 'run patchloop run again';
  switch (conclusion) {
    case 'budget-exceeded': {
      const flag =
        c.budget === 'cost'
          ? `--max-cost-usd${c.maxCostUsd !== undefined ? ` (${formatCost(c.maxCostUsd)} now)` : ''}`
          : c.budget === 'time'
            ? `--timeout-minutes${c.timeoutMinutes !== undefined ? ` (${formatCount(c.timeoutMinutes)} now)` : ''}`
            : `--max-turns${c.maxTurns !== undefined ? ` (${formatCount(c.maxTurns)} now)` : ''}`;
      return `${capital(goOn)} with a higher ${flag}.`;
    }
    case 'cancelled':
      return c.committed === false
        ? `Nothing was changed or committed before the cancel; ${goOn} to go on from there.`
        : `The work so far was committed; ${goOn} to continue.`;
    case 'failure': {
      const outage = outageOf(c.failedRequest);
      if (outage) {
        const rerun = c.beforeWork ? 'run the same command again' : goOn;
        return `${capital(outage)} after the retries: an outage on the provider's side, nothing to fix in your flags or environment. Wait a few minutes, then ${rerun}${rateNote(c.failedRequest)}.`;
      }
      if (c.testsFailing)
        return `The tests still fail; the work so far is committed on its branch. ${capital(goOn)} to go on, or finish it by hand.`;
      return c.beforeWork
        ? 'Fix what the error names (a flag or an environment variable), then run the same command again.'
        : `${capital(goOn)} to try again from there.`;
    }
    case 'no-changes':
      if (c.answered) return undefined;
      return 'If a change was expected, run again with a more precise task.';
    default:
      return undefined;
  }
}

/** A rate limit that keeps coming back is the key's own limit or quota, not an outage. */
function rateNote(f: FailedRequest | undefined): string {
  return f?.kind === 'rate_limit'
    ? ' (if it keeps happening, the API key’s rate limit or quota is too low for this run)'
    : '';
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A path as one shell word: quoted when it holds anything but safe characters. */
function shellWord(path: string): string {
  return /^[\w./@:+-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
