import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSystemPrompt, runAgent, type AgentResult } from '../../src/agent/index.js';
import { createRedactor } from '../../src/protocol/redact.js';
import { TranscriptWriter } from '../../src/protocol/transcript.js';
import type { Provider } from '../../src/providers/types.js';
import { renderSummaryText, toolLogFromMessages } from '../../src/report/summary.js';
import { createWorkspaceTools, type CommandSandbox } from '../../src/tools/index.js';

// One agent run assembled from the real pieces, the way the entry points assemble it: tools on a
// workspace, the loop, a redacting transcript writer, the summary. Used where a test needs
// settings the CLI does not expose (a quick retry policy, a tiny time budget).

export interface HarnessOptions {
  provider: Provider;
  workspace: string;
  transcriptPath: string;
  secrets?: string[];
  testCommand?: string;
  allowBash?: boolean;
  sandbox?: CommandSandbox;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface HarnessRun {
  result: AgentResult;
  transcript: string;
  summary: string;
  writeErrors: string[];
  healthy: boolean;
}

export async function runHarness(o: HarnessOptions): Promise<HarnessRun> {
  const redact = createRedactor(o.secrets ?? []);
  const writeErrors: string[] = [];
  const writer = new TranscriptWriter(o.transcriptPath, {
    redact,
    onError: (e) => writeErrors.push(e.message),
  });
  const tools = createWorkspaceTools({
    root: o.workspace,
    testCommand: o.testCommand,
    allowBash: o.allowBash,
    sandbox: o.sandbox,
    testTimeoutMs: 20_000,
  });
  writer.session({
    id: 'harness',
    startedAt: new Date().toISOString(),
    repository: o.workspace,
    trigger: 'test',
    provider: o.provider.name,
    model: o.provider.model,
  });
  const result = await runAgent({
    provider: o.provider,
    tools,
    systemPrompt: buildSystemPrompt({ repository: 'fixture', toolNames: tools.map((t) => t.name) }),
    task: 'Fix the bug.',
    maxTurns: 6,
    timeoutMs: o.timeoutMs,
    signal: o.signal,
    transcript: writer,
  });
  writer.summary({
    conclusion: result.conclusion,
    usage: result.usage,
    turns: result.turns,
    ...(result.error ? { error: result.error } : {}),
  });
  writer.close();
  const summary = renderSummaryText(
    {
      conclusion: result.conclusion,
      models: result.models,
      turns: result.turns,
      usage: result.usage,
      changedFiles: [],
      toolLog: toolLogFromMessages(result.messages),
      ...(result.error ? { error: result.error } : {}),
    },
    { redact },
  );
  // /dev/full reads as an endless run of zero bytes: only a regular file is read back
  const transcript = statSync(o.transcriptPath).isFile() ? readFileSync(o.transcriptPath, 'utf8') : '';
  return { result, transcript, summary, writeErrors, healthy: writer.healthy };
}

/** A small git checkout with one source file and a failing-then-passing test layout. */
export function makeCheckout(dir: string): string {
  const ws = join(dir, 'repo');
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'src', 'math.js'), 'export const divide = (a, b) => a / b;\n');
  execFileSync('git', ['init', '-q'], { cwd: ws });
  execFileSync('git', ['add', '.'], { cwd: ws });
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init'], { cwd: ws });
  return ws;
}
