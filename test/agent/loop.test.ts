// The agent loop with a scripted model (test/agent/helpers.ts) and the real workspace tools on
// real temporary git repositories.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/agent/index.js';
import { runAgent, type AgentOptions } from '../../src/agent/index.js';
import { pairToolResults } from '../../src/protocol/pairing.js';
import { parseTranscript, TranscriptWriter } from '../../src/protocol/transcript.js';
import type { AssistantMessage, Message, ToolResultMessage, UserMessage } from '../../src/protocol/types.js';
import { textOf, toolCallsOf } from '../../src/protocol/types.js';
import { createFallbackProvider } from '../../src/providers/fallback.js';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { BUGGY_PROJECT, DIVIDE_FIX, scriptProvider, tempRepo, turn, type TempRepo } from './helpers.js';

let repo: TempRepo;
let out: string;

beforeEach(() => {
  repo = tempRepo(BUGGY_PROJECT);
  out = mkdtempSync(join(tmpdir(), 'patchloop-loop-'));
});
afterEach(() => {
  repo.cleanup();
  rmSync(out, { recursive: true, force: true });
});

function setup(steps: AssistantMessage[], extra: Partial<AgentOptions> & { testCommand?: string } = {}) {
  const { testCommand = 'node --test', ...rest } = extra;
  const provider = scriptProvider(steps);
  const transcript = new TranscriptWriter(join(out, 'transcript.jsonl'));
  const events: AgentEvent[] = [];
  const options: AgentOptions = {
    provider: rest.provider ?? provider,
    tools: createWorkspaceTools({ root: repo.root, testCommand, artifactsDir: out }),
    systemPrompt: 'You are patchloop.',
    task: 'Fix the divide-by-zero in src/math.js',
    maxTurns: 10,
    transcript,
    onEvent: (e) => events.push(e),
    ...rest,
  };
  const transcriptLines = () => {
    transcript.close();
    return parseTranscript(readFileSync(transcript.path, 'utf8'));
  };
  return { provider, options, events, transcriptLines };
}

function results(messages: Message[]): ToolResultMessage[] {
  return messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
}

/** Every call is followed by exactly one result, in order, with nothing synthesised or dropped. */
function expectPaired(messages: Message[]): void {
  expect(pairToolResults(messages)).toEqual(messages);
  const calls = messages.flatMap((m) => (m.role === 'assistant' ? toolCallsOf(m).map((c) => c.id) : []));
  expect(results(messages).map((r) => r.toolCallId)).toEqual(calls);
}

const text = (r: ToolResultMessage | undefined) => textOf(r?.content ?? []);

describe('the agent loop', () => {
  it('fixes a bug over several turns with real tools, and records every message in the transcript', async () => {
    const { provider, options, events, transcriptLines } = setup([
      turn({
        text: 'Reading the code and its test.',
        calls: [
          { name: 'read_file', input: { path: 'src/math.js' } },
          { name: 'read_file', input: { path: 'test/math.test.js' } },
        ],
      }),
      turn({ calls: [{ name: 'run_tests', input: {} }] }),
      turn({ calls: [{ name: 'edit_file', input: { path: 'src/math.js', ...DIVIDE_FIX } }] }),
      turn({ calls: [{ name: 'run_tests', input: {} }] }),
      turn({ text: 'divide() now throws a RangeError for a zero divisor; the tests pass.' }),
    ]);
    const result = await runAgent(options);

    expect(result.conclusion).toBe('success');
    expect(result.turns).toBe(5);
    expect(result.finalText).toBe('divide() now throws a RangeError for a zero divisor; the tests pass.');
    expect(readFileSync(join(repo.root, 'src/math.js'), 'utf8')).toContain(
      "throw new RangeError('division by zero')",
    );
    const r = results(result.messages);
    expect(r.map((x) => [x.toolName, x.isError])).toEqual([
      ['read_file', false],
      ['read_file', false],
      ['run_tests', true],
      ['edit_file', false],
      ['run_tests', false],
    ]);
    expect(text(r[0])).toContain('return a / b;');
    expectPaired(result.messages);

    // the two reads ran side by side: both started before either ended
    const kinds = events.filter((e) => e.type === 'tool_start' || e.type === 'tool_end').map((e) => e.type);
    expect(kinds.slice(0, 4)).toEqual(['tool_start', 'tool_start', 'tool_end', 'tool_end']);

    // the model saw each result in the next request
    expect(provider.requests).toHaveLength(5);
    expect(provider.requests[3]!.messages.at(-1)).toMatchObject({
      role: 'toolResult',
      toolName: 'edit_file',
      isError: false,
    });
    expect(provider.requests[0]!.tools.map((t) => t.name)).toContain('edit_file');
    expect(provider.requests[0]!.systemPrompt).toBe('You are patchloop.');

    const parsed = transcriptLines();
    expect(parsed.messages).toEqual(result.messages);
    expect(parsed.invalid).toEqual([]);
  });

  it('answers a malformed call with an error the model can act on, then runs the corrected call', async () => {
    const { provider, options } = setup([
      turn({ calls: [{ name: 'read_file', input: '{"path": "src/ma' }] }),
      turn({ calls: [{ name: 'read_file', input: {} }] }),
      turn({ calls: [{ name: 'read_file', input: { path: 'src/math.js' } }] }),
      turn({ text: 'Read it.' }),
    ]);
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    const [bad, missing, good] = results(result.messages);
    expect(bad!.isError).toBe(true);
    expect(text(bad)).toMatch(/not valid JSON/);
    expect(missing!.isError).toBe(true);
    expect(text(missing)).toContain('path');
    expect(good!.isError).toBe(false);
    expect(provider.requests[1]!.messages.at(-1)).toEqual(bad);
    expect(provider.requests[2]!.messages.at(-1)).toEqual(missing);
    expectPaired(result.messages);
  });

  it('answers an unknown tool with an error listing the real ones', async () => {
    const { options } = setup([
      turn({ calls: [{ name: 'delete_everything', input: {} }] }),
      turn({ text: 'ok' }),
    ]);
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    const [r] = results(result.messages);
    expect(r!.isError).toBe(true);
    expect(text(r)).toMatch(/Unknown tool "delete_everything".*read_file/);
  });

  it('gives the requests that joined the session to the model before its next turn, recorded after a joined event', async () => {
    const asks: boolean[] = [];
    const waiting: string[] = [];
    const pendingMessages: AgentOptions['pendingMessages'] = ({ final }) => {
      asks.push(final);
      const taken = waiting.splice(0).map((text, i) => ({
        message: { role: 'user' as const, content: text, timestamp: 1 },
        event: { commentId: 100 + i, author: 'bob' },
      }));
      return Promise.resolve(taken);
    };
    const steps = [
      turn({ text: 'Reading.', calls: [{ name: 'list_dir', input: {} }] }),
      turn({ text: 'Done.' }),
      turn({ text: 'Also done.' }),
    ];
    const { provider, options, transcriptLines } = setup(steps, { pendingMessages });
    // bob asks while the first turn runs; then again while the model writes what would be its last reply
    const first = provider.stream.bind(provider);
    let n = 0;
    provider.stream = (ctx, o) => {
      if (n === 0) waiting.push('@bob (while you were working): also X');
      if (n === 1) waiting.push('@bob (while you were working): and Y');
      n++;
      return first(ctx, o);
    };
    const result = await runAgent(options);
    expect(result).toMatchObject({ conclusion: 'success', turns: 3, finalText: 'Also done.' });
    // asked before each turn, and once more each time a reply without calls would have ended the run
    expect(asks).toEqual([false, false, true, false, true]);
    const lastOf = (i: number) => JSON.stringify(provider.requests[i]!.messages.at(-1));
    expect(JSON.stringify(provider.requests[0]!.messages)).not.toContain('also X');
    expect(lastOf(1)).toContain('also X');
    expect(lastOf(2)).toContain('and Y');
    const lines = transcriptLines().lines;
    const joined = lines.flatMap((l, i) => (l.type === 'event' && l.event === 'joined' ? [i] : []));
    expect(joined).toHaveLength(2);
    for (const i of joined)
      expect(lines[i + 1]).toMatchObject({ type: 'message', message: { role: 'user' } });
    expect(lines[joined[0]!]).toMatchObject({ commentId: 100, author: 'bob', turn: 2 });
    expectPaired(result.messages);
  });

  it('goes on without the requests when asking for them fails', async () => {
    const { options } = setup([turn({ text: 'Done.' })], {
      pendingMessages: () => Promise.reject(new Error('GitHub is down')),
    });
    const result = await runAgent(options);
    expect(result).toMatchObject({ conclusion: 'success', turns: 1, finalText: 'Done.' });
  });

  it('stops at max-turns without another request, every call answered', async () => {
    const endless = Array.from({ length: 10 }, () => turn({ calls: [{ name: 'list_dir', input: {} }] }));
    const { provider, options, transcriptLines } = setup(endless, { maxTurns: 3 });
    const result = await runAgent(options);
    expect(result).toMatchObject({ conclusion: 'budget-exceeded', budget: 'turns', turns: 3 });
    expect(provider.requests).toHaveLength(3);
    expect(results(result.messages)).toHaveLength(3);
    expectPaired(result.messages);
    expect(transcriptLines().events).toContainEqual(
      expect.objectContaining({ event: 'budget', budget: 'turns', limit: 3 }),
    );
  });

  it('stops before a turn that would pass the cost budget', async () => {
    const costly = (costUsd: number) =>
      turn({
        calls: [{ name: 'list_dir', input: {} }],
        usage: { inputTokens: 1000, outputTokens: 10, costUsd },
      });
    const { provider, options } = setup([costly(0.04), costly(0.04), costly(0.04), costly(0.04)], {
      maxCostUsd: 0.1,
    });
    const result = await runAgent(options);
    expect(result).toMatchObject({ conclusion: 'budget-exceeded', budget: 'cost', turns: 2 });
    expect(provider.requests).toHaveLength(2);
    expect(result.usage.costUsd).toBeCloseTo(0.08);
  });

  it('asks the model to continue after a reply cut at the output limit', async () => {
    const { provider, options, transcriptLines } = setup([
      turn({ text: 'I will now explain at great length', stopReason: 'length' }),
      turn({
        calls: [{ name: 'edit_file', input: '{"path":"src/math.js","oldText":"ret' }],
        stopReason: 'length',
      }),
      turn({ text: 'Done.' }),
    ]);
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    const second = provider.requests[1]!.messages.at(-1) as UserMessage;
    expect(second.role).toBe('user');
    expect(textOf(second.content)).toMatch(/cut off at the output token limit/);
    // the cut call got its error result, then the nudge
    const third = provider.requests[2]!.messages.slice(-2);
    expect(third[0]).toMatchObject({ role: 'toolResult', isError: true });
    expect(third[1]).toMatchObject({ role: 'user' });
    expect(transcriptLines().events.filter((e) => e.event === 'continue')).toHaveLength(2);
  });

  it('gives up when every reply is cut at the output limit', async () => {
    const cut = () => turn({ text: 'and so', stopReason: 'length' });
    const { provider, options } = setup([cut(), cut(), cut(), cut()]);
    const result = await runAgent(options);
    expect(result.conclusion).toBe('failure');
    expect(result.error).toMatch(/output token limit 3 times/);
    expect(provider.requests).toHaveLength(3);
  });

  it('continues on the fallback model when the primary fails after its retries', async () => {
    const primary = scriptProvider(
      [turn({ stopReason: 'error', errorMessage: 'HTTP 529 overloaded_error', errorKind: 'overloaded' })],
      { model: 'primary-model' },
    );
    const backup = scriptProvider(
      [
        turn({ calls: [{ name: 'edit_file', input: { path: 'src/math.js', ...DIVIDE_FIX } }] }),
        turn({ text: 'Fixed.' }),
      ],
      { model: 'backup-model' },
    );
    const { options, transcriptLines } = setup([], { provider: createFallbackProvider(primary, backup) });
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(result.models).toEqual(['backup-model']);
    expect(readFileSync(join(repo.root, 'src/math.js'), 'utf8')).toContain('RangeError');
    expect(transcriptLines().events).toContainEqual(expect.objectContaining({ event: 'fallback' }));
    expect(backup.requests[0]!.messages).toHaveLength(1);
  });

  it('ends as failure with the reason when the provider fails and there is no fallback', async () => {
    const { options, transcriptLines } = setup([
      turn({
        stopReason: 'error',
        errorMessage: 'HTTP 401: invalid x-api-key',
        errorKind: 'auth',
        calls: [{ name: 'list_dir', input: {} }],
      }),
    ]);
    const result = await runAgent(options);
    expect(result).toMatchObject({ conclusion: 'failure', error: 'HTTP 401: invalid x-api-key' });
    // the call of the failed turn is closed with an error result and never ran
    const [r] = results(result.messages);
    expect(r!.isError).toBe(true);
    expect(text(r)).toMatch(/not run.*HTTP 401/);
    expectPaired(result.messages);
    expect(transcriptLines().events).toContainEqual(
      expect.objectContaining({ event: 'error', errorKind: 'auth' }),
    );
  });

  it('compacts and retries once after a context-length error', async () => {
    const read = (path: string) => turn({ calls: [{ name: 'read_file', input: { path } }] });
    const { provider, options, transcriptLines } = setup([
      read('src/math.js'),
      read('test/math.test.js'),
      read('package.json'),
      turn({ stopReason: 'error', errorKind: 'context_length', errorMessage: 'prompt is too long' }),
      turn({ text: 'Done.' }),
    ]);
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    const before = provider.requests[3]!.messages;
    const after = provider.requests[4]!.messages;
    expect(after.length).toBeLessThan(before.length);
    expect(textOf((after[0] as UserMessage).content)).toContain('read_file {"path":"src/math.js"} → ok');
    expect(pairToolResults(after)).toEqual(after);
    expect(transcriptLines().events).toContainEqual(
      expect.objectContaining({ event: 'compaction', reason: 'context_length' }),
    );
    // the record keeps everything, including the failed turn
    expect(result.messages.filter((m) => m.role === 'assistant')).toHaveLength(5);
  });

  it('compacts before a request once the context nears the window', async () => {
    const read = (path: string) =>
      turn({
        calls: [{ name: 'read_file', input: { path } }],
        usage: { inputTokens: 900, outputTokens: 20 },
      });
    const { provider, options, events } = setup(
      [read('src/math.js'), read('test/math.test.js'), read('package.json'), turn({ text: 'Done.' })],
      { contextWindow: 1000 },
    );
    const result = await runAgent(options);
    expect(result.conclusion).toBe('success');
    expect(events.some((e) => e.type === 'compaction' && e.reason === 'threshold')).toBe(true);
    const last = provider.requests.at(-1)!.messages;
    expect(last[0]!.role).toBe('user');
    expect(last[1]!.role).toBe('assistant');
    expect(pairToolResults(last)).toEqual(last);
  });

  it('cancels a running tool on abort and closes the call with a result', async () => {
    const controller = new AbortController();
    const { options, transcriptLines } = setup(
      [
        turn({
          calls: [
            { name: 'run_tests', input: {} },
            { name: 'list_dir', input: {} },
          ],
        }),
        turn({ text: 'never' }),
      ],
      {
        testCommand: 'sleep 30',
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'tool_start' && e.call.name === 'run_tests')
            setTimeout(() => controller.abort(), 100);
        },
      },
    );
    const result = await runAgent(options);
    expect(result.conclusion).toBe('cancelled');
    const [tests, list] = results(result.messages);
    expect(tests!.isError).toBe(true);
    expect(text(tests)).toMatch(/Cancelled/);
    expect(list!.isError).toBe(true);
    expect(text(list)).toMatch(/not run/);
    expectPaired(result.messages);
    expect(transcriptLines().events).toContainEqual(expect.objectContaining({ event: 'cancel' }));
  });

  it('ends as budget-exceeded when the time budget runs out mid-tool', async () => {
    const { options } = setup(
      [turn({ calls: [{ name: 'run_tests', input: {} }] }), turn({ text: 'never' })],
      {
        testCommand: 'sleep 30',
        timeoutMs: 300,
      },
    );
    const result = await runAgent(options);
    expect(result).toMatchObject({ conclusion: 'budget-exceeded', budget: 'time', turns: 1 });
    // the budget in the duration style of every surface, not "0 s"
    expect(result.error).toMatch(/^Stopped after .+: the time budget \(300 ms\) ran out\.$/);
    expectPaired(result.messages);
  });

  it('makes no request when cancelled before it starts', async () => {
    const controller = new AbortController();
    controller.abort();
    const { provider, options } = setup([turn({ text: 'never' })], { signal: controller.signal });
    const result = await runAgent(options);
    expect(result).toMatchObject({ conclusion: 'cancelled', turns: 0 });
    expect(provider.requests).toHaveLength(0);
  });

  it('runs every call of a turn that repeats an id, each with its own result', async () => {
    const { options, transcriptLines } = setup([
      turn({
        calls: [
          { name: 'read_file', input: { path: 'src/math.js' }, id: 'same' },
          { name: 'read_file', input: { path: 'package.json' }, id: 'same' },
        ],
      }),
      turn({ text: 'ok' }),
    ]);
    const result = await runAgent(options);
    const [first, second] = results(result.messages);
    expect(results(result.messages)).toHaveLength(2);
    expect(text(first)).toContain('divide');
    expect(text(second)).toContain('"name": "calc"');
    expectPaired(result.messages);
    expect(transcriptLines().messages).toEqual(result.messages);
  });
  describe('tools that wait for the workspace set-up (toolsReady)', () => {
    it('asks the model at once, runs no call before the set-up is done, then runs it', async () => {
      let done!: () => void;
      const toolsReady = new Promise<void>((resolve) => (done = resolve));
      const ran: string[] = [];
      const { provider, options } = setup(
        [turn({ calls: [{ name: 'read_file', input: { path: 'src/math.js' } }] }), turn({ text: 'ok' })],
        { toolsReady, onEvent: (e) => e.type === 'tool_start' && ran.push(e.call.name) },
      );
      const running = runAgent(options);
      // the first request goes out and its call is waiting; nothing has run
      await vi.waitFor(() => expect(provider.requests).toHaveLength(1));
      await new Promise((r) => setTimeout(r, 50));
      expect(ran).toEqual([]);
      expect(provider.requests).toHaveLength(1);
      done();
      const result = await running;
      expect(result.conclusion).toBe('success');
      expect(ran).toEqual(['read_file']);
      expect(text(results(result.messages)[0])).toContain('divide');
      expectPaired(result.messages);
    });

    it('ends as failure when the set-up fails: no call runs, each is answered with the reason', async () => {
      const { provider, options, transcriptLines } = setup(
        [
          turn({
            calls: [
              { name: 'run_tests', input: {} },
              { name: 'write_file', input: { path: 'pwned.txt', content: 'x' } },
            ],
          }),
          turn({ text: 'never asked' }),
        ],
        { toolsReady: Promise.reject(new Error('the sandbox self-check failed: env-secret-visible')) },
      );
      const result = await runAgent(options);
      expect(result.conclusion).toBe('failure');
      expect(result.error).toContain('self-check failed');
      expect(provider.requests).toHaveLength(1);
      const answered = results(result.messages);
      expect(answered).toHaveLength(2);
      for (const r of answered) {
        expect(r.isError).toBe(true);
        expect(text(r)).toMatch(/^Tool call not run: the sandbox self-check failed/);
      }
      expect(existsSync(join(repo.root, 'pwned.txt'))).toBe(false);
      expectPaired(result.messages);
      expect(transcriptLines().messages).toEqual(result.messages);
    });

    it('a run cancelled while its calls wait for the set-up ends cancelled, every call answered', async () => {
      const controller = new AbortController();
      const { options } = setup([turn({ calls: [{ name: 'read_file', input: { path: 'src/math.js' } }] })], {
        toolsReady: new Promise<void>(() => undefined),
        signal: controller.signal,
        onEvent: (e) => e.type === 'turn_end' && setTimeout(() => controller.abort(), 20),
      });
      const result = await runAgent(options);
      expect(result.conclusion).toBe('cancelled');
      expect(results(result.messages)).toHaveLength(1);
      expect(results(result.messages)[0]!.isError).toBe(true);
      expectPaired(result.messages);
    });

    it('a reply without calls ends the run without waiting for the set-up', async () => {
      const { options } = setup([turn({ text: 'nothing to do' })], {
        toolsReady: new Promise<void>(() => undefined),
      });
      const result = await runAgent(options);
      expect(result.conclusion).toBe('success');
    });
  });
});
