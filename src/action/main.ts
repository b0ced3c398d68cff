// The action: trigger → permission → acknowledge → agent → branch, commit, PR → one summary
// comment, outputs, step summary and transcript artifact (CONTRACT §2–5).
import * as core from '@actions/core';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSystemPrompt,
  loadAgentsMd,
  runAgent,
  type AgentEvent,
  type AgentResult,
} from '../agent/index.js';
import { chooseArtifactUploader } from '../github/artifact.js';
import { TrackingComment } from '../github/comment.js';
import { commitMessage } from '../github/commit-message.js';
import { gatherContext, renderTaskPrompt, type TaskContext } from '../github/context.js';
import { deliverWork, prepareWork, type Delivery, type WorkPlan } from '../github/delivery.js';
import { taskFromEvent } from '../github/event.js';
import { chooseAgentsMd } from '../github/agents-md.js';
import {
  GitRepo,
  restoreCheckoutCredential,
  takeCheckoutCredential,
  type CheckoutCredential,
} from '../git/index.js';
import { createGitHubClient, type GitHubClient } from '../github/octokit.js';
import { checkPermission } from '../github/permission.js';
import { acknowledge } from '../github/reaction.js';
import type { Task } from '../github/task.js';
import { ACTIONS_BOT_LOGIN } from '../github/trigger.js';
import { createRedactor, secretsFromEnv } from '../protocol/redact.js';
import { TranscriptWriter } from '../protocol/transcript.js';
import { emptyUsage, type Usage } from '../protocol/types.js';
import { createFallbackProvider, createProvider, preloadProvider, PROVIDER_ENV } from '../providers/index.js';
import type { Provider } from '../providers/types.js';
import { renderHtml } from '../report/html.js';
import { loadRunView } from '../report/load.js';
import {
  editsDiff,
  renderSummaryMarkdown,
  STEP_SUMMARY_MAX_BYTES,
  toolLogFromMessages,
  type ChangedFile,
  type RunSummaryInput,
} from '../report/summary.js';
import { createWorkspaceTools } from '../tools/index.js';
import { createSandbox, type SandboxSetup } from '../sandbox/index.js';
import { InputError, readInputs, type ActionInputs } from './inputs.js';
import { setRunOutputs, type RunOutputs } from './outputs.js';
import { createActionsLog } from './log.js';
import { ProgressBoard } from './progress.js';
import { readRunnerEnv, runUrlOf, type RunnerEnv } from './runner-env.js';
import { watchInterrupts } from '../agent/signals.js';

export type Conclusion =
  'success' | 'no-changes' | 'failure' | 'cancelled' | 'skipped' | 'unauthorized' | 'budget-exceeded';

const FAILING: ReadonlySet<string> = new Set(['failure', 'budget-exceeded', 'cancelled']);

/** Milestones of the start-up in the debug log (ACTIONS_STEP_DEBUG), in ms since the process started. */
function mark(label: string): void {
  core.debug(`patchloop: ${label} at ${Math.round(performance.now())} ms`);
}

/** Runs the action; returns the process exit code. Never throws. */
export async function run(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<number> {
  mark('modules loaded');
  const runner = readRunnerEnv(env, cwd);
  let inputs: ActionInputs;
  try {
    inputs = readInputs((name) => core.getInput(name));
  } catch (err) {
    const message = err instanceof InputError ? err.message : `Reading the inputs failed: ${String(err)}`;
    setRunOutputs({ conclusion: 'failure' });
    core.setFailed(message);
    return 1;
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
    repository: runner.repository,
    actor: runner.actor,
    botLogins: [ACTIONS_BOT_LOGIN],
  });
  if (!decision.run) {
    core.info(`patchloop: nothing to do (${decision.reason}).`);
    setRunOutputs({ conclusion: 'skipped' });
    return 0;
  }
  const task = decision.task;
  // The SDK loads while the permission check, the comment and git run.
  preloadProvider(inputs.provider);
  const github = createGitHubClient({
    token: inputs.githubToken,
    baseUrl: runner.apiUrl,
    log: {
      debug: (m) => core.debug(redact(m)),
      info: (m) => core.info(redact(m)),
      warning: (m) => core.warning(redact(m)),
    },
  });

  const permission = await checkPermission(github, {
    owner: task.owner,
    repo: task.repo,
    actor: task.requester,
    required: inputs.requiredPermission,
    allowedBots: inputs.allowedBots,
  });
  if (!permission.allowed) {
    if (permission.failed) return fail(permission.reason);
    core.notice(`patchloop: not running for ${task.requester?.login ?? 'this event'}: ${permission.reason}.`);
    // A sign that the request was seen and refused; no comment, so nobody can make the bot post.
    if (!inputs.dryRun) {
      const reacted = await acknowledge(github, task, '-1');
      if (!reacted.ok) core.debug(`patchloop: ${reacted.message}`);
    }
    setRunOutputs({ conclusion: 'unauthorized' });
    return 0;
  }
  core.info(`patchloop: ${permission.reason}.`);
  mark('permission checked');

  // Whatever the agent's commands could read must not hold the push credential. Taken while the
  // comment is posted and the context read; awaited before any git work.
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
  const session = new ActionRun(
    inputs,
    runner,
    task,
    github,
    credentialReady,
    secrets,
    permission.level,
    env,
  );
  return session.run();
}

function fail(message: string): number {
  setRunOutputs({ conclusion: 'failure' });
  core.setFailed(message);
  return 1;
}

/** Registers every secret with the runner (so its log masks them) and returns them for the redactor. */
function maskSecrets(inputs: ActionInputs, env: NodeJS.ProcessEnv): string[] {
  const values = new Set<string>([inputs.githubToken, inputs.apiKey, ...secretsFromEnv(env)]);
  for (const vars of Object.values(PROVIDER_ENV)) {
    for (const name of vars.key) {
      const v = env[name];
      if (v) values.add(v);
    }
  }
  const list = [...values].filter((v) => v.trim().length >= 4);
  for (const v of list) core.setSecret(v);
  return list;
}

class ActionRun {
  private readonly started = Date.now();
  private readonly runUrl: string;
  private readonly dir: string;
  private readonly notices: string[] = [];
  private readonly log = createActionsLog({ redact: (t) => this.redact(t) });
  private artifactName?: string;
  private comment?: TrackingComment;
  private repo?: GitRepo;
  private sandbox?: SandboxSetup;
  private transcript?: TranscriptWriter;
  private transcriptPath: string;
  private artifactUrl?: string;
  private redact: (text: string) => string;

  constructor(
    private readonly inputs: ActionInputs,
    private readonly runner: RunnerEnv,
    private readonly task: Task,
    private readonly github: GitHubClient,
    private readonly credentialReady: Promise<CheckoutCredential>,
    private readonly secrets: string[],
    private readonly requesterLevel: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.runUrl = runUrlOf(runner);
    this.redact = createRedactor(secrets);
    this.dir = join(runner.runnerTemp, 'patchloop', runner.runId);
    this.transcriptPath = join(
      this.dir,
      `transcript${task.number !== undefined ? `-${task.number}` : ''}.jsonl`,
    );
  }

  async run(): Promise<number> {
    const cancellation = watchInterrupts(() => {
      // The runner's second signal: little time is left, so the summary is written in a hurry.
      core.warning('patchloop: cancelled again; finishing at once.');
    });
    try {
      return await this.runInner(cancellation.signal);
    } catch (err) {
      // Anything unexpected still ends in a summary and a truthful conclusion.
      const message = `patchloop stopped on an unexpected error: ${err instanceof Error ? err.message : String(err)}`;
      await this.finish({ conclusion: 'failure', error: message });
      return 1;
    } finally {
      cancellation.dispose();
      // What the sandbox changed (the workspace's ACLs and mode) is undone on every ending.
      if (this.sandbox?.kind === 'isolated') {
        await this.sandbox
          .dispose()
          .catch((err: Error) => core.warning(`patchloop: the sandbox was not taken down: ${err.message}`));
      }
      // Later steps of the workflow may push with the checkout's credential, as before the run.
      await this.credentialReady
        .then((credential) =>
          this.repo
            ? this.repo.restoreCredential(credential)
            : restoreCheckoutCredential(this.runner.workspace, credential),
        )
        .catch((err: Error) =>
          core.warning(`patchloop: the checkout credential was not put back: ${err.message}`),
        );
    }
  }

  private async runInner(signal: AbortSignal): Promise<number> {
    const { inputs, task, runner } = this;
    // Acknowledge first: the comment exists before the first model request.
    const commentReady = this.createComment();
    const ack = inputs.dryRun
      ? Promise.resolve(undefined)
      : commentReady.then(() => acknowledge(this.github, task));
    const contextReady = gatherContext(this.github, task, { botLogins: [ACTIONS_BOT_LOGIN] });
    // Awaited below unless an earlier step fails; then its rejection must not go unhandled.
    contextReady.catch(() => undefined);
    let checkout: GitRepo;
    let context: TaskContext;
    let plan: WorkPlan;
    let baseline: string[];
    let baseCommit: string | undefined;
    let sandbox: SandboxSetup;
    try {
      const credential = await this.credentialReady.catch((err: Error) => {
        throw new Error(`The checkout's git credential could not be secured: ${err.message}`);
      });
      this.redact = createRedactor([...this.secrets, ...credential.secrets]);
      checkout = this.repo = new GitRepo({
        dir: runner.workspace,
        credential,
        identitySource: 'local',
        protectedPaths: inputs.protectedPaths,
        privateParent: runner.runnerTemp,
      });
      const work = checkout;
      // The branch (needs the PR's refs only for PR tasks) and the context run side by side.
      const planFor = (pr: TaskContext['pr']) =>
        prepareWork(work, task, {
          prefix: inputs.branchPrefix,
          runId: runner.runId,
          openPr: inputs.openPr,
          pr,
          github: this.github,
        });
      const planReady = task.isPullRequest ? contextReady.then((c) => planFor(c.pr)) : planFor(undefined);
      planReady.catch(() => undefined);
      context = await contextReady;
      mark('context read');
      for (const w of context.warnings) this.notice(w);
      plan = await planReady;
      for (const n of plan.notices ?? []) this.notice(n);
      mark('branch ready');
      [baseline, baseCommit] = await Promise.all([work.untracked(), work.headSha().catch(() => undefined)]);
      // After the branch, before the first command: from here on patchloop's git uses a private
      // git dir and reads nothing under the workspace's .git.
      await work.isolate();
      mark('git isolated');
      // The sandbox is set up only once patchloop's own git work is done (its ACL walk must not
      // race git's lock files). A set-up that fails throws: the run stops here, before the first
      // model request, rather than carrying on unisolated.
      sandbox = this.sandbox = await createSandbox({
        workspace: runner.workspace,
        mode: 'auto',
        privateDirs: [runner.runnerTemp, this.dir],
        readOnlyDirs: [this.outputsDir()],
        commandEnv: inputs.commandEnv,
        env: this.env,
      }).catch((err: Error) => {
        throw new Error(
          `The command sandbox could not be set up, so the run stopped before the first model request: ${err.message}`,
        );
      });
      mark('sandbox ready');
    } catch (err) {
      await commentReady;
      return this.finish({ conclusion: 'failure', error: err instanceof Error ? err.message : String(err) });
    }
    await commentReady;
    mark('comment posted');

    let provider: Provider;
    try {
      provider = this.createProvider();
    } catch (err) {
      return this.finish({ conclusion: 'failure', error: (err as Error).message, plan });
    }

    const commands = sandbox.kind === 'isolated' || inputs.allowUnisolatedCommands;
    const allowBash = inputs.allowBash && commands;
    if (sandbox.kind === 'isolated') {
      core.info(`patchloop: ${sandbox.reason}.`);
    } else if (commands) {
      core.warning(
        `patchloop: commands are not isolated (${sandbox.reason}); they run because allow-unisolated-commands is true.`,
      );
    } else {
      this.notice(
        `Tests could not be run: commands cannot be isolated on this runner (${sandbox.reason}), so run_tests${inputs.allowBash ? ' and bash were' : ' was'} not offered. Set allow-unisolated-commands: true to run them anyway.`,
      );
    }

    const tools = createWorkspaceTools({
      root: runner.workspace,
      protectedPaths: inputs.protectedPaths,
      testCommand: inputs.testCommand || undefined,
      allowBash,
      commands,
      sandbox: sandbox.kind === 'isolated' ? sandbox.sandbox : undefined,
      commandEnv: { pass: inputs.commandEnv, privateDirs: [runner.runnerTemp, this.dir] },
      artifactsDir: this.outputsDir(),
      env: this.env,
      git: checkout.toolGit(),
    });
    this.transcript = new TranscriptWriter(this.transcriptPath, {
      redact: this.redact,
      onError: (err) =>
        core.warning(`patchloop: the transcript could not be written (${err.message}); the run goes on.`),
    });
    const agents = await chooseAgentsMd(this.github, task, context.pr, loadAgentsMd(runner.workspace));
    if (agents.warning) this.notice(agents.warning);
    const systemPrompt = buildSystemPrompt({
      repository: runner.repository,
      toolNames: tools.map((t) => t.name),
      agentsMd: agents.trusted,
      agentsMdSource: agents.source,
      instructions: inputs.instructions,
    });
    this.transcript.session({
      id: `${runner.runId}-${runner.runAttempt}${task.number !== undefined ? `-${task.number}` : ''}`,
      startedAt: new Date(this.started).toISOString(),
      repository: runner.repository,
      trigger: runner.eventName,
      provider: provider.name,
      model: provider.model,
      task: task.kind,
      ...(task.number !== undefined ? { number: task.number } : {}),
      ...(task.requester ? { requester: task.requester.login } : {}),
      runUrl: this.runUrl,
      branch: plan.branch,
      baseCommit,
      workspace: runner.workspace,
      allowBash,
      protectedPaths: inputs.protectedPaths,
      ...(inputs.testCommand ? { testCommand: inputs.testCommand } : {}),
      isolated: sandbox.kind === 'isolated',
      // where saved outputs are, for replay's normalisation
      artifactsDir: this.outputsDir(),
      // for the HTML page: what the model was told and offered
      systemPrompt,
      tools: tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
    });

    if (this.comment) this.transcript.event('comment', { id: this.comment.id, url: this.comment.url });
    mark('tools and provider ready');
    const board = new ProgressBoard(this.runUrl);
    const onEvent = (e: AgentEvent) => {
      this.log.onEvent(e);
      if (this.comment && board.onEvent(e)) this.comment.update(board.render());
    };
    const result = await runAgent({
      provider,
      tools,
      systemPrompt,
      task: renderTaskPrompt(task, context, {
        workNote: plan.note,
        requesterLevel: this.requesterLevel,
        contributedAgentsMd: agents.contributed,
      }),
      maxTurns: inputs.maxTurns,
      maxCostUsd: inputs.maxCostUsd,
      timeoutMs: inputs.timeoutMinutes * 60_000,
      signal,
      transcript: this.transcript,
      onEvent,
    });
    const reaction = await ack;
    if (reaction && !reaction.ok && reaction.message !== 'reviews take no reactions')
      core.warning(`patchloop: ${reaction.message}`);

    if (await checkout.restoreConfig().catch(() => false)) {
      this.notice('The git configuration was changed during the run; it was put back before committing.');
    }
    if (result.conclusion === 'cancelled' || signal.aborted) {
      return this.finish({ conclusion: 'cancelled', result, plan, error: result.error });
    }
    const delivery = await deliverWork({
      checkout,
      plan,
      message: commitMessage({ task, runUrl: this.runUrl, agentSummary: firstLine(result.finalText) }),
      baselineUntracked: baseline,
      push: !inputs.dryRun,
      github: inputs.dryRun ? undefined : this.github,
      owner: task.owner,
      repo: task.repo,
      serverUrl: runner.serverUrl,
      draft: inputs.draftPr,
      prTitle: commitMessage({ task, runUrl: this.runUrl }).split('\n')[0]!,
      prBody: (d) => this.prBody(result, plan, d, provider),
      signal,
      // Delivery gets what is left of the budget, and at least a minute to commit and push.
      timeoutMs: Math.max(60_000, this.started + inputs.timeoutMinutes * 60_000 - Date.now()),
    });
    for (const n of delivery.notices) this.notice(n);
    if (delivery.commit)
      this.transcript.event('commit', { sha: delivery.commit.sha, files: delivery.commit.files.length });
    if (delivery.push)
      this.transcript.event('push', {
        branch: delivery.push.branch,
        sha: delivery.push.sha,
        rebased: delivery.push.rebased,
      });
    if (delivery.pr) this.transcript.event('pull-request', { ...delivery.pr });
    if (delivery.error) this.transcript.event('error', { message: delivery.error });

    if (signal.aborted) {
      return this.finish({
        conclusion: 'cancelled',
        result,
        plan,
        delivery,
        error: delivery.error,
        provider,
      });
    }
    let conclusion: Conclusion = result.conclusion;
    if (conclusion === 'success' && !delivery.commit) conclusion = 'no-changes';
    if (delivery.error) conclusion = 'failure';
    const error = [result.error, delivery.error].filter(Boolean).join(' ') || undefined;
    return this.finish({ conclusion, result, plan, delivery, error, provider });
  }

  private async createComment(): Promise<void> {
    if (this.inputs.dryRun || this.task.number === undefined) return;
    try {
      this.comment = await TrackingComment.create(
        {
          github: this.github,
          owner: this.task.owner,
          repo: this.task.repo,
          issueNumber: this.task.number,
          redact: (t) => this.redact(t),
          log: { debug: core.debug, info: core.info, warning: (m) => core.warning(this.redact(m)) },
        },
        `👀 **patchloop is working on this** — [follow the run](${this.runUrl})`,
      );
      core.info(`patchloop: tracking comment ${this.comment.url}`);
    } catch (err) {
      this.notice((err as Error).message);
    }
  }

  private createProvider(): Provider {
    const { inputs } = this;
    const primary = createProvider({
      provider: inputs.provider,
      model: inputs.model,
      apiKey: inputs.apiKey,
      baseUrl: inputs.baseUrl,
      env: this.env,
    });
    if (!inputs.fallbackModel) return primary;
    const fallback = createProvider({
      provider: inputs.fallbackModel.provider,
      model: inputs.fallbackModel.model,
      env: this.env,
    });
    return createFallbackProvider(primary, fallback);
  }

  private notice(message: string): void {
    const clean = this.redact(message);
    this.notices.push(clean);
    core.warning(`patchloop: ${clean}`);
  }

  private prBody(result: AgentResult, plan: WorkPlan, delivery: Delivery, provider: Provider): string {
    const summary = renderSummaryMarkdown(
      this.summaryInput({ conclusion: result.conclusion, result, plan, delivery, provider }),
      { redact: this.redact, maxChars: 60_000 },
    );
    const fixes =
      plan.fixes !== undefined
        ? `\n\nFixes #${plan.fixes}`
        : plan.pullNumber !== undefined
          ? `\n\nFollows up #${plan.pullNumber}`
          : '';
    return `${summary}${fixes}`;
  }

  private summaryInput(o: FinishInput): RunSummaryInput {
    const r = o.result;
    const d = o.delivery;
    const pr = d?.pr && (d.pr.kind === 'created' || d.pr.kind === 'existing') ? d.pr : undefined;
    const compare =
      d?.pr && (d.pr.kind === 'forbidden' || d.pr.kind === 'failed') ? d.pr.compareUrl : undefined;
    const models = r?.models.length ? r.models : o.provider ? [o.provider.model] : [];
    return {
      conclusion: o.conclusion,
      models,
      turns: r?.turns ?? 0,
      durationMs: Date.now() - this.started,
      usage: r?.usage ?? emptyUsage(),
      branch: d?.push?.branch ?? (d?.commit ? o.plan?.branch : undefined),
      commitSha: d?.push?.sha ?? d?.commit?.sha,
      prUrl: pr?.url,
      prNumber: pr?.number,
      compareUrl: compare,
      changedFiles: changedFiles(d),
      finalMessage: r?.finalText || undefined,
      error: o.error,
      toolLog: r ? toolLogFromMessages(r.messages) : [],
      transcriptLocation: o.transcriptLocation,
      runUrl: this.runUrl,
      serverUrl: this.runner.serverUrl,
      repository: this.runner.repository,
      pushed: Boolean(d?.push),
      requester: this.task.requester?.login,
      artifactUrl: this.artifactUrl,
      artifactName: this.artifactName,
      diff: this.inputs.dryRun && r ? editsDiff(r.messages) || undefined : undefined,
      related: this.task.workflowRun
        ? [
            {
              label: 'Failed run',
              url: `${this.runner.serverUrl}/${this.runner.repository}/actions/runs/${this.task.workflowRun.id}`,
            },
          ]
        : undefined,
      notices: [...this.notices, ...(this.inputs.dryRun ? ['Dry run: nothing was pushed or posted.'] : [])],
    };
  }

  /** Writes the summary everywhere it goes and sets the outputs; returns the exit code. */
  private async finish(o: FinishInput): Promise<number> {
    const usage: Usage = o.result?.usage ?? emptyUsage();
    if (this.transcript) {
      this.transcript.summary({
        conclusion: o.conclusion,
        usage,
        turns: o.result?.turns ?? 0,
        models: o.result?.models ?? [],
        durationMs: Date.now() - this.started,
        endedAt: new Date().toISOString(),
        ...(o.error ? { error: o.error } : {}),
        ...(o.delivery?.push ? { branch: o.delivery.push.branch, commitSha: o.delivery.push.sha } : {}),
      });
      this.transcript.close();
    }
    const location =
      o.conclusion === 'cancelled' ? this.transcriptPathIfAny() : await this.publishTranscript();
    const input = this.summaryInput({ ...o, transcriptLocation: location });
    const commentText = renderSummaryMarkdown(input, { redact: this.redact });
    let commentUrl: string | undefined;
    if (this.comment) {
      const ok = await this.comment.finish(commentText);
      commentUrl = this.comment.url;
      if (!ok)
        core.warning('patchloop: the summary comment could not be written; it is in the step summary.');
    }
    try {
      await core.summary
        .addRaw(renderSummaryMarkdown(input, { redact: this.redact, maxBytes: STEP_SUMMARY_MAX_BYTES }))
        .write();
    } catch (err) {
      core.warning(`patchloop: the step summary could not be written (${(err as Error).message}).`);
    }
    const outputs: RunOutputs = {
      conclusion: o.conclusion,
      branch: input.branch,
      commitSha: input.commitSha,
      prNumber: input.prNumber,
      prUrl: input.prUrl,
      commentUrl,
      transcriptPath: this.transcript ? this.transcriptPath : undefined,
      artifactUrl: this.artifactUrl,
      model: input.models.join(','),
      turns: input.turns,
      usage,
    };
    setRunOutputs(outputs, this.redact);
    this.log.outcome(input);
    if (FAILING.has(o.conclusion)) {
      core.setFailed(
        this.redact(o.error ? `patchloop: ${o.conclusion}: ${o.error}` : `patchloop: ${o.conclusion}`),
      );
      return 1;
    }
    return 0;
  }

  /**
   * Where run_tests and bash save a full output they cut: a folder of its own, readable by the
   * commands and the file tools, apart from the transcript.
   */
  private outputsDir(): string {
    const dir = join(this.dir, 'outputs');
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    return dir;
  }

  private transcriptPathIfAny(): string | undefined {
    return this.transcript ? `${this.transcriptPath} on the runner` : undefined;
  }

  /** The HTML page beside the JSONL, both uploaded as an artifact when the runner allows it. */
  private async publishTranscript(): Promise<string | undefined> {
    if (!this.transcript || !existsSync(this.transcriptPath)) return undefined;
    const htmlPath = this.transcriptPath.replace(/\.jsonl$/, '.html');
    const files = [this.transcriptPath];
    try {
      const view = await loadRunView(this.transcriptPath);
      writeFileSync(
        htmlPath,
        this.redact(renderHtml(view, { source: 'transcript.jsonl', generatedAt: new Date() })),
      );
      files.push(htmlPath);
    } catch (err) {
      core.warning(
        `patchloop: the HTML page of the transcript could not be made (${(err as Error).message}).`,
      );
    }
    const local = `${this.transcriptPath} on the runner`;
    if (!this.inputs.uploadArtifact) return local;
    const choice = chooseArtifactUploader(this.env);
    if (!choice.uploader) {
      this.notice(choice.notice);
      return local;
    }
    try {
      const uploaded = await choice.uploader.uploadTranscript({
        jsonlPath: this.transcriptPath,
        htmlPath: files[1],
        taskNumber: this.task.number,
      });
      this.artifactUrl = uploaded.url;
      this.artifactName = uploaded.name;
      return uploaded.url ? `artifact [${uploaded.name}](${uploaded.url})` : `artifact ${uploaded.name}`;
    } catch (err) {
      this.notice(`The transcript artifact could not be uploaded (${(err as Error).message}).`);
      return local;
    }
  }
}

interface FinishInput {
  conclusion: Conclusion;
  result?: AgentResult;
  plan?: WorkPlan;
  delivery?: Delivery;
  error?: string;
  provider?: Provider;
  transcriptLocation?: string;
}

function changedFiles(d: Delivery | undefined): ChangedFile[] {
  return (d?.commit?.files ?? []).map((f) => ({
    path: f.path,
    added: f.added ?? 0,
    removed: f.removed ?? 0,
    ...(f.added === null ? { binary: true } : {}),
  }));
}

function firstLine(text: string): string | undefined {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  return line || undefined;
}
