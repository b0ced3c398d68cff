import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { buildSystemPrompt, loadAgentsMd, runAgent, type AgentResult } from '../agent/index.js';
import {
  commitToNewBranch,
  defaultBranchName,
  dirtyPaths,
  isValidBranchName,
  openCheckout,
  branchExists,
  unusedBranchName,
  type Checkout,
  type LocalCommit,
} from '../git/local.js';
import { createRedactor, secretsFromEnv } from '../protocol/redact.js';
import { parseTranscript, TranscriptWriter } from '../protocol/transcript.js';
import { textOf, type Usage } from '../protocol/types.js';
import {
  createFallbackProvider,
  createProvider,
  createScriptedProvider,
  parseFallbackSpec,
  scriptFromTranscript,
} from '../providers/index.js';
import { PROVIDER_NAMES, type Provider, type ProviderName } from '../providers/types.js';
import { normalizeUsage } from '../report/normalize.js';
import { renderSummaryText, toolLogFromMessages } from '../report/summary.js';
import { createWorkspaceTools } from '../tools/index.js';
import { parseFlags, positiveInt, positiveNumber } from './args.js';
import { watchInterrupts } from './interrupt.js';
import { UsageError, type CliCommand, type CliIO } from './io.js';
import { createTimeline } from './timeline.js';

export const RUN_USAGE = `Usage: patchloop run [options] "task"

Runs the agent on a local git checkout and commits its changes to a new local branch.
The live timeline goes to stderr; the summary and the transcript path to stdout.

Options:
  --repo DIR              the checkout (default: the current folder)
  --provider P            ${PROVIDER_NAMES.join(', ')} (default: anthropic)
  --model M               model id (default: the provider's default)
  --base-url U            provider base URL (proxies, gateways, local servers)
  --api-key K             provider key (default: ANTHROPIC_API_KEY / OPENAI_API_KEY / GEMINI_API_KEY)
  --fallback-model P:M    continue on this model when the primary fails after its retries
  --max-turns N           assistant turns (default: 40)
  --max-cost-usd X        stop before the estimated cost passes X
  --timeout-minutes N     wall-clock budget (default: 30)
  --test-command C        what run_tests runs (default: detected)
  --allow-bash            also offer the bash tool
  --instructions TEXT     appended to the system prompt
  --branch B              branch for the commit (default: patchloop/<task>-<time>)
  --transcript FILE       where the JSONL transcript goes (default: the system temp folder)
  --replay FILE.jsonl     use a recorded transcript's assistant messages as the model (no network);
                          the task defaults to the recorded one

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
  instructions: 'string',
  branch: 'string',
  transcript: 'string',
  replay: 'string',
  help: 'boolean',
} as const;

const EXIT: Record<string, number> = {
  success: 0,
  'no-changes': 0,
  failure: 1,
  'budget-exceeded': 1,
  cancelled: 130,
};

const FALLBACK_AUTHOR = { name: 'patchloop', email: 'patchloop@users.noreply.github.com' };

interface Model {
  provider: Provider;
  /** Set for --replay: what the session line says about the scripted model. */
  scripted?: string;
  recordedTask?: string;
}

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
  const providerName = flags.provider ?? 'anthropic';
  if (!(PROVIDER_NAMES as readonly string[]).includes(providerName)) {
    throw new UsageError(`--provider must be one of ${PROVIDER_NAMES.join(', ')}, got "${providerName}"`);
  }

  const checkout = await openCheckout(resolve(io.cwd, flags.repo ?? '.')).catch((err: Error) => {
    throw new UsageError(err.message);
  });
  const dirty = await dirtyPaths(checkout.root);
  if (dirty.length > 0) {
    const list = dirty.slice(0, 5).join(', ') + (dirty.length > 5 ? `, … (${dirty.length} in all)` : '');
    throw new UsageError(
      `${checkout.root} has uncommitted changes (${list}); commit or stash them first, so the run's changes stay apart`,
    );
  }
  if (flags.branch !== undefined) {
    if (!(await isValidBranchName(checkout.root, flags.branch)))
      throw new UsageError(`--branch "${flags.branch}" is not a valid branch name`);
    if (await branchExists(checkout.root, flags.branch))
      throw new UsageError(`--branch ${flags.branch} already exists`);
  }

  const model = loadModel(io, {
    provider: providerName as ProviderName,
    model: flags.model,
    baseUrl: flags['base-url'],
    apiKey: flags['api-key'],
    fallback: flags['fallback-model'],
    replay: flags.replay,
  });
  const task = positionals.join(' ').trim() || model.recordedTask;
  if (!task)
    throw new UsageError('missing the task, e.g. patchloop run "fix the failing test in src/math.js"');

  const id = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}-${randomBytes(3).toString('hex')}`;
  const transcriptPath = flags.transcript
    ? resolve(io.cwd, flags.transcript)
    : join(tmpdir(), 'patchloop', id, 'transcript.jsonl');
  if (isInside(transcriptPath, checkout.root)) {
    throw new UsageError(
      `--transcript must be outside the checkout (${checkout.root}): nothing of patchloop's own is committed`,
    );
  }
  const redact = createRedactor([...(flags['api-key'] ? [flags['api-key']] : []), ...secretsFromEnv(io.env)]);
  const transcript = new TranscriptWriter(transcriptPath, {
    redact,
    onError: (err) =>
      io.stderr.write(`patchloop: the transcript could not be written (${err.message}); the run goes on\n`),
  });

  const allowBash = flags['allow-bash'] === true;
  const testCommand = flags['test-command'];
  const tools = createWorkspaceTools({
    root: checkout.root,
    allowBash,
    testCommand,
    env: io.env,
    artifactsDir: join(transcriptPath, '..'),
  });
  transcript.session({
    id,
    startedAt: new Date().toISOString(),
    repository: checkout.root,
    trigger: 'cli',
    provider: model.provider.name,
    model: model.provider.model,
    workspace: checkout.root,
    baseCommit: checkout.head,
    allowBash,
    ...(testCommand ? { testCommand } : {}),
    ...(model.scripted ? { scripted: true, note: model.scripted } : {}),
  });

  const timeline = createTimeline(io.stderr);
  const interrupt = watchInterrupts();
  let result: AgentResult;
  try {
    result = await runAgent({
      provider: model.provider,
      tools,
      systemPrompt: buildSystemPrompt({
        repository: basename(checkout.root),
        toolNames: tools.map((t) => t.name),
        agentsMd: loadAgentsMd(checkout.root),
        instructions: flags.instructions,
      }),
      task,
      maxTurns,
      maxCostUsd,
      timeoutMs: timeoutMinutes * 60_000,
      signal: interrupt.signal,
      transcript,
      onEvent: (e) => timeline.onEvent(e),
    });
  } finally {
    timeline.close();
  }
  // A signal arriving from here on still exits cleanly, with the summary.

  let commit: LocalCommit | undefined;
  let commitError: string | undefined;
  try {
    commit = await commitWork(checkout, task, result, flags.branch);
    if (commit) transcript.event('commit', { branch: commit.branch, sha: commit.sha, files: commit.files });
  } catch (err) {
    commitError = `The changes could not be committed: ${err instanceof Error ? err.message : String(err)}`;
    transcript.event('error', { message: commitError });
  }
  interrupt.dispose();

  const conclusion =
    result.conclusion === 'success' && !commit && !commitError ? 'no-changes' : result.conclusion;
  const error = [result.error, commitError].filter(Boolean).join(' ');
  transcript.summary({
    conclusion,
    usage: result.usage,
    turns: result.turns,
    models: result.models,
    durationMs: result.durationMs,
    endedAt: new Date().toISOString(),
    ...(error ? { error } : {}),
    ...(result.budget ? { budget: result.budget } : {}),
    ...(commit ? { branch: commit.branch, commitSha: commit.sha, changedFiles: commit.files } : {}),
  });
  transcript.close();

  const summary = renderSummaryText(
    {
      conclusion,
      models: result.models.length > 0 ? result.models : [model.provider.model],
      turns: result.turns,
      durationMs: result.durationMs,
      usage: result.usage,
      changedFiles: commit?.files ?? [],
      toolLog: toolLogFromMessages(result.messages),
      transcriptLocation: transcriptPath,
      ...(commit ? { branch: commit.branch, commitSha: commit.sha } : {}),
      ...(error ? { error } : {}),
      ...(result.finalText ? { finalMessage: result.finalText } : {}),
      ...(model.scripted ? { notices: [model.scripted] } : {}),
    },
    { redact },
  );
  io.stdout.write(summary);
  return commitError ? 1 : (EXIT[conclusion] ?? 1);
};

interface ModelFlags {
  provider: ProviderName;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  fallback?: string;
  replay?: string;
}

function loadModel(io: CliIO, f: ModelFlags): Model {
  if (f.replay) {
    const path = resolve(io.cwd, f.replay);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new UsageError(
        `--replay: cannot read ${path} (${err instanceof Error ? err.message : String(err)})`,
      );
    }
    const script = scriptFromTranscript(text);
    if (script.length === 0) throw new UsageError(`--replay: ${path} holds no assistant messages`);
    const label =
      `Scripted model session: the assistant turns are replayed from ${basename(path)}; no model was called. ` +
      'Token and cost figures are the ones recorded in that file, not spent.';
    const recorded = parseTranscript(text).messages;
    const usages = recorded.flatMap((m) => (m.role === 'assistant' ? [normalizeUsage(m.usage)] : []));
    const first = recorded.find((m) => m.role === 'user');
    return {
      provider: withRecordedUsage(createScriptedProvider(script, { label }), usages),
      scripted: label,
      ...(first ? { recordedTask: textOf(first.content) } : {}),
    };
  }
  try {
    const primary = createProvider({
      provider: f.provider,
      model: f.model,
      apiKey: f.apiKey,
      baseUrl: f.baseUrl,
      env: io.env,
    });
    if (!f.fallback) return { provider: primary };
    const spec = parseFallbackSpec(f.fallback);
    const backup = createProvider({ provider: spec.provider, model: spec.model, env: io.env });
    return { provider: createFallbackProvider(primary, backup) };
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * The scripted provider reports no usage (nothing was spent); a replay shows the figures recorded
 * with each turn instead, so the demo's summary looks like a real run's. The label says so.
 */
function withRecordedUsage(provider: Provider, usages: readonly Usage[]): Provider {
  let turn = 0;
  return {
    name: provider.name,
    model: provider.model,
    async *stream(context, options) {
      const recorded = usages[turn++];
      for await (const e of provider.stream(context, options)) {
        yield e.type === 'done' && recorded && e.message.stopReason !== 'aborted'
          ? { ...e, message: { ...e.message, usage: recorded } }
          : e;
      }
    },
  };
}

async function commitWork(
  checkout: Checkout,
  task: string,
  result: AgentResult,
  branch: string | undefined,
): Promise<LocalCommit | undefined> {
  const name = branch ?? (await unusedBranchName(checkout.root, defaultBranchName(task, new Date())));
  const title = task.split('\n')[0]!.trim();
  const lines = [
    `patchloop: ${title.length > 60 ? `${title.slice(0, 59)}…` : title}`,
    '',
    task.length > 2000 ? `${task.slice(0, 2000)}…` : task,
    '',
    `Outcome: ${result.conclusion}${result.error ? ` (${result.error})` : ''}`,
    `Model: ${result.models.join(', ') || 'none'}; turns: ${result.turns}`,
  ];
  return commitToNewBranch(checkout.root, {
    branch: name,
    message: lines.join('\n'),
    fallbackAuthor: FALLBACK_AUTHOR,
  });
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
