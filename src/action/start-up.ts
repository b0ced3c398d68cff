// Start-up: inputs, event, permission and the checkout credential (before anything is posted),
// then — beside the tracking comment — the context, the earlier session when following up, the
// branch, git isolation and the command sandbox. Nothing here asks the model anything.
import * as core from './runner-commands.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jobKey } from '../github/delivery/artifact.js';
import { commentBody, readSessionMarker } from '../github/comment.js';
import {
  checkBudget,
  listSpent,
  overBudgetText,
  type BudgetCheck,
} from '../github/follow-up/daily-budget.js';
import type { Task } from '../github/context/task.js';
import { gatherContext, listIssueComments, type TaskContext } from '../github/context/context.js';
import { prepareWork, type WorkPlan } from '../github/delivery/delivery.js';
import { taskFromEvent } from '../github/context/event.js';
import {
  findEarlierComment,
  loadEarlierSession,
  workflowPathOf,
  type EarlierComment,
  type EarlierSession,
} from '../github/follow-up/follow-up.js';
import { tokenLogin } from '../github/identity.js';
import { GitRepo, restoreCheckoutCredential, takeCheckoutCredential } from '../git/index.js';
import { createGitHubClient, describeGitHubError, type GitHubClient } from '../github/octokit.js';
import { checkPermission } from '../github/permission.js';
import { startQuietReview } from '../github/review/review-history.js';
import { acknowledge } from '../github/reaction.js';
import { ACTIONS_BOT_LOGIN } from '../github/context/trigger.js';
import { createRedactor, MIN_SECRET_LENGTH, secretsFromEnv } from '../protocol/redact.js';
import { capabilitiesOf, cloudSecrets, preloadProvider, PROVIDER_ENV } from '../providers/index.js';
import { probeMachine, type SandboxSetup } from '../sandbox/index.js';
import { startCommandWorkspace } from '../run/phases.js';
import { BranchPrefetch, followUpPlan } from './follow-up.js';
import type { AnswerSchema } from '../tools/answer-schema.js';
import { InputError, readInputs, type ActionInputs, type DailyBudget } from './inputs.js';
import { mcpSecrets, parseMcpConfig } from '../tools/mcp/config.js';
import { untilAborted } from './ending.js';
import { loadOutputSchema } from './output-schema.js';
import { setRunOutputs } from './outputs.js';
import { readRunnerEnv, runUrlOf, type RunnerEnv } from './runner-env.js';
import { logSettings } from './log.js';
import { mark, RunState } from './state.js';

/** The run goes on with `state`, or has ended with exit code `code` (skipped, unauthorized, bad input). */
export type StartUp = { state: RunState } | { code: number };

export async function startUp(
  env: NodeJS.ProcessEnv,
  cwd: string,
  signal: AbortSignal = new AbortController().signal,
): Promise<StartUp> {
  mark('modules loaded');
  const runner = readRunnerEnv(env, cwd);
  let inputs: ActionInputs;
  let answerSchema: AnswerSchema | undefined;
  try {
    inputs = readInputs((name) => core.getInput(name));
    answerSchema = await loadOutputSchema(inputs.outputSchema, runner.workspace);
  } catch (err) {
    const message = err instanceof InputError ? err.message : `Reading the inputs failed: ${String(err)}`;
    setRunOutputs({ conclusion: 'failure' });
    core.setFailed(message);
    return { code: 1 };
  }
  const secrets = maskSecrets(inputs, env);
  const redact = createRedactor(secrets);

  let payload: unknown = {};
  if (runner.eventPath) {
    try {
      payload = JSON.parse(readFileSync(runner.eventPath, 'utf8'));
    } catch (err) {
      return fail(`The event payload ${runner.eventPath} could not be read: ${(err as Error).message}`);
    }
  }
  const decision = taskFromEvent(runner.eventName, payload, {
    triggerPhrase: inputs.triggerPhrase,
    labelTrigger: inputs.labelTrigger,
    prompt: inputs.prompt,
    issueNumber: inputs.issueNumber,
    mode: inputs.mode,
    requireApproval: inputs.requireApproval,
    repository: runner.repository,
    actor: runner.actor,
    botLogins: [ACTIONS_BOT_LOGIN],
  });
  if (!decision.run) {
    core.info(`patchloop: nothing to do (${decision.reason}).`);
    setRunOutputs({ conclusion: 'skipped' });
    return { code: 0 };
  }
  const task = decision.task;
  // What this run was asked and runs with, at the top of the log (the deliver stage runs no agent).
  if (inputs.stage !== 'deliver') logSettings(inputs, task, { env, redact });
  const github = createGitHubClient({
    token: inputs.githubToken,
    baseUrl: runner.apiUrl,
    log: {
      debug: (m) => core.debug(redact(m)),
      info: (m) => core.info(redact(m)),
      warning: (m) => core.warning(redact(m)),
    },
  });

  // Whatever the agent's commands could read must not hold the push credential. Taken beside the
  // permission check (a refused run puts it back at once); awaited before any git work.
  const credentialReady = takeCheckoutCredential(runner.workspace, { runnerTemp: runner.runnerTemp }).then(
    (credential) => {
      for (const s of credential.secrets) core.setSecret(s);
      if (credential.removed.length > 0) {
        core.info(`patchloop: took the checkout credential out of ${credential.removed.join(', ')}.`);
      }
      mark('credential taken');
      return credential;
    },
  );
  credentialReady.catch(() => undefined);
  const putBack = () =>
    credentialReady
      .then((credential) => restoreCheckoutCredential(runner.workspace, credential))
      .catch((err: Error) =>
        core.warning(`patchloop: the checkout credential was not put back: ${err.message}`),
      );

  // The context is only read (the images of its texts wait for the permission), so it goes out
  // beside the permission check; a refused run drops it.
  let allow!: (ok: boolean) => void;
  const allowed = new Promise<boolean>((resolve) => (allow = resolve));
  const fetchImages = inputs.images && capabilitiesOf(inputs.provider, inputs.model).images !== undefined;
  // One listing of the issue's comments for the context and for the earlier session's marker.
  const commentsListed =
    task.number !== undefined
      ? listIssueComments(github, {
          owner: task.owner,
          repo: task.repo,
          issueNumber: task.number,
          html: fetchImages,
        })
      : undefined;
  commentsListed?.catch(() => undefined);
  // An automatic review (CONTRACT §9, quiet reviews) finds its sticky summary and patchloop's
  // last review of the PR, to edit the one and review only what changed since the other.
  const quiet =
    task.trigger.kind === 'pull-request' &&
    task.mode === 'review' &&
    task.number !== undefined &&
    task.pr?.headSha &&
    commentsListed &&
    inputs.stage === 'all'
      ? startQuietReview(github, { owner: task.owner, repo: task.repo, number: task.number }, commentsListed)
      : undefined;
  const contextReady = gatherContext(github, task, {
    botLogins: [ACTIONS_BOT_LOGIN],
    ...(quiet && task.pr ? { reviewSince: { head: task.pr.headSha, last: quiet.last } } : {}),
    allowed,
    ...(commentsListed ? { comments: commentsListed } : {}),
    ...(inputs.images
      ? {
          images: fetchImages
            ? { mode: 'fetch' as const, fetch: { serverUrl: runner.serverUrl, apiUrl: runner.apiUrl } }
            : { mode: 'placeholders' as const },
        }
      : {}),
  });
  // Awaited once the run goes on; a refused run (or one that fails earlier) never reads it.
  contextReady.catch(() => undefined);

  let permission: Awaited<ReturnType<typeof checkPermission>>;
  try {
    permission = await untilAborted(
      checkPermission(github, {
        owner: task.owner,
        repo: task.repo,
        actor: task.requester,
        required: inputs.requiredPermission,
        allowedBots: inputs.allowedBots,
      }),
      signal,
    );
  } catch (err) {
    allow(false); // no image is fetched for a check that did not finish
    if (!signal.aborted) throw err;
    // Cancelled before the run began: the credential goes back before anything else.
    await putBack();
    setRunOutputs({ conclusion: 'cancelled' });
    core.setFailed('patchloop: cancelled before the run began.');
    return { code: 1 };
  }
  allow(permission.allowed);
  if (!permission.allowed) {
    await putBack();
    if (permission.failed) return fail(permission.reason);
    core.notice(`patchloop: not running for ${task.requester?.login ?? 'this event'}: ${permission.reason}.`);
    // A sign that the request was seen and refused; no comment, so nobody can make the bot post.
    if (!inputs.dryRun) {
      const reacted = await acknowledge(github, task, '-1');
      if (!reacted.ok) core.debug(`patchloop: ${reacted.message}`);
    }
    setRunOutputs({ conclusion: 'unauthorized' });
    return { code: 0 };
  }
  core.info(`patchloop: ${permission.reason}.`);
  mark('permission checked');
  // A daily budget is checked before anything else is posted and before any model request.
  if (inputs.maxCostUsdPerDay && inputs.stage !== 'deliver') {
    const refused = await dailyBudgetRefusal(
      github,
      inputs.maxCostUsdPerDay,
      task,
      runner,
      redact,
      inputs.dryRun,
    );
    if (refused !== undefined) {
      await putBack();
      return refused;
    }
  }
  if (signal.aborted) {
    await putBack();
    setRunOutputs({ conclusion: 'cancelled' });
    core.setFailed('patchloop: cancelled before the run began.');
    return { code: 1 };
  }
  // What the machine offers for isolation (and the sandbox user) is asked now, beside the git
  // work; the sandbox itself touches the workspace only once that work is done.
  void probeMachine();
  // The provider's SDK is compiled while the comment, the context and the branch wait on GitHub
  // and git; the first request needs it once they are done.
  preloadProvider(inputs.provider);

  return {
    state: new RunState({
      inputs,
      runner,
      task,
      github,
      credentialReady,
      secrets,
      requesterLevel: permission.level,
      env,
      contextReady,
      ...(commentsListed ? { commentsListed } : {}),
      ...(answerSchema ? { answerSchema } : {}),
      ...(quiet ? { quiet } : {}),
    }),
  };
}

/**
 * Over a daily budget: a comment that says so (no model request), conclusion budget-exceeded.
 * A budget that cannot be checked stops the run too: a budget is a promise to spend no more.
 */
async function dailyBudgetRefusal(
  github: GitHubClient,
  limits: DailyBudget,
  task: Task,
  runner: RunnerEnv,
  redact: (text: string) => string,
  dryRun: boolean,
): Promise<StartUp | undefined> {
  let check: BudgetCheck;
  try {
    const botLogin = await tokenLogin(github);
    const entries = await listSpent(github, {
      owner: task.owner,
      repo: task.repo,
      botLogin,
      now: Date.now(),
    });
    check = checkBudget(entries, limits, task.requester?.login);
  } catch (err) {
    return fail(
      `patchloop: the max-cost-usd-per-day budget could not be checked, so no model was asked. ${describeGitHubError(err, 'read-issue', "Listing the repository's comments")}`,
    );
  }
  core.info(
    `patchloop: spent in the last 24 hours: $${check.spent.repository.toFixed(2)} in this repository, $${check.spent.requester.toFixed(2)} by ${task.requester?.login ?? 'this requester'} (${check.runs} run(s)).`,
  );
  if (!check.over) return undefined;
  const text = overBudgetText(check, task.requester?.login, runUrlOf(runner));
  if (!dryRun && task.number !== undefined) {
    try {
      await github.rest.issues.createComment({
        owner: task.owner,
        repo: task.repo,
        issue_number: task.number,
        body: commentBody(text, redact),
      });
    } catch (err) {
      core.warning(
        `patchloop: the budget comment could not be posted. ${describeGitHubError(err, 'comment', 'Posting the budget comment')}`,
      );
    }
  }
  await core.appendSummary(redact(text)).catch(() => undefined);
  setRunOutputs({ conclusion: 'budget-exceeded' });
  core.setFailed(redact(text.split('\n')[2] ?? 'patchloop: daily budget reached'));
  return { code: 1 };
}

function fail(message: string): StartUp {
  setRunOutputs({ conclusion: 'failure' });
  core.setFailed(message);
  return { code: 1 };
}

/** Registers every secret with the runner (so its log masks them) and returns them for the redactor. */
function maskSecrets(inputs: ActionInputs, env: NodeJS.ProcessEnv): string[] {
  const values = new Set<string>([
    inputs.githubToken,
    inputs.apiKey,
    ...secretsFromEnv(env),
    // the clouds' credentials, the secret fields of the Google credentials file among them
    ...cloudSecrets(env),
  ]);
  // an inline mcp-config's env and header values (it was checked with the other inputs)
  if (inputs.mcpConfig.startsWith('{'))
    for (const v of mcpSecrets(parseMcpConfig(inputs.mcpConfig))) values.add(v);
  for (const vars of Object.values(PROVIDER_ENV)) {
    for (const name of vars.key) {
      const v = env[name];
      if (v) values.add(v);
    }
  }
  // One bound for the log's masking and the redactor's: a value masked in one is hidden in all.
  const list = [...values].filter((v) => v.trim().length >= MIN_SECRET_LENGTH);
  for (const v of list) core.setSecret(v);
  return list;
}

/** The checkout, ready for the agent: on its branch, git isolated, the sandbox set up. */
export interface PreparedWork {
  checkout: GitRepo;
  context: TaskContext;
  plan: WorkPlan;
  baseline: string[];
  baseCommit: string | undefined;
  sandbox: SandboxSetup;
  /**
   * Patchloop's private git dir and the sandbox's access and self-check, made beside the first
   * model request: no tool runs and nothing is delivered before it resolves; when it rejects the
   * run stops there (a sandbox that cannot be set up never means "unisolated").
   */
  ready: Promise<void>;
}

/**
 * The context, the earlier session, the branch, isolation and the sandbox, in that dependency
 * order and side by side where they can be. Throws when the context, the branch or the sandbox's
 * first step fails: the run then stops before the first model request. What the tools need of
 * the rest (isolation, the sandbox's self-check) is left going behind `ready`.
 */
export async function prepareWorkspace(
  s: RunState,
  commentReady: Promise<void>,
  signal: AbortSignal = new AbortController().signal,
): Promise<PreparedWork> {
  const { inputs, task, runner, contextReady } = s;
  // The earlier run's branch is fetched as soon as a marker names it (the comment most likely
  // to count, before the download and before this run's comment confirms whose markers count):
  // a fetch into the checkout's remote-tracking ref, settled before the plan's git work starts.
  // The plan itself takes a branch only from the earlier session once its run is confirmed.
  const prefetch = new BranchPrefetch(inputs.branchPrefix);
  const earlierReady = findEarlier(s, commentReady, signal, {
    onGuess: (comment) => prefetch.guess(comment.marker.branch),
  });
  const credential = await s.credentialReady.catch((err: Error) => {
    throw new Error(`The checkout's git credential could not be secured: ${err.message}`);
  });
  s.redact = createRedactor([...s.secrets, ...credential.secrets]);
  const work = (s.repo = new GitRepo({
    dir: runner.workspace,
    credential,
    identitySource: 'local',
    protectedPaths: inputs.protectedPaths,
    privateParent: runner.runnerTemp,
    signal,
  }));
  prefetch.checkoutReady(work);
  // The branch (needs the PR's refs only for PR tasks, the earlier session only when following
  // up) and the context run side by side.
  const planFor = async (pr: TaskContext['pr']): Promise<WorkPlan> => {
    const options = {
      prefix: inputs.branchPrefix,
      runId: runner.runId,
      job: jobKey(s.env),
      openPr: inputs.openPr,
      pr,
      github: s.github,
    };
    // The branch a marker names is followed only once its run is confirmed as this workflow's
    // (github/follow-up/follow-up.ts): that waits for the earlier transcript, which the first request
    // needs anyway.
    const earlier = await earlierReady.catch(() => undefined);
    const fetched = await prefetch.take();
    if (!earlier) return prepareWork(work, task, options);
    if (earlier.unconfirmed) s.notice(`The earlier run's branch was not used: ${earlier.unconfirmed}.`);
    const pullHead = () => Promise.resolve(earlier.transcript?.session?.pullHead);
    return followUpPlan(work, task, { branch: earlier.branch, pullHead }, options, fetched);
  };
  const planReady = task.isPullRequest ? contextReady.then((c) => planFor(c.pr)) : planFor(undefined);
  planReady.catch(() => undefined);
  // Network waits give way to a cancel; what follows them (git isolation, the sandbox) is local
  // and is let settle, so that an ending can undo it.
  const context = await untilAborted(contextReady, signal);
  mark('context read');
  for (const w of context.warnings) s.notice(w);
  const plan = await untilAborted(planReady, signal);
  for (const n of plan.notices ?? []) s.notice(n);
  mark('branch ready');
  // The branch is made from the earlier comment's marker; the first request needs the session
  // itself (s.earlier), whose transcript may still be on its way.
  const earlier = await untilAborted(earlierReady, signal).catch(() => undefined);
  if (signal.aborted) throw new Error('The run was cancelled before the agent started.');
  planOrApproval(s, earlier);
  const [baseline, baseCommit] = await Promise.all([work.untracked(), work.headSha().catch(() => undefined)]);
  // After the branch, before the first command: from here on patchloop's git uses a private
  // git dir and reads nothing under the workspace's .git. Making that copy only reads the
  // checkout (it writes under RUNNER_TEMP), so it goes beside the sandbox's set-up.
  const isolated = work.isolate().then(() => mark('git isolated'));
  isolated.catch(() => undefined);
  // The sandbox is set up only once patchloop's git work in the checkout is done (its ACL walk
  // must not race git's lock files). Whether commands are isolated is known when the machine's
  // probe and the sandbox user answer; the workspace's access and the self-check go on beside
  // the first model request, behind `ready`.
  const { sandbox, ready } = await startCommandWorkspace({
    isolating: isolated,
    sandbox: {
      workspace: runner.workspace,
      mode: 'auto',
      privateDirs: [runner.runnerTemp, s.dir],
      readOnlyDirs: [s.outputsDir()],
      commandEnv: inputs.commandEnv,
      network: inputs.commandNetwork,
      env: s.env,
    },
    unready: (err) =>
      new Error(`The command sandbox could not be set up, so nothing was run: ${err.message}`),
    onSandboxReady: () => mark('sandbox ready'),
  });
  s.sandbox = sandbox;
  return { checkout: work, context, plan, baseline, baseCommit, sandbox, ready };
}

/**
 * Plan and approve (CONTRACT §13). `approve` continues a planned session only: one whose summary's
 * marker says it ended with a plan and whose run and transcript are confirmed as this workflow's
 * (the approval gives the write tools, so nothing less counts); it records who approved which
 * plan, when. Any other request that follows a plan amends it: the run is a plan again.
 */
function planOrApproval(s: RunState, earlier: EarlierSession | undefined): void {
  const planned = earlier?.comment.marker.planned === true;
  if (s.task.intent === 'approve') {
    if (!earlier || !planned)
      throw new Error(
        `There is no plan to approve here: \`approve\` carries out the plan of an earlier patchloop run on this ${s.task.isPullRequest ? 'pull request' : 'issue'}${earlier ? `, and [the latest one](${earlier.runUrl}) did not end with a plan` : ', and none was found'}. Ask for one with \`${s.inputs.triggerPhrase} plan …\`.`,
      );
    if (earlier.unconfirmed || !earlier.transcript)
      throw new Error(
        `The plan of [the earlier run](${earlier.runUrl}) cannot be approved: ${earlier.unconfirmed ?? earlier.fallback?.reason ?? 'its transcript could not be had'}. Ask for the plan again with \`${s.inputs.triggerPhrase} plan …\`.`,
      );
    const by = s.task.requester?.login ?? 'someone';
    s.approval = {
      by,
      at: s.task.trigger.createdAt,
      plan: {
        runId: earlier.comment.marker.runId,
        sessionId: earlier.comment.marker.sessionId,
        runUrl: earlier.runUrl,
        commentUrl: earlier.comment.url,
      },
    };
    core.info(`patchloop: ${by} approved the plan of ${earlier.runUrl}.`);
    return;
  }
  if (planned && s.task.intent === undefined && s.task.mode !== 'review') s.task.intent = 'plan';
}

/**
 * The session this run continues, with `continue-session` on: the latest marked comment by the
 * identity that posted this run's own comment (the GITHUB_TOKEN's bot when none was posted).
 * A listing or download that fails is said in the summary; the run then starts afresh.
 */
async function findEarlier(
  s: RunState,
  commentReady: Promise<void>,
  signal: AbortSignal,
  on: {
    /** the comment that most likely counts, before this run's comment confirms whose markers count */
    onGuess(comment: EarlierComment): void;
  },
): Promise<EarlierSession | undefined> {
  const { task, inputs } = s;
  // The listing went out beside the permission check (for any task with a number); which
  // markers count is known once this run's comment is posted.
  const listed = s.commentsListed;
  // A review starts afresh each time: the earlier review threads are what it remembers.
  if (!inputs.continueSession || task.mode === 'review' || task.number === undefined || !listed)
    return undefined;
  const where = { owner: task.owner, repo: task.repo, issueNumber: task.number };
  // The first run on an issue (no comment carries a session marker at all) needs no wait for the
  // comment's post, which tells whose markers count; a PR may carry one in its body instead.
  if (!task.isPullRequest) {
    const comments = await listed.catch(() => undefined);
    if (comments && !comments.some((c) => readSessionMarker(c.body))) return undefined;
  }
  // Whose markers count is the author of this run's comment, known once it is posted. The
  // workflow token's bot is the usual one, so the lookup and the download go out with that login
  // beside the post, and are taken only when the post confirms it (else they are made again).
  const lookUp = (botLogin: string, ownCommentId?: number) =>
    findEarlierComment(
      s.github,
      { ...where, botLogin, ownCommentId, ownSessionId: s.sessionId, pullRequest: task.isPullRequest },
      listed,
    );
  const load = (comment: EarlierComment) =>
    loadEarlierSession(s.github, comment, {
      owner: task.owner,
      repo: task.repo,
      serverUrl: s.runner.serverUrl,
      workflowPath: workflowPathOf(s.env.GITHUB_WORKFLOW_REF, s.runner.repository),
      dest: join(s.dir, 'earlier'),
      signal,
    });
  const guessed = lookUp(ACTIONS_BOT_LOGIN);
  guessed.then(
    (c) => c && on.onGuess(c),
    () => undefined,
  );
  const guessedLoad = guessed.then((c) => (c ? load(c) : undefined));
  guessed.catch(() => undefined);
  guessedLoad.catch(() => undefined);
  await commentReady;
  let comment: EarlierComment | undefined;
  let confirmed: boolean;
  try {
    // Without this run's own comment (a dry run, a post that failed), the identity the token
    // reports, never a login assumed from the token's kind: an App token posts as its own bot.
    const author = s.comment?.author ?? (await tokenLogin(s.github));
    confirmed = author === ACTIONS_BOT_LOGIN;
    comment = confirmed ? await guessed : await lookUp(author, s.comment?.id);
  } catch (err) {
    s.notice(
      `Earlier runs on #${task.number} could not be looked up (${(err as Error).message}); this run starts afresh.`,
    );
    return undefined;
  }
  if (!comment) return undefined;
  // (An unconfirmed download is let finish first: both write the same folder.)
  const earlier = confirmed
    ? (await guessedLoad)!
    : await guessedLoad.then(
        () => load(comment),
        () => load(comment),
      );
  s.earlier = earlier;
  if (earlier.fallback) {
    s.notice(
      `This run follows up [the earlier run](${earlier.runUrl}), but its transcript could not be had (${earlier.fallback.reason}); it started from the earlier summary instead.`,
    );
  } else {
    core.info(
      `patchloop: continuing the session of ${earlier.runUrl} (${earlier.transcript!.messages.length} messages).`,
    );
  }
  mark('earlier session read');
  return earlier;
}
