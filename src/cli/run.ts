import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { buildSystemPrompt, loadAgentsMd, type AgentResult } from '../agent/index.js';
import {
  defaultBranchName,
  describeLeftOut,
  openCheckout,
  type ChangedFile,
  type OpenedCheckout as Checkout,
} from '../git/index.js';
import { createRedactor, secretsFromEnv } from '../protocol/redact.js';
import type { Redactor } from '../protocol/transcript.js';
import {
  parseTranscript,
  TranscriptWriter,
  type RecordedLine,
  type SessionLine,
} from '../protocol/transcript.js';
import type { Message } from '../protocol/types.js';
import { cloudSecrets, preloadProvider } from '../providers/index.js';
import { PROVIDER_NAMES, type ProviderName } from '../providers/types.js';
import { renderSummaryText, toolLogFromMessages, type RunSummaryInput } from '../report/summary.js';
import { applyPlan } from '../delivery/apply.js';
import { createWorkspaceTools } from '../tools/index.js';
import { mcpSecrets } from '../tools/mcp/config.js';
import { readMcpFlag, startCliMcp } from './mcp.js';
import { isInside } from '../tools/safe-fs.js';
import { probeMachine } from '../sandbox/index.js';
import { networkSummaryLine, parseCommandNetwork, type CommandNetwork } from '../sandbox/network.js';
import {
  awaitWorkspace,
  commandsOffered,
  concludeRun,
  recordSummary,
  runLoop,
  sessionLine,
  startCommandWorkspace,
  type RunBudgets,
} from '../run/phases.js';
import { commandEnvFlag, existingFolder, parseFlags, positiveInt, positiveNumber } from './args.js';
import { watchInterrupts } from './interrupt.js';
import { UsageError, useColour, type CliCommand, type CliIO } from './io.js';
import { endpointHost, finalLine, plural, recordableUrl, startLine } from './run-lines.js';
import { loadModel, type CliModel } from './model.js';
import { createTimeline } from './timeline.js';
import { cliHost, localPlan } from './apply-host.js';

export const RUN_USAGE = `Usage: patchloop run [options] "task"
       patchloop run --continue FILE.jsonl [options] "next request"

Runs the agent on a local git checkout and commits its changes to a new local branch.
The live timeline goes to stderr; the summary and the transcript path to stdout.

Options:
  --repo DIR              the checkout (default: the current folder)
  --provider P            ${PROVIDER_NAMES.join(', ')} (default: anthropic)
  --model M               model id (default: the provider's default)
  --base-url U            provider base URL (proxies, gateways, local servers)
  --api-key K             provider key (default: ANTHROPIC_API_KEY / OPENAI_API_KEY / GEMINI_API_KEY;
                          the clouds read AWS_*, GOOGLE_APPLICATION_CREDENTIALS, AZURE_OPENAI_*)
  --fallback-model P:M    continue on this model when the primary fails after its retries
  --max-turns N           assistant turns (default: 40)
  --max-cost-usd X        stop before the estimated cost passes X
  --timeout-minutes N     wall-clock budget (default: 30)
  --test-command C        what run_tests runs (default: detected)
  --allow-bash            also offer the bash tool
  --sandbox auto|off      run the agent's commands as an unprivileged user that cannot read this
                          process's secrets, where root or passwordless sudo allows (default: auto)
  --command-network N     what those commands reach: none (their own loopback; the default), all,
                          or host names (registry.npmjs.org,*.pythonhosted.org) through a proxy
  --command-env NAMES     variables of this shell passed on to those commands (comma-separated),
                          besides the neutral ones patchloop sets; never a cloud credential
  --instructions TEXT     appended to the system prompt
  --branch B              branch for the commit (default: patchloop/<task>-<time>)
  --transcript FILE       where the JSONL transcript goes (default: the system temp folder)
  --continue FILE.jsonl   continue a recorded session: the model gets its conversation first, the
                          work goes on the branch it left (when it still exists), with the same
                          model unless --provider / --model say otherwise
  --mcp-config FILE|JSON  MCP servers whose tools the model may use (the .mcp.json shape); a stdio
                          server runs as a command (sandboxed like run_tests)
  --replay FILE.jsonl     use a recorded transcript's assistant messages as the model (no network);
                          the task and test command default to the recorded ones

Exit status: 0 success or no changes, 1 failure or budget exceeded, 130 cancelled, 2 usage error.`;

const FLAGS = {
  repo: 'string',
  provider: 'string',
  model: 'string',
  'base-url': 'string',
  'api-key': 'string',
  'fallback-model': 'string',
  'max-turns': 'string',
  'max-cost-usd': 'string',
  'timeout-minutes': 'string',
  'test-command': 'string',
  'allow-bash': 'boolean',
  sandbox: 'string',
  'command-network': 'string',
  'command-env': 'string',
  instructions: 'string',
  branch: 'string',
  transcript: 'string',
  replay: 'string',
  continue: 'string',
  'mcp-config': 'string',
  help: 'boolean',
} as const;

const EXIT: Record<string, number> = {
  success: 0,
  'no-changes': 0,
  failure: 1,
  'budget-exceeded': 1,
  cancelled: 130,
};

/** Author of the commit when git has no user.name / user.email configured. */
const FALLBACK_AUTHOR = { name: 'patchloop', email: 'patchloop@users.noreply.github.com' };

/** `patchloop run`: the agent on a local checkout, its work committed to a new branch. */
export const runCommand: CliCommand = async (argv, io) => {
  const { flags, positionals } = parseFlags(argv, FLAGS);
  if (flags.help) {
    io.stdout.write(`${RUN_USAGE}\n`);
    return 0;
  }
  const maxTurns = positiveInt('max-turns', flags['max-turns']) ?? 40;
  const maxCostUsd = positiveNumber('max-cost-usd', flags['max-cost-usd']);
  const timeoutMinutes = positiveNumber('timeout-minutes', flags['timeout-minutes']) ?? 30;
  const earlier = flags.continue ? readEarlierSession(resolve(io.cwd, flags.continue)) : undefined;
  // a usage error, before anything touches the checkout
  const mcpServers = flags['mcp-config'] !== undefined ? readMcpFlag(flags['mcp-config'], io.cwd) : undefined;
  // A continued session keeps its provider, model and endpoint unless the flags name others.
  const recordedProvider = earlier?.session.provider;
  const provider =
    flags.provider ??
    (typeof recordedProvider === 'string' && (PROVIDER_NAMES as readonly string[]).includes(recordedProvider)
      ? recordedProvider
      : 'anthropic');
  const sameProvider = earlier !== undefined && provider === recordedProvider;
  const recordedModel = earlier?.session.model;
  const modelId =
    flags.model ?? (sameProvider && typeof recordedModel === 'string' ? recordedModel : undefined);
  const recordedBaseUrl = earlier?.session.baseUrl;
  const baseUrl =
    flags['base-url'] ?? (sameProvider && typeof recordedBaseUrl === 'string' ? recordedBaseUrl : undefined);
  if (!(PROVIDER_NAMES as readonly string[]).includes(provider)) {
    throw new UsageError(`--provider must be one of ${PROVIDER_NAMES.join(', ')}, got "${provider}"`);
  }
  const sandboxMode = flags.sandbox ?? 'auto';
  if (sandboxMode !== 'auto' && sandboxMode !== 'off') {
    throw new UsageError(`--sandbox must be auto or off, got "${sandboxMode}"`);
  }
  const pass = commandEnvFlag(flags['command-env']);
  const givenTask = positionals.join(' ').trim();
  // Without --replay there is no recorded task to fall back on: refused before any key is asked for.
  if (!givenTask && !flags.replay) {
    throw new UsageError(
      earlier
        ? 'missing the next request, e.g. patchloop run --continue FILE.jsonl "also handle negative numbers"'
        : 'missing the task, e.g. patchloop run "fix the failing test in src/math.js"',
    );
  }
  // The SDK loads while git checks the checkout.
  if (!flags.replay) preloadProvider(provider);
  let network: CommandNetwork;
  try {
    network = parseCommandNetwork(flags['command-network'] ?? 'none');
  } catch (err) {
    throw new UsageError(`--${(err as Error).message}`);
  }
  // What the machine offers for isolation is asked beside the git work (nothing of the checkout).
  if ((flags.sandbox ?? 'auto') === 'auto') void probeMachine();
  const checkout = await cleanCheckout(
    existingFolder('repo', resolve(io.cwd, flags.repo ?? '.')),
    flags.branch,
  );
  const model = loadModel(
    {
      provider: provider as ProviderName,
      model: modelId,
      baseUrl,
      apiKey: flags['api-key'],
      fallback: flags['fallback-model'],
      replay: flags.replay,
    },
    io.cwd,
    io.env,
  );
  const task = givenTask || (earlier ? undefined : model.recordedTask);
  if (!task && earlier)
    throw new UsageError(
      'missing the next request, e.g. patchloop run --continue FILE.jsonl "also handle negative numbers"',
    );
  if (!task)
    throw new UsageError('missing the task, e.g. patchloop run "fix the failing test in src/math.js"');

  const id = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${randomBytes(3).toString('hex')}`;
  const transcriptPath = flags.transcript
    ? resolve(io.cwd, flags.transcript)
    : join(tmpdir(), 'patchloop', id, 'transcript.jsonl');
  const redact = createRedactor([
    ...(flags['api-key'] ? [flags['api-key']] : []),
    ...secretsFromEnv(io.env),
    ...(mcpServers ? mcpSecrets(mcpServers) : []),
    ...cloudSecrets(io.env),
  ]);
  const transcript = openTranscript(transcriptPath, checkout.root, redact, io);

  // Everything is checked: only now does the checkout move, and the user is told.
  // On the branch the earlier session left, when it still exists (and no --branch asks for another).
  let continueOn: string | undefined;
  if (earlier?.branch && flags.branch === undefined) {
    if (await checkout.repo.branchExists(earlier.branch)) {
      checkout.head = await checkout.repo.checkoutBranch(earlier.branch);
      checkout.branch = earlier.branch;
      continueOn = earlier.branch;
    } else {
      io.stderr.write(
        `patchloop: the branch ${earlier.branch} of the earlier session no longer exists; the work goes to a new branch.\n`,
      );
    }
  }
  if (earlier) {
    io.stderr.write(
      `patchloop: continuing session ${String(earlier.session.id ?? '?')} from ${earlier.path} (${plural(earlier.messages.length, 'message')})${continueOn ? `, on its branch ${continueOn}` : ''}\n`,
    );
  }

  // Before the first command, after the checkout is on its branch: patchloop's git then uses a
  // private git dir and reads nothing a command may write under the checkout's .git.
  const isolating = checkout.repo.isolate();
  isolating.catch(() => undefined);

  const recorded = model.recordedSession?.testCommand ?? earlier?.session.testCommand;
  const testCommand = flags['test-command'] ?? (typeof recorded === 'string' ? recorded : undefined);
  const allowBash = flags['allow-bash'] === true;
  // Full outputs that run_tests and bash cut go to a folder of their own, which commands and the
  // file tools may read; the transcript stays apart.
  const outputsDir = join(tmpdir(), 'patchloop', id, 'outputs');
  mkdirSync(outputsDir, { recursive: true, mode: 0o755 });
  chmodSync(outputsDir, 0o755);
  // `unavailable` means isolation cannot be had here, or --sandbox off asked for none; a set-up
  // that fails throws, at once or through `ready` (see below). It goes beside the private git
  // dir's making: that only reads the checkout (the run's git work in the checkout, the commit,
  // comes after the agent), so the sandbox's ACL walk races no git lock file.
  // The private git dir and the sandbox's access and self-check are made beside the first model
  // request (`ready`): no tool runs before both are done, and the run stops when either failed.
  const { sandbox, ready } = await startCommandWorkspace({
    isolating,
    sandbox: {
      workspace: checkout.root,
      mode: sandboxMode,
      privateDirs: [
        ...(io.env.RUNNER_TEMP ? [io.env.RUNNER_TEMP] : []),
        ...[dirname(transcriptPath)].filter((d) => !isInside(checkout.root, d)),
      ],
      readOnlyDirs: [outputsDir],
      network,
      env: io.env,
      commandEnv: pass,
    },
    unready: (err) =>
      new Error(
        `the command sandbox could not be set up, so nothing was run: ${err.message} (--sandbox off runs commands as you, unisolated)`,
      ),
  });
  // --sandbox off is the user's own choice; under auto, commands that cannot be isolated are not offered.
  const commands = commandsOffered(sandbox, sandboxMode === 'off');
  if (!commands) {
    io.stderr.write(
      `patchloop: run_tests${allowBash ? ' and bash are' : ' is'} not offered: commands cannot be isolated here (${sandbox.reason}). --sandbox off runs them as you, with access to this shell's files.\n`,
    );
  }
  io.stderr.write(
    `${startLine({
      provider: model.provider.name,
      model: model.provider.model,
      endpoint: model.scripted
        ? 'no endpoint (replayed)'
        : endpointHost(provider as ProviderName, baseUrl, io.env),
      isolated: sandbox.kind === 'isolated',
      commands,
      network: flags['command-network'] ?? 'none',
    })}\n`,
  );
  const tools = createWorkspaceTools({
    git: checkout.repo.toolGit(),
    root: checkout.root,
    allowBash: allowBash && commands,
    commands,
    testCommand,
    env: io.env,
    commandEnv: { pass },
    artifactsDir: outputsDir,
    ...(sandbox.kind === 'isolated' ? { sandbox: sandbox.sandbox } : {}),
  });
  const mcp = mcpServers
    ? await startCliMcp(mcpServers, {
        root: checkout.root,
        env: io.env,
        redact,
        artifactsDir: outputsDir,
        io,
        commands,
        commandsReady: ready,
        ...(sandbox.kind === 'isolated' ? { sandbox: sandbox.sandbox } : {}),
      })
    : undefined;
  tools.push(...(mcp?.tools ?? []));
  const systemPrompt = buildSystemPrompt({
    repository: basename(checkout.root),
    toolNames: tools.map((t) => t.name),
    agentsMd: loadAgentsMd(checkout.root),
    instructions: flags.instructions,
  });
  transcript.session(
    sessionLine(
      {
        id,
        startedAt: new Date().toISOString(),
        repository: checkout.root,
        trigger: 'cli',
        provider: model.provider,
        workspace: checkout.root,
        head: checkout.head,
        ...(earlier ? { earlierSession: earlier.session } : {}),
        allowBash,
        isolated: sandbox.kind === 'isolated',
        ...(testCommand ? { testCommand } : {}),
        systemPrompt,
        tools,
      },
      {
        ...(recordableUrl(baseUrl) ? { baseUrl: recordableUrl(baseUrl) } : {}),
        ...(earlier ? { continues: { sessionId: earlier.session.id } } : {}),
        ...(model.scripted ? { scripted: true, note: model.scripted } : {}),
      },
    ),
  );

  const timeline = createTimeline(io.stderr, { colour: useColour(io.stderr, io.env) });
  // Stays on until the summary is out: a signal after the loop still ends in a clean exit.
  const interrupt = watchInterrupts();
  const budgets: RunBudgets = {
    maxTurns,
    ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
    timeoutMinutes,
  };
  try {
    const result = await runLoop({
      provider: model.provider,
      tools,
      systemPrompt,
      task,
      ...(earlier
        ? {
            earlier: {
              messages: earlier.messages,
              rows: earlier.rows,
              event: { sessionId: earlier.session.id, transcript: basename(earlier.path) },
            },
          }
        : {}),
      budgets,
      signal: interrupt.signal,
      transcript,
      onEvent: (e) => timeline.onEvent(e),
      toolsReady: ready,
      ...(testCommand ? { testCommand } : {}),
    });
    timeline.close();
    // what a server wrote on stderr, and its errors in its own words, go to the transcript alone
    mcp?.record(transcript);
    const unready = await awaitWorkspace(result, ready, interrupt.signal);
    return await finish({
      io,
      id,
      checkout,
      task,
      result: unready ? { ...result, ...unready } : result,
      commit: unready === undefined,
      model,
      transcript,
      redact,
      branch: flags.branch,
      continueOn,
      budgets,
      ...(sandbox.kind === 'isolated'
        ? { commandNetwork: () => networkSummaryLine(sandbox.network.policy, sandbox.network.refused()) }
        : {}),
    });
  } finally {
    timeline.close();
    interrupt.dispose();
    await mcp?.close();
    if (sandbox.kind === 'isolated') {
      await sandbox
        .dispose()
        .catch((err: Error) =>
          io.stderr.write(`patchloop: the sandbox was not taken down: ${err.message}\n`),
        );
    }
  }
};

/** The checkout holding `dir`, refused when it has uncommitted work or `branch` cannot be used. */
async function cleanCheckout(dir: string, branch: string | undefined): Promise<Checkout> {
  const checkout = await openCheckout(dir, {
    identitySource: 'user',
    fallbackIdentity: FALLBACK_AUTHOR,
  }).catch((err: Error) => {
    throw new UsageError(err.message);
  });
  const { dirty } = checkout;
  if (dirty.length > 0) {
    const list = dirty.slice(0, 5).join(', ') + (dirty.length > 5 ? `, … (${dirty.length} in all)` : '');
    throw new UsageError(
      `${checkout.root} has uncommitted changes (${list}); commit or stash them first, so the run's changes stay apart`,
    );
  }
  if (branch !== undefined) {
    if (!(await checkout.repo.isValidBranchName(branch))) {
      throw new UsageError(`--branch "${branch}" is not a valid branch name`);
    }
    if (await checkout.repo.branchExists(branch)) throw new UsageError(`--branch ${branch} already exists`);
  }
  return checkout;
}

function openTranscript(path: string, root: string, redact: Redactor, io: CliIO): TranscriptWriter {
  if (isInside(resolve(path), root)) {
    throw new UsageError(
      `--transcript must be outside the checkout (${root}): nothing of patchloop's own is committed`,
    );
  }
  try {
    return new TranscriptWriter(path, {
      redact,
      onError: (err) =>
        io.stderr.write(
          `patchloop: the transcript stopped being written (${err.message}); the run goes on\n`,
        ),
    });
  } catch (err) {
    throw new UsageError(
      `cannot write the transcript to ${path} (${err instanceof Error ? err.message : String(err)})`,
    );
  }
}

interface Finish {
  io: CliIO;
  /** the run's id (the transcript's session id) */
  id: string;
  checkout: Checkout;
  task: string;
  result: AgentResult;
  model: CliModel;
  transcript: TranscriptWriter;
  redact: Redactor;
  branch: string | undefined;
  /** the earlier session's branch, checked out: the commit goes on top of it */
  continueOn?: string;
  /** false when the workspace's set-up failed: there is nothing to commit, and no git to do it */
  commit: boolean;
  /** the command network line of the summary (policy and refused hosts), read when it is written */
  commandNetwork?: () => string;
  /** the run's budgets, for the summary's next step (which flag to raise) */
  budgets?: RunBudgets;
}

/**
 * Commits the work on the local branch, then ends the run through its delivery plan: the plan is
 * built, recorded in the transcript and applied with no target (src/delivery/apply.ts, through
 * the CLI's host: the summary line, the summary printed, the conclusion); returns the exit status.
 */
async function finish({
  io,
  id,
  checkout,
  task,
  result,
  model,
  transcript,
  redact,
  branch,
  continueOn,
  commit: commitAny,
  commandNetwork,
  budgets,
}: Finish): Promise<number> {
  let commit: LocalCommit | undefined;
  let commitError: string | undefined;
  try {
    commit = commitAny ? await commitWork(checkout, task, result, branch, continueOn) : undefined;
    if (commit) transcript.event('commit', { branch: commit.branch, sha: commit.sha, files: commit.files });
  } catch (err) {
    commitError = `The changes could not be committed: ${err instanceof Error ? err.message : String(err)}`;
    transcript.event('error', { message: commitError });
  }
  const { conclusion, error } = concludeRun({
    result,
    committed: commit !== undefined,
    // (a signal after the loop still ends in a clean exit with the work committed: see watchInterrupts)
    cancelled: result.conclusion === 'cancelled',
    failures: [commitError],
  });
  const summary: RunSummaryInput = {
    conclusion,
    models: result.models.length > 0 ? result.models : [model.provider.model],
    turns: result.turns,
    durationMs: result.durationMs,
    usage: result.usage,
    changedFiles: commit?.files ?? [],
    toolLog: toolLogFromMessages(result.messages),
    transcriptLocation: transcript.path,
    ...(commit ? { branch: commit.branch, commitSha: commit.sha } : {}),
    ...(error ? { error } : {}),
    ...(result.finalText ? { finalMessage: result.finalText } : {}),
    notices: [model.scripted, commit?.leftOut].filter((n): n is string => !!n),
    ...(commandNetwork ? { commandNetwork: commandNetwork() } : {}),
    ...(result.tests ? { tests: result.tests } : {}),
    next: {
      surface: 'cli',
      transcriptPath: transcript.path,
      ...(commitError ? {} : { committed: commit !== undefined }),
      ...(result.budget ? { budget: result.budget } : {}),
      ...(result.failedRequest ? { failedRequest: result.failedRequest } : {}),
      ...budgets,
    },
  };
  const plan = localPlan({
    id,
    root: checkout.root,
    startedFrom: { commit: checkout.head, branch: checkout.branch },
    ...(commit ? { commit: { branch: commit.branch, sha: commit.sha } } : {}),
    summary,
    conclusion,
    transcriptPath: transcript.path,
    redact,
  });
  let ended: RunSummaryInput | undefined;
  let summarised = false;
  const host = cliHost({
    plan,
    transcript,
    redact,
    summaryLine: (end) => {
      summarised = true;
      recordSummary(transcript, {
        conclusion: end.conclusion,
        result,
        durationMs: result.durationMs,
        ...(end.error ? { error: end.error } : {}),
        ...(commit
          ? { branch: commit.branch, commitSha: commit.sha, own: { changedFiles: commit.files } }
          : {}),
      });
    },
    ended: (input) => (ended = input),
    warn: (message) => io.stderr.write(`${message}\n`),
  });
  // the value applied, as it was applied: `patchloop inspect` shows it (as the action records its own)
  transcript.event('delivery-plan', { plan });
  let final: string;
  try {
    final = (await applyPlan(host, plan, undefined)).conclusion;
  } catch (err) {
    // the plan's schema refused it, before apply wrote anything: the run is a failure, said as such
    final = conclusion === 'cancelled' ? conclusion : 'failure';
    const why = `The run's delivery plan could not be applied: ${err instanceof Error ? err.message : String(err)}`;
    if (!summarised)
      recordSummary(transcript, { conclusion: final, result, durationMs: result.durationMs, error: why });
    ended = { ...summary, conclusion: final, error: [summary.error, why].filter(Boolean).join(' ') };
  }
  if (ended) io.stdout.write(renderSummaryText(ended, { redact }));
  // The commit leaves the checkout on its branch; without one it is where it was (or on the continued one).
  const onBranch = commit?.branch ?? checkout.branch;
  io.stdout.write(`${finalLine(final, onBranch, useColour(io.stdout, io.env))}\n`);
  return EXIT[final] ?? 1;
}

interface LocalCommit {
  branch: string;
  sha: string;
  files: ChangedFile[];
  /** what was not committed and why, for the summary */
  leftOut?: string;
}

async function commitWork(
  checkout: Checkout,
  task: string,
  result: AgentResult,
  branch: string | undefined,
  continueOn?: string,
): Promise<LocalCommit | undefined> {
  const repo = checkout.repo;
  const name = continueOn ?? branch ?? (await repo.unusedBranchName(defaultBranchName(task, new Date())));
  const title = task.split('\n')[0]!.trim();
  // as the run will be concluded with this commit made (tests red at the end: a failure)
  const outcome = concludeRun({ result, committed: true, cancelled: result.conclusion === 'cancelled' });
  const message = [
    `patchloop: ${title.length > 60 ? `${title.slice(0, 59)}…` : title}`,
    '',
    task.length > 2000 ? `${task.slice(0, 2000)}…` : task,
    '',
    `Outcome: ${outcome.conclusion}${outcome.error ? ` (${outcome.error})` : ''}`,
    `Model: ${result.models.join(', ') || 'none'}; turns: ${result.turns}`,
  ].join('\n');
  const { commit, leftOut } = await repo.commitChanges(message, continueOn ? {} : { branch: name });
  // The checkout is left on the new branch with the commit (CONTRACT §8).
  if (commit) await repo.writeBack();
  await repo.dispose().catch(() => undefined);
  if (!commit) return undefined;
  const left = describeLeftOut(leftOut);
  return { branch: name, sha: commit.sha, files: commit.files, ...(left ? { leftOut: left } : {}) };
}

interface EarlierSession {
  path: string;
  session: SessionLine;
  messages: Message[];
  /** the line of each message in the file */
  rows: RecordedLine[];
  /** the branch the session left its work on */
  branch?: string;
}

/** The recorded session `--continue` names; a file that holds none is a usage error. */
function readEarlierSession(path: string): EarlierSession {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new UsageError(
      `--continue: cannot read ${path} (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const parsed = parseTranscript(bytes);
  if (!parsed.session || parsed.messages.length === 0)
    throw new UsageError(`--continue: ${path} is not a patchloop transcript with a session and its messages`);
  let branch: string | undefined;
  const fromSummary = parsed.summary?.branch;
  if (typeof fromSummary === 'string') branch = fromSummary;
  for (const e of parsed.events)
    if (!branch && e.event === 'commit' && typeof e.branch === 'string') branch = e.branch;
  if (!branch && typeof parsed.session.branch === 'string') branch = parsed.session.branch;
  return {
    path,
    session: parsed.session,
    messages: parsed.messages,
    rows: parsed.messageRows,
    ...(branch ? { branch } : {}),
  };
}
