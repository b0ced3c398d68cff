import { describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { createActionsLog, logSettings, neutralizeCommands } from '../../src/action/log.js';
import type { Task } from '../../src/github/context/task.js';
import { runAgent } from '../../src/agent/index.js';
import { createRedactor } from '../../src/protocol/redact.js';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { BUGGY_PROJECT, DIVIDE_FIX, scriptProvider, tempRepo, turn } from '../agent/helpers.js';

// The Actions log from a real agent run: a scripted model, the real tools on a temp repository.

const SECRET = 'sk-ant-test-0123456789abcdefghijklmnop';

async function loggedRun() {
  const repo = tempRepo(BUGGY_PROJECT);
  const lines: string[] = [];
  const log = createActionsLog({
    redact: createRedactor([SECRET]),
    sink: { write: (l) => lines.push(l) },
  });
  try {
    const provider = scriptProvider([
      turn({
        text: `Looking first. My key is ${SECRET}.`,
        calls: [
          { name: 'read_file', input: { path: 'src/math.js' } },
          { name: 'read_file', input: { pth: 'src/math.js' } },
        ],
      }),
      turn({ calls: [{ name: 'run_tests', input: {} }] }),
      turn({ calls: [{ name: 'edit_file', input: { path: 'src/math.js', ...DIVIDE_FIX } }] }),
      turn({ text: 'Fixed: ::add-mask::nothing\n::set-output name=x::y' }),
    ]);
    const result = await runAgent({
      provider,
      tools: createWorkspaceTools({ root: repo.root, testCommand: 'node --test --test-reporter=tap' }),
      systemPrompt: 'You fix bugs.',
      task: 'Fix the divide-by-zero',
      maxTurns: 10,
      onEvent: (e) => log.onEvent(e),
    });
    log.outcome({ ...result, conclusion: result.conclusion, turns: result.turns, usage: result.usage });
    return lines;
  } finally {
    repo.cleanup();
  }
}

describe('the Actions log', () => {
  it('has a group per turn with each tool call, its short arguments and result, and one outcome line', async () => {
    const lines = await loggedRun();
    const groups = lines.filter((l) => l.startsWith('::group::'));
    expect(groups).toEqual([
      '::group::patchloop turn 1 · scripted-model',
      '::group::patchloop turn 2 · scripted-model',
      '::group::patchloop turn 3 · scripted-model',
      '::group::patchloop turn 4 · scripted-model',
    ]);
    // Every group is closed, the outcome line comes after the last one.
    expect(lines.filter((l) => l === '::endgroup::')).toHaveLength(4);
    const last = lines[lines.length - 1]!;
    expect(lines[lines.length - 2]).toBe('::endgroup::');
    expect(last).toMatch(/^patchloop: success · 4 turns · .*input \d+ · output \d+ tokens/);

    const text = lines.join('\n');
    expect(text).toMatch(/ {2}✓ read_file path=src\/math\.js \(\d+ ms\) → /);
    expect(text).toMatch(
      / {2}✗ read_file pth=src\/math\.js \(\d+ ms\) → error: Invalid arguments for read_file: .*"path"/,
    );
    // A failing test run shows how it ended and the failure, not the command line.
    expect(text).toMatch(/ {2}✗ run_tests \(\d+(\.\d)? m?s\) → error: Exit code 1 .*refuses zero/);
    expect(text).toMatch(/ {2}✓ edit_file path=src\/math\.js oldText=.* → /);
    expect(text).toContain('model: toolUse after');
  });

  it('redacts secrets and never lets the model’s text become a workflow command', async () => {
    const lines = await loggedRun();
    const text = lines.join('\n');
    expect(text).not.toContain(SECRET);
    expect(text).toContain('[REDACTED]');
    for (const l of lines) {
      if (l.startsWith('::group::') || l === '::endgroup::') continue;
      expect(l).not.toContain('::');
    }
    expect(text).toContain(':\u200B:add-mask:\u200B:');
  });

  it('redacts a secret that the shortening of a line would cut in two (issue 23)', () => {
    const lines: string[] = [];
    const log = createActionsLog({ redact: createRedactor([SECRET]), sink: { write: (l) => lines.push(l) } });
    // each text is cut (the model's words at 300 characters, a tool's output at 120, an error at
    // 300) right inside the secret
    const at = (n: number) => `${'x'.repeat(n)}${SECRET} tail`;
    log.onEvent({ type: 'turn_start', turn: 1, model: 'a' });
    log.onEvent({
      type: 'turn_end',
      turn: 1,
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: at(290) }],
        provider: 'p',
        model: 'a',
        usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
        stopReason: 'error',
        errorMessage: at(290),
        timestamp: 1,
      },
    } as never);
    log.onEvent({
      type: 'tool_end',
      turn: 1,
      durationMs: 5,
      call: { type: 'toolCall', id: 't1', name: 'bash', input: { command: at(70) } },
      result: {
        role: 'toolResult',
        toolCallId: 't1',
        toolName: 'bash',
        content: [{ type: 'text', text: at(110) }],
        isError: false,
        timestamp: 2,
      },
    } as never);
    // three different errors: each is written (one error is written once, see below)
    log.onEvent({ type: 'error', turn: 1, message: at(289) } as never);
    log.outcome({
      conclusion: 'failure',
      turns: 1,
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
      error: at(288),
    });
    const text = lines.join('\n');
    // not even the secret's first 12 characters
    expect(text).not.toContain(SECRET.slice(0, 12));
    // where it stood, what is left is the start of the replacement
    expect(text.match(/x\[REDAC/g)?.length).toBeGreaterThanOrEqual(4);
  });

  it('logs retries, fallbacks, budgets and errors in the turn’s group', () => {
    const lines: string[] = [];
    const log = createActionsLog({ sink: { write: (l) => lines.push(l) } });
    log.onEvent({ type: 'turn_start', turn: 1, model: 'a' });
    log.onEvent({
      type: 'retry',
      turn: 1,
      attempt: 2,
      delayMs: 1500,
      status: 529,
      errorKind: 'overloaded',
      message: 'Overloaded',
    });
    log.onEvent({
      type: 'fallback',
      turn: 1,
      from: 'anthropic:a',
      to: 'openai:b',
      reason: 'still overloaded',
    });
    log.onEvent({ type: 'budget', budget: 'turns', limit: 1, used: 1 });
    log.outcome({
      conclusion: 'budget-exceeded',
      turns: 1,
      usage: { inputTokens: 5, outputTokens: 6, cacheReadTokens: 0, cacheWriteTokens: 0 },
      error: 'Stopped after 1 turn',
    });
    expect(lines).toEqual([
      '::group::patchloop turn 1 · a',
      '  ↻ retry 2 in 1.5 s (overloaded, HTTP 529): Overloaded',
      '  ⇢ fallback from anthropic:a to openai:b: still overloaded',
      '  ■ the turns budget is used up (1 of 1)',
      '::endgroup::',
      'patchloop: budget-exceeded · 1 turn · input 5 · output 6 tokens · cost unknown · error: Stopped after 1 turn',
    ]);
  });

  it('writes an error once: the failed turn, the run’s error event and the outcome do not repeat it', () => {
    const lines: string[] = [];
    const log = createActionsLog({ sink: { write: (l) => lines.push(l) } });
    const why = '401 authentication_error: invalid x-api-key Check the API key: …';
    const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
    log.onEvent({ type: 'turn_start', turn: 1, model: 'a' });
    log.onEvent({
      type: 'turn_end',
      turn: 1,
      usage,
      message: { role: 'assistant', content: [], usage, stopReason: 'error', errorMessage: why },
    } as never);
    log.onEvent({ type: 'error', message: why });
    log.outcome({ conclusion: 'failure', turns: 1, usage, error: why });
    expect(lines.filter((l) => l.includes('invalid x-api-key'))).toHaveLength(1);
    expect(lines.at(-1)).toBe(
      'patchloop: failure · 1 turn · input 0 · output 0 tokens · cost unknown · the error is above (turn 1)',
    );
    // an error not seen before is written in the outcome line
    const other: string[] = [];
    const log2 = createActionsLog({ sink: { write: (l) => other.push(l) } });
    log2.outcome({ conclusion: 'failure', turns: 0, usage, error: 'The push was refused.' });
    expect(other).toEqual([
      'patchloop: failure · 0 turns · input 0 · output 0 tokens · cost unknown · error: The push was refused.',
    ]);
  });

  it('closes the last turn’s group when the agent is done, before delivery; the outcome opens none', () => {
    const lines: string[] = [];
    const log = createActionsLog({ sink: { write: (l) => lines.push(l) } });
    log.onEvent({ type: 'turn_start', turn: 1, model: 'a' });
    log.close();
    lines.push('(delivery)');
    log.close();
    log.outcome({ conclusion: 'success', turns: 1, usage: { inputTokens: 1234, outputTokens: 5 } as never });
    expect(lines).toEqual([
      '::group::patchloop turn 1 · a',
      '::endgroup::',
      '(delivery)',
      'patchloop: success · 1 turn · input 1234 · output 5 tokens · cost unknown',
    ]);
  });

  it('says why the model was asked to go on, and shows SDK notices', () => {
    const lines: string[] = [];
    const log = createActionsLog({ sink: { write: (l) => lines.push(l) } });
    log.onEvent({ type: 'continue', turn: 2, reason: 'length' });
    log.onEvent({ type: 'continue', turn: 3, reason: 'malformed_call' });
    log.onEvent({ type: 'notice', turn: 3, source: 'openai', message: 'model x is deprecated' });
    expect(lines).toEqual([
      '  ⋯ the reply was cut at the output limit; the model was asked to go on',
      '  ⋯ the model sent a tool call that could not be read; it was told so',
      '  ℹ openai: model x is deprecated',
    ]);
  });

  it('escapes a group title as command data', () => {
    const lines: string[] = [];
    const log = createActionsLog({ sink: { write: (l) => lines.push(l) } });
    log.onEvent({ type: 'turn_start', turn: 1, model: 'm%\n::x' });
    expect(lines[0]).toBe('::group::patchloop turn 1 · m%25 :\u200B:x');
    expect(neutralizeCommands('##[error]x')).toBe('#\u200B#[error]x');
  });

  it('writes the same lines to stdout through the Actions toolkit as to a line sink', () => {
    const events = (log: ReturnType<typeof createActionsLog>) => {
      log.onEvent({ type: 'turn_start', turn: 1, model: 'm%\n::x' });
      log.onEvent({ type: 'notice', turn: 1, source: 'openai', message: 'a ::warning:: inside' });
      log.onEvent({ type: 'turn_start', turn: 2, model: 'm' });
      log.outcome({ conclusion: 'success', turns: 2, usage: { inputTokens: 1, outputTokens: 2 } as never });
    };
    const lines: string[] = [];
    events(createActionsLog({ sink: { write: (l) => lines.push(l) } }));
    const written: string[] = [];
    const original = process.stdout.write;
    process.stdout.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      events(createActionsLog());
    } finally {
      process.stdout.write = original;
    }
    expect(lines.filter((l) => l.startsWith('::group::'))).toHaveLength(2);
    expect(written.join('')).toBe(lines.map((l) => `${l}\n`).join(''));
  });
});

describe('the settings block at the top of the log', () => {
  const inputs = (given: Record<string, string>) => readInputs((name) => given[name] ?? '');
  const task = (request: string): Task =>
    ({
      kind: 'issue',
      event: 'issue_comment',
      owner: 'o',
      repo: 'r',
      number: 7,
      isPullRequest: false,
      trigger: { kind: 'issue-comment', id: 1, body: request, createdAt: '' },
      requester: { login: 'alice' },
      request,
    }) as Task;

  it('names the task, the provider and model, the budgets, the commands, the network and the delivery', () => {
    const lines: string[] = [];
    logSettings(
      inputs({
        'github-token': 't',
        provider: 'openai',
        model: 'gpt-5.5',
        'base-url': 'https://user:pass@gateway.example/v1?key=abc',
        'max-turns': '1500',
        'max-cost-usd': '2.5',
        'timeout-minutes': '90',
        'allow-bash': 'true',
        'command-network': 'registry.npmjs.org',
      }),
      task('/patchloop fix the\nparser'),
      { sink: { write: (l) => lines.push(l) } },
    );
    expect(lines).toEqual([
      'patchloop settings',
      '  task: fix on issue #7, asked by alice: “/patchloop fix the parser”',
      '  provider: openai · model gpt-5.5 · endpoint gateway.example',
      '  budgets: 1,500 turns · at most $2.50 · 1 h 30 min',
      '  commands: run_tests (test command detected) · bash on · isolated as a separate user, or not offered (allow-unisolated-commands: false)',
      '  network: command-network HTTP and HTTPS to registry.npmjs.org only, through patchloop’s proxy',
      '  delivery: branch prefix patchloop/ · draft PR',
    ]);
  });

  it('redacts the request and keeps it from becoming a workflow command', () => {
    const lines: string[] = [];
    logSettings(inputs({ 'github-token': 't' }), task(`::add-mask::x ${SECRET} ##[error]y`), {
      redact: createRedactor([SECRET]),
      sink: { write: (l) => lines.push(l) },
      env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/' },
    });
    const text = lines.join('\n');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('::');
    expect(text).not.toContain('##[');
    expect(text).toContain('endpoint 127.0.0.1:9');
    expect(text).toContain("model claude-sonnet-5-5 (the provider's default)");
  });
});
