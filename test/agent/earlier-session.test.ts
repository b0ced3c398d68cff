// The loop's `earlier` option (following up, `run --continue`): the earlier messages come first,
// as recorded in the transcript and paired for the model, and compaction keeps the new request.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/index.js';
import { pairToolResults } from '../../src/protocol/pairing.js';
import { parseTranscript, TranscriptWriter } from '../../src/protocol/transcript.js';
import type { Message, ToolResultMessage, UserMessage } from '../../src/protocol/types.js';
import { textOf } from '../../src/protocol/types.js';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { pngOf } from '../fakes/png.js';
import { BUGGY_PROJECT, scriptProvider, tempRepo, turn, type TempRepo } from './helpers.js';

let repo: TempRepo;
let out: string;
beforeEach(() => {
  repo = tempRepo(BUGGY_PROJECT);
  out = mkdtempSync(join(tmpdir(), 'patchloop-earlier-'));
});
afterEach(() => {
  repo.cleanup();
  rmSync(out, { recursive: true, force: true });
});

const result = (id: string, text: string): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'read_file',
  content: [{ type: 'text', text }],
  isError: false,
  timestamp: 3,
});

function run(
  earlier: Message[],
  steps: ReturnType<typeof turn>[],
  contextWindow?: number,
  task: string | UserMessage = 'Now also refuse NaN.',
) {
  const provider = scriptProvider(steps, contextWindow ? { contextWindow } : {});
  const path = join(out, 'transcript.jsonl');
  const transcript = new TranscriptWriter(path);
  const done = runAgent({
    provider,
    tools: createWorkspaceTools({ root: repo.root, artifactsDir: out }),
    systemPrompt: 'You are patchloop.',
    task,
    earlier: { messages: earlier, event: { sessionId: 'earlier-1' } },
    maxTurns: 5,
    transcript,
  }).then((r) => {
    transcript.close();
    return r;
  });
  return { provider, done, lines: () => parseTranscript(readFileSync(path, 'utf8')).lines };
}

describe('a loop that continues an earlier session', () => {
  it('records the earlier messages as they were, closes a call they left open, and leaves failed turns out of the request', async () => {
    const earlier: Message[] = [
      { role: 'user', content: 'Fix the divide-by-zero.', timestamp: 1 },
      turn({
        text: 'Reading.',
        calls: [{ id: 'call_read', name: 'read_file', input: { path: 'src/math.js' } }],
      }),
      result('call_read', 'export function divide(a, b) {}'),
      turn({
        stopReason: 'error',
        errorMessage: 'overloaded',
        calls: [{ id: 'call_lost', name: 'list_dir', input: {} }],
      }),
      // The earlier run was killed here: this call never got a result.
      turn({ calls: [{ id: 'call_open', name: 'list_dir', input: {} }] }),
    ];
    const { provider, done, lines } = run(earlier, [turn({ text: 'Done.' })]);
    const r = await done;
    expect(r.conclusion).toBe('success');
    // The result keeps only this session's messages.
    expect(r.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    const recorded = lines();
    expect(recorded.slice(0, earlier.length).map((l) => (l.type === 'message' ? l.message : l))).toEqual(
      earlier,
    );
    const closed = recorded[earlier.length];
    expect(closed).toMatchObject({
      type: 'message',
      message: { role: 'toolResult', toolCallId: 'call_open', isError: true },
    });
    expect(recorded[earlier.length + 1]).toMatchObject({
      type: 'event',
      event: 'continue',
      sessionId: 'earlier-1',
      earlierMessages: earlier.length,
    });
    expect(recorded[earlier.length + 2]).toMatchObject({
      type: 'message',
      message: { role: 'user', content: 'Now also refuse NaN.' },
    });

    const sent = provider.requests[0]!.messages;
    expect(JSON.stringify(sent)).not.toContain('call_lost');
    expect(pairToolResults(sent)).toEqual(sent);
    expect(sent.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'assistant',
      'toolResult',
      'user',
    ]);
    expect(textOf(sent.at(-1)!.content)).toBe('Now also refuse NaN.');
  });

  it('compacts an earlier part that does not fit, keeping the earlier task and the new request', async () => {
    const big = 'x'.repeat(4000);
    const earlier: Message[] = [{ role: 'user', content: 'Fix the divide-by-zero.', timestamp: 1 }];
    for (let i = 0; i < 6; i++) {
      earlier.push(turn({ calls: [{ id: `call_${i}`, name: 'read_file', input: { path: 'src/math.js' } }] }));
      earlier.push(result(`call_${i}`, big));
    }
    earlier.push(turn({ text: 'Fixed.' }));
    const { provider, done, lines } = run(earlier, [turn({ text: 'Done.' })], 4000);
    expect((await done).conclusion).toBe('success');
    expect(lines().some((l) => l.type === 'event' && l.event === 'compaction')).toBe(true);
    const sent = provider.requests[0]!.messages;
    expect(sent.length).toBeLessThan(earlier.length + 1);
    expect(pairToolResults(sent)).toEqual(sent);
    const first = textOf(sent[0]!.content);
    expect(first).toContain('Fix the divide-by-zero.');
    expect(first).toContain('Now also refuse NaN.');
    expect(first).toContain('[Context note]');
  });

  it('keeps the images of the new request, after its text, in the task that compaction keeps', async () => {
    const big = 'x'.repeat(4000);
    const earlier: Message[] = [{ role: 'user', content: 'Fix the divide-by-zero.', timestamp: 1 }];
    for (let i = 0; i < 6; i++) {
      earlier.push(turn({ calls: [{ id: `call_${i}`, name: 'read_file', input: { path: 'src/math.js' } }] }));
      earlier.push(result(`call_${i}`, big));
    }
    earlier.push(turn({ text: 'Fixed.' }));
    const screenshot = pngOf(4, 4, 7).toString('base64');
    const request: UserMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'It still fails, see: [image 1]' },
        { type: 'image', data: screenshot, mimeType: 'image/png' },
        { type: 'text', text: ' after the reload.' },
      ],
      timestamp: 5,
    };
    const { provider, done, lines } = run(earlier, [turn({ text: 'Done.' })], 8000, request);
    expect((await done).conclusion).toBe('success');
    expect(lines().some((l) => l.type === 'event' && l.event === 'compaction')).toBe(true);
    const first = provider.requests[0]!.messages[0]!;
    expect(first.role).toBe('user');
    const content = first.content as Exclude<UserMessage['content'], string>;
    const at = content.findIndex((c) => c.type === 'text' && c.text.includes('[The request this session'));
    expect(at).toBeGreaterThan(0);
    expect(content[at]).toEqual({
      type: 'text',
      text: '\n\n[The request this session continues with]\nIt still fails, see: [image 1]',
    });
    expect(content[at + 1]).toEqual({ type: 'image', data: screenshot, mimeType: 'image/png' });
    expect(content[at + 2]).toEqual({ type: 'text', text: ' after the reload.' });
    expect(textOf(content.slice(0, at))).toBe('Fix the divide-by-zero.');
  });
});
