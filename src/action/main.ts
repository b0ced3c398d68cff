// The action: trigger → permission → acknowledge → agent → branch, commit, PR → one summary
// comment, outputs, step summary and transcript artifact (CONTRACT §2–5). The phases are in
// start-up.ts, agent.ts, delivery.ts and publish.ts; this file runs them in order and makes sure
// every ending undoes what the run changed.
import * as core from './runner-commands.js';
import { watchInterrupts } from '../agent/signals.js';
import { restoreCheckoutCredential } from '../git/index.js';
import { acknowledge } from '../github/reaction.js';
import type { Provider } from '../providers/types.js';
import { runAgentPhase, sessionProvider } from './agent.js';
import { deliverPhase } from './delivery.js';
import { createComment, finish } from './publish.js';
import { prepareWorkspace, startUp, type PreparedWork } from './start-up.js';
import { mark, type RunState } from './state.js';
import { runDeliverStage } from './stage-deliver.js';

export type { Conclusion } from './state.js';

/** Runs the action; returns the process exit code. Never throws. */
export async function run(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<number> {
  const started = await startUp(env, cwd);
  if ('code' in started) return started.code;
  // ---- stage: deliver (stage-deliver.ts): no agent, no command; check and apply the artifact ----
  if (started.state.inputs.stage === 'deliver') return runDeliverStage(started.state);
  return runSession(started.state);
}

async function runSession(s: RunState): Promise<number> {
  const cancellation = watchInterrupts(() => {
    // The runner's second signal: little time is left, so the summary is written in a hurry.
    core.warning('patchloop: cancelled again; finishing at once.');
  });
  try {
    return await runPhases(s, cancellation.signal);
  } catch (err) {
    // Anything unexpected still ends in a summary and a truthful conclusion.
    const message = `patchloop stopped on an unexpected error: ${err instanceof Error ? err.message : String(err)}`;
    await finish(s, { conclusion: 'failure', error: message });
    return 1;
  } finally {
    cancellation.dispose();
    // What the sandbox changed (the workspace's ACLs and mode) is undone on every ending.
    if (s.sandbox?.kind === 'isolated') {
      await s.sandbox
        .dispose()
        .catch((err: Error) => core.warning(`patchloop: the sandbox was not taken down: ${err.message}`));
    }
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
  }
}

async function runPhases(s: RunState, signal: AbortSignal): Promise<number> {
  // Acknowledge first: the comment exists before the first model request.
  const commentReady = createComment(s);
  // stage: agent writes nothing but the tracking comment (its token may be read-only)
  const ack =
    s.inputs.dryRun || s.inputs.stage === 'agent'
      ? Promise.resolve(undefined)
      : commentReady.then(() => acknowledge(s.github, s.task));
  let work: PreparedWork;
  try {
    work = await prepareWorkspace(s, commentReady);
  } catch (err) {
    await commentReady;
    return finish(s, { conclusion: 'failure', error: err instanceof Error ? err.message : String(err) });
  }
  await commentReady;
  mark('comment posted');

  let provider: Provider;
  try {
    provider = sessionProvider(s);
  } catch (err) {
    return finish(s, { conclusion: 'failure', error: (err as Error).message, plan: work.plan });
  }
  const result = await runAgentPhase(s, work, provider, signal);
  const reaction = await ack;
  if (reaction && !reaction.ok && reaction.message !== 'reviews take no reactions')
    core.warning(`patchloop: ${reaction.message}`);
  return finish(s, await deliverPhase(s, work, result, provider, signal));
}
