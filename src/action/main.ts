// The action: trigger → permission → acknowledge → agent → branch, commit, PR → one summary
// comment, outputs, step summary and transcript artifact (CONTRACT §2–5). The phases are in
// start-up.ts, agent.ts, delivery.ts and publish.ts; this file runs them in order and makes sure
// every ending keeps the work and undoes what the run changed.
import * as core from './runner-commands.js';
import { restoreCheckoutCredential } from '../git/index.js';
import { acknowledge } from '../github/reaction.js';
import type { Provider } from '../providers/types.js';
import { runAgentPhase, sessionProvider } from './agent.js';
import { deliverPhase } from './delivery.js';
import { untilAborted, watchEnding, type Ending } from './ending.js';
import { createComment, finish } from './publish.js';
import { prepareWorkspace, startUp, type PreparedWork } from './start-up.js';
import { mark, type RunState } from './state.js';
import {
  joinableTrigger,
  joinRunningRun,
  markLoopDone,
  takesJoins,
  yieldToEarlierRun,
  type JoinOutcome,
} from './join.js';
import { setRunOutputs } from './outputs.js';
import { runDeliverStage } from './stage-deliver.js';
import { configureTimings, finalAnswer, sinceFinalAnswer, timed } from './timings.js';

export type { Conclusion } from './state.js';

/** Runs the action; returns the process exit code. Never throws. */
export async function run(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<number> {
  configureTimings(env);
  // Watched from the first moment: a cancel during start-up still puts the credential back.
  const ending = watchEnding(() => {
    // The runner's second signal: little time is left, so the summary is written in a hurry.
    core.warning('patchloop: cancelled again; finishing at once.');
  });
  try {
    const started = await startUp(env, cwd, ending.cancelled);
    if ('code' in started) return started.code;
    // ---- stage: deliver (stage-deliver.ts): no agent, no command; check and apply the artifact ----
    if (started.state.inputs.stage === 'deliver') return await runDeliverStage(started.state);
    return await runSession(started.state, ending);
  } finally {
    ending.dispose();
    sinceFinalAnswer('final answer → exit');
  }
}

async function runSession(s: RunState, ending: Ending): Promise<number> {
  let undone: Promise<void> | undefined;
  // What the run changed outside its branch is undone as soon as the push is over (inside a
  // cancel's grace period, beside the upload), and on every other ending at the latest.
  const undo = () => (undone ??= timed('clean-up (credential, sandbox)', undoRunChanges(s)));
  try {
    return await runPhases(s, ending, undo);
  } catch (err) {
    // Anything unexpected still ends in a summary with what the run did, and a truthful conclusion.
    const message = `patchloop stopped on an unexpected error: ${err instanceof Error ? err.message : String(err)}`;
    void undo();
    const conclusion = ending.cancelled.aborted ? 'cancelled' : 'failure';
    return await finish(s, { ...s.outcome, conclusion, error: message }, ending);
  } finally {
    await undo();
  }
}

async function undoRunChanges(s: RunState): Promise<void> {
  // Later steps of the workflow may push with the checkout's credential, as before the run.
  const credential = timed('credential put back', () =>
    s.credentialReady
      .then((c) => (s.repo ? s.repo.restoreCredential(c) : restoreCheckoutCredential(s.runner.workspace, c)))
      .catch((err: Error) =>
        core.warning(`patchloop: the checkout credential was not put back: ${err.message}`),
      ),
  );
  // What the sandbox changed (the workspace's ACLs and mode) is undone on every ending.
  const box = s.sandbox;
  const sandbox =
    box?.kind === 'isolated'
      ? timed('sandbox taken down', () =>
          box
            .dispose()
            .catch((err: Error) => core.warning(`patchloop: the sandbox was not taken down: ${err.message}`)),
        )
      : undefined;
  await Promise.all([credential, sandbox]);
}

async function runPhases(s: RunState, ending: Ending, undo: () => Promise<void>): Promise<number> {
  const signal = ending.cancelled;
  const failed = (err: unknown) => ({
    conclusion: signal.aborted ? ('cancelled' as const) : ('failure' as const),
    error: err instanceof Error ? err.message : String(err),
  });
  // A run of this workflow working here already takes the request, or is waited for (§13).
  if (s.inputs.stage !== 'deliver') {
    const joined = await joinRunningRun(s, signal);
    if (joined.kind === 'ended') return joined.code;
    if (joined.kind === 'cancelled') {
      setRunOutputs({ conclusion: 'cancelled' });
      core.setFailed('patchloop: cancelled before the run began.');
      return 1;
    }
  }
  // Acknowledge first: the comment exists before the first model request.
  const commentReady = createComment(s);
  // The tie-break (§13, join.ts yieldToEarlierRun): a run started at the same moment as another,
  // each unseen by the other's first listing, yields to the one whose comment came first. A
  // request that cannot join waits for that run before the workspace is prepared.
  const raced = commentReady
    .then(() => yieldToEarlierRun(s, signal))
    .catch((err: Error): JoinOutcome => {
      core.info(`patchloop: the runs working here could not be compared (${err.message}); going on.`);
      return { kind: 'go' };
    });
  const yielded = async (r: JoinOutcome): Promise<number | undefined> => {
    if (r.kind === 'ended') return r.code;
    if (r.kind !== 'cancelled') return undefined;
    // cancelled while waiting for the other run: its comment no longer says it works
    if (s.comment) {
      s.comment.marker = undefined;
      await s.comment.finish('patchloop was cancelled before the run began.');
    }
    setRunOutputs({ conclusion: 'cancelled' });
    core.setFailed('patchloop: cancelled before the run began.');
    return 1;
  };
  if (takesJoins(s) && !joinableTrigger(s)) {
    const code = await yielded(await raced);
    if (code !== undefined) return code;
  }
  // stage: agent writes nothing but the tracking comment (its token may be read-only)
  const ack =
    s.inputs.dryRun || s.inputs.stage === 'agent'
      ? Promise.resolve(undefined)
      : commentReady.then(() => acknowledge(s.github, s.task));
  let work: PreparedWork;
  try {
    work = await prepareWorkspace(s, commentReady, signal);
  } catch (err) {
    await untilAborted(commentReady, AbortSignal.timeout(5_000)).catch(() => undefined);
    void undo();
    return finish(s, failed(err), ending);
  }
  await commentReady;
  mark('comment posted');
  {
    // (what the preparation changed is undone as on any ending: runSession's undo)
    const code = await yielded(await raced);
    if (code !== undefined) return code;
  }
  s.outcome.plan = work.plan;

  let provider: Provider;
  try {
    provider = sessionProvider(s);
  } catch (err) {
    return finish(s, { conclusion: 'failure', error: (err as Error).message, plan: work.plan }, ending);
  }
  s.outcome.provider = provider;
  const result = await runAgentPhase(s, work, provider, signal);
  markLoopDone(s);
  finalAnswer();
  s.outcome.result = result;
  const reaction = await timed(
    'acknowledgement awaited',
    untilAborted(ack, AbortSignal.any([signal, AbortSignal.timeout(10_000)])).catch(() => undefined),
  );
  // A trigger with nothing to react on (a pull_request event, a review) is normal, not a warning.
  if (reaction && !reaction.ok && !reaction.none) core.warning(`patchloop: ${reaction.message}`);
  const delivered = await timed('delivery', deliverPhase(s, work, result, provider, ending));
  s.outcome.delivery = delivered.delivery;
  // the push is the plan's (publish.ts): what the run changed is undone once it is over
  return timed(
    'publishing',
    finish(s, delivered, ending, () => void undo()),
  );
}
