// The agent phase: the tools (commands only when isolated or allow-unisolated-commands), the
// transcript and its session line, the system prompt with the AGENTS.md that may be trusted, and
// the loop itself, continuing the earlier session when following up.
import * as core from './runner-commands.js';
import { buildSystemPrompt, loadAgentsMd, type AgentEvent, type AgentResult } from '../agent/index.js';
import { chooseAgentsMd } from '../github/context/agents-md.js';
import { renderTaskMessage } from '../github/context/context-render.js';
import { frameUntrusted } from '../github/sanitize.js';
import { TranscriptWriter } from '../protocol/transcript.js';
import type { UserMessage } from '../protocol/types.js';
import type { Provider } from '../providers/types.js';
import { createSessionProvider } from '../providers/session.js';
import { createWorkspaceTools } from '../tools/index.js';
import { filterAllowedTools } from '../tools/allowed.js';
import type { AnyAgentTool } from '../protocol/tool.js';
import { loadMcpConfig, startRunMcp } from './mcp.js';
import { describeNetwork } from '../sandbox/network.js';
import { commandsOffered, runLoop, sessionLine } from '../run/phases.js';
import { createSubmitAnswerTool } from '../tools/submit-answer.js';
import { ProgressBoard } from './progress.js';
import { JoinWatch } from './join.js';
import { reviewTools } from './review.js';
import type { PreparedWork } from './start-up.js';
import { mark, type RunState } from './state.js';

/** The tools of a plan (CONTRACT §13): read the checkout, change nothing, run nothing. */
const PLAN_TOOLS: ReadonlySet<string> = new Set(['read_file', 'grep', 'find_files', 'list_dir']);

/** The primary model and the fallback; throws when a provider cannot be built (no key, …). */
export function sessionProvider(s: RunState): Provider {
  const { inputs } = s;
  return createSessionProvider({
    provider: inputs.provider,
    model: inputs.model,
    apiKey: inputs.apiKey,
    baseUrl: inputs.baseUrl,
    ...(inputs.fallbackModel ? { fallback: inputs.fallbackModel } : {}),
    env: s.env,
  });
}

export async function runAgentPhase(
  s: RunState,
  work: PreparedWork,
  provider: Provider,
  signal: AbortSignal,
): Promise<AgentResult> {
  const { inputs, runner } = s;
  const { sandbox, context, checkout } = work;
  const commands = commandsOffered(sandbox, inputs.allowUnisolatedCommands);
  const allowBash = inputs.allowBash && commands;
  if (sandbox.kind === 'isolated') {
    core.info(`patchloop: ${sandbox.reason}.`);
    core.info(`patchloop: command network (command-network): ${describeNetwork(sandbox.network.policy)}.`);
  } else if (commands) {
    core.warning(
      `patchloop: commands are not isolated (${sandbox.reason}); they run because allow-unisolated-commands is true.`,
    );
  } else {
    s.notice(
      `Tests could not be run: commands cannot be isolated on this runner (${sandbox.reason}), so run_tests${inputs.allowBash ? ' and bash were' : ' was'} not offered. Set allow-unisolated-commands: true to run them anyway.`,
    );
  }

  const builtIn = createWorkspaceTools({
    root: runner.workspace,
    protectedPaths: inputs.protectedPaths,
    testCommand: inputs.testCommand || undefined,
    allowBash,
    commands,
    sandbox: sandbox.kind === 'isolated' ? sandbox.sandbox : undefined,
    commandEnv: { pass: inputs.commandEnv, privateDirs: [runner.runnerTemp, s.dir] },
    artifactsDir: s.outputsDir(),
    env: s.env,
    git: checkout.toolGit(),
  });
  // A review changes nothing: no file writes, no bash (CONTRACT §9). A plan reads only (§13).
  const planning = s.task.intent === 'plan';
  const own =
    s.task.mode === 'review'
      ? reviewTools(s, builtIn, context)
      : planning
        ? builtIn.filter((t) => PLAN_TOOLS.has(t.name))
        : builtIn;
  if (s.answerSchema) own.push(createSubmitAnswerTool(s.answerSchema, (value) => (s.answer = { value })));
  // A plan's tools are the workspace's read-only ones: an MCP server's tools may act elsewhere.
  const mcpServers = planning ? undefined : await loadMcpConfig(s, context.pr);
  const mcp = mcpServers
    ? await startRunMcp(s, mcpServers, {
        commands,
        sandbox: sandbox.kind === 'isolated' ? sandbox.sandbox : undefined,
        commandsReady: work.ready,
      })
    : undefined;
  try {
    return await runWithTools(s, work, provider, signal, [...own, ...(mcp?.tools ?? [])], allowBash);
  } finally {
    // The last turn's group is closed before delivery: the push, the PR and the comment edits
    // that follow belong to no turn.
    s.log.close();
    // what a server wrote on stderr, and its errors in its own words, go to the transcript alone
    if (s.transcript) mcp?.record(s.transcript);
    await mcp?.close();
  }
}

async function runWithTools(
  s: RunState,
  work: PreparedWork,
  provider: Provider,
  signal: AbortSignal,
  offered: AnyAgentTool[],
  allowBash: boolean,
): Promise<AgentResult> {
  const { inputs, task, runner } = s;
  const { sandbox, plan, context } = work;
  const { tools, leftOut } = filterAllowedTools(offered, inputs.allowedTools, [
    'submit_answer',
    'add_review_comment',
    'read_diff',
  ]);
  if (leftOut.length > 0) core.info(`patchloop: allowed-tools leaves out ${leftOut.join(', ')}.`);
  allowBash &&= tools.some((t) => t.name === 'bash');
  const transcript = (s.transcript = new TranscriptWriter(s.transcriptPath, {
    redact: s.redact,
    onError: (err) =>
      core.warning(`patchloop: the transcript could not be written (${err.message}); the run goes on.`),
  }));
  const agents = await chooseAgentsMd(s.github, task, context.pr, loadAgentsMd(runner.workspace));
  if (agents.warning) s.notice(agents.warning);
  const systemPrompt = buildSystemPrompt({
    repository: runner.repository,
    toolNames: tools.map((t) => t.name),
    agentsMd: agents.trusted,
    agentsMdSource: agents.source,
    instructions: inputs.instructions,
    structuredAnswer: s.answerSchema !== undefined,
    ...(task.mode === 'review'
      ? { mode: 'review' as const }
      : task.intent === 'plan'
        ? { mode: 'plan' as const }
        : {}),
  });
  const earlier = s.earlier;
  const continued = earlier?.transcript;
  transcript.session(
    sessionLine(
      {
        id: s.sessionId,
        startedAt: new Date(s.started).toISOString(),
        repository: runner.repository,
        trigger: runner.eventName,
        provider,
        workspace: runner.workspace,
        head: work.baseCommit,
        ...(continued ? { earlierSession: continued.session ?? {} } : {}),
        allowBash,
        isolated: sandbox.kind === 'isolated',
        ...(inputs.testCommand ? { testCommand: inputs.testCommand } : {}),
        systemPrompt,
        tools,
      },
      {
        ...(continued
          ? {
              continues: { runId: earlier.comment.marker.runId, sessionId: earlier.comment.marker.sessionId },
            }
          : {}),
        task: task.kind,
        ...(task.number !== undefined ? { number: task.number } : {}),
        ...(task.requester ? { requester: task.requester.login } : {}),
        runUrl: s.runUrl,
        ...(earlier ? { earlierRunUrl: earlier.runUrl } : {}),
        branch: plan.branch,
        // the PR head the work started from (a follow-up on a fork checks the fork has not moved)
        ...(context.pr?.headSha ? { pullHead: context.pr.headSha } : {}),
        protectedPaths: inputs.protectedPaths,
        // where saved outputs are, for replay's normalisation
        artifactsDir: s.outputsDir(),
      },
    ),
  );

  // A continued transcript goes on with the earlier messages right after its session line
  // (CONTRACT §7), so there this run's own events follow the new request.
  let commentEvent = s.comment ? { id: s.comment.id, url: s.comment.url } : undefined;
  if (commentEvent && !continued) {
    transcript.event('comment', commentEvent);
    commentEvent = undefined;
  }
  // The approval of a plan (CONTRACT §13): who, when, which plan; recorded once the earlier
  // session's messages are in the transcript, before the first turn.
  const approval = s.approval;
  let approvalEvent = approval ? { ...approval } : undefined;
  mark('tools and provider ready');
  const board = new ProgressBoard(s.runUrl, { started: s.started });
  const onEvent = (e: AgentEvent) => {
    if (commentEvent && e.type === 'turn_start') {
      transcript.event('comment', commentEvent);
      commentEvent = undefined;
    }
    if (approvalEvent && e.type === 'turn_start') {
      transcript.event('approval', approvalEvent);
      approvalEvent = undefined;
    }
    s.log.onEvent(e);
    if (s.comment && board.onEvent(e)) s.comment.update(board.render());
  };
  // A re-run of the workflow run (GITHUB_RUN_ATTEMPT > 1) continues its earlier attempt, whose
  // request is the same comment: it is told to carry on, not given the request a second time.
  const rerun = continued !== undefined && earlier?.comment.marker.runId === runner.runId;
  const prompt = rerun
    ? `This workflow run was run again (attempt ${runner.runAttempt}); the conversation above is its earlier attempt, on the same request. Carry on from where it stopped: check what is already done in the checkout, finish the task, and end with a short summary of what you changed.${plan.note ? `\n\n${plan.note}` : ''}`
    : renderTaskMessage(task, context, {
        workNote: plan.note,
        requesterLevel: s.requesterLevel,
        contributedAgentsMd: agents.contributed,
      });
  const preamble = earlier?.fallback
    ? `An earlier patchloop run worked on this (${earlier.runUrl}); its transcript could not be had, so here is its summary:\n\n` +
      `${frameUntrusted('the earlier run’s summary comment', earlier.fallback.summary)}\n\n`
    : continued && !rerun
      ? `A new request on the same ${task.isPullRequest ? 'pull request' : 'issue'}; the conversation above is the earlier session.\n\n`
      : '';
  const approved = approval
    ? `@${approval.by} approved the plan above (${approval.at}). Carry it out now with your tools: make the changes, run the tests, and end with a short summary of what you changed and how the tests went.\n\n`
    : '';
  return runLoop({
    provider,
    tools,
    systemPrompt,
    task: withPreamble(prompt, `${preamble}${approved}`),
    ...(continued
      ? {
          earlier: {
            messages: continued.messages,
            rows: continued.rows,
            event: {
              runId: earlier.comment.marker.runId,
              sessionId: earlier.comment.marker.sessionId,
              runUrl: earlier.runUrl,
            },
          },
        }
      : {}),
    budgets: {
      maxTurns: inputs.maxTurns,
      ...(inputs.maxCostUsd !== undefined ? { maxCostUsd: inputs.maxCostUsd } : {}),
      timeoutMinutes: inputs.timeoutMinutes,
    },
    signal,
    transcript,
    onEvent,
    toolsReady: work.ready,
    ...(inputs.testCommand ? { testCommand: inputs.testCommand } : {}),
    // requests written while it works join the session (CONTRACT §13)
    ...(s.comment?.marker?.loop === 'working' ? { pendingMessages: new JoinWatch(s).pending } : {}),
  });
}

/** The task with a follow-up's preamble before it; a task message (with images) gets it as its first text. */
function withPreamble(task: string | UserMessage, preamble: string): string | UserMessage {
  if (!preamble) return task;
  if (typeof task === 'string') return `${preamble}${task}`;
  const blocks =
    typeof task.content === 'string' ? [{ type: 'text' as const, text: task.content }] : task.content;
  return { ...task, content: [{ type: 'text', text: preamble }, ...blocks] };
}
