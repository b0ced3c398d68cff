import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTranscript, TranscriptWriter } from '../../src/protocol/transcript.js';
import { emptyUsage, type AssistantMessage, type ToolResultMessage } from '../../src/protocol/types.js';

const dirs: string[] = [];
const tempFile = () => {
  const d = mkdtempSync(join(tmpdir(), 'pl-transcript-'));
  dirs.push(d);
  return join(d, 'sub', 'run.jsonl');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// Ids as different providers produce them, including characters other providers reject.
const ids = ['toolu_01A09q90qw90lq917835lq9', 'call_abc|fc_123', `x${'y'.repeat(449)}`];

const assistant: AssistantMessage = {
  role: 'assistant',
  content: ids.map((id) => ({ type: 'toolCall' as const, id, name: 'read_file', input: { path: 'a.txt' } })),
  provider: 'openai-responses',
  model: 'gpt-test',
  usage: { ...emptyUsage(), inputTokens: 10, outputTokens: 5 },
  stopReason: 'toolUse',
  timestamp: 1000,
};
const results: ToolResultMessage[] = ids.map((id) => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'read_file',
  content: [{ type: 'text', text: 'ok' }],
  isError: false,
  timestamp: 1001,
}));

describe('transcript', () => {
  it('writes one JSON line per record and reads them back with ids unchanged', () => {
    const path = tempFile();
    const w = new TranscriptWriter(path);
    w.session({
      id: 'run-1',
      startedAt: '2026-11-30T00:00:00Z',
      repository: 'o/r',
      trigger: 'cli',
      provider: 'openai-responses',
      model: 'gpt-test',
    });
    w.message({ role: 'user', content: 'fix it', timestamp: 999 });
    w.message(assistant);
    for (const r of results) w.message(r);
    w.event('retry', { attempt: 1, delayMs: 10 });
    w.summary({ conclusion: 'success', usage: assistant.usage });
    w.close();

    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trim().split('\n')).toHaveLength(8);
    const t = parseTranscript(text);
    expect(t.session).toMatchObject({ type: 'session', version: 1, id: 'run-1' });
    expect(t.messages).toHaveLength(5);
    const calls = (t.messages[1] as AssistantMessage).content.map((c) => (c.type === 'toolCall' ? c.id : ''));
    expect(calls).toEqual(ids);
    expect(t.messages.slice(2).map((m) => (m as ToolResultMessage).toolCallId)).toEqual(ids);
    expect(t.events[0]).toMatchObject({ type: 'event', event: 'retry', attempt: 1 });
    expect(t.summary).toMatchObject({ conclusion: 'success' });
    expect(t.torn).toBe(false);
  });

  it('tolerates a torn last line and unknown line types', () => {
    const path = tempFile();
    const w = new TranscriptWriter(path);
    w.message({ role: 'user', content: 'task', timestamp: 1 });
    w.close();
    appendFileSync(path, '{"type":"future-thing","x":1}\n{"type":"message","message":{"role":"assis');
    const t = parseTranscript(readFileSync(path, 'utf8'));
    expect(t.messages).toHaveLength(1);
    expect(t.unknown).toEqual([{ lineNumber: 2, value: { type: 'future-thing', x: 1 } }]);
    expect(t.torn).toBe(true);
    expect(t.summary).toBeUndefined();
  });

  it('appends: a second writer on the same file keeps the first lines', () => {
    const path = tempFile();
    const a = new TranscriptWriter(path);
    a.message({ role: 'user', content: 'one', timestamp: 1 });
    a.close();
    const b = new TranscriptWriter(path);
    b.message({ role: 'user', content: 'two', timestamp: 2 });
    b.close();
    expect(parseTranscript(readFileSync(path, 'utf8')).messages.map((m) => m.content)).toEqual([
      'one',
      'two',
    ]);
  });

  it('applies the redactor to every line', () => {
    const path = tempFile();
    const w = new TranscriptWriter(path, { redact: (s) => s.replaceAll('hunter2secret', '[REDACTED]') });
    w.message({ role: 'user', content: 'the key is hunter2secret', timestamp: 1 });
    w.close();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('hunter2secret');
    expect(parseTranscript(text).messages[0]!.content).toBe('the key is [REDACTED]');
  });

  it('writes many messages at once as the same lines, each redacted', () => {
    const [one, many] = [tempFile(), tempFile()];
    const redact = (s: string) => s.replaceAll('hunter2secret', '[REDACTED]');
    const messages = [
      { role: 'user' as const, content: 'the key is hunter2secret', timestamp: 1 },
      assistant,
      ...results,
    ];
    const a = new TranscriptWriter(one, { redact });
    for (const m of messages) a.message(m);
    a.close();
    const b = new TranscriptWriter(many, { redact });
    b.messages(messages);
    b.close();
    const text = readFileSync(many, 'utf8');
    expect(text).toBe(readFileSync(one, 'utf8'));
    expect(text.trim().split('\n')).toHaveLength(5);
    expect(text).not.toContain('hunter2secret');
    expect(parseTranscript(text).messages).toHaveLength(5);
  });

  it('reports a failed write once and keeps the run going', () => {
    const errors: Error[] = [];
    const w = new TranscriptWriter('/dev/full', { onError: (e) => errors.push(e) });
    w.message({ role: 'user', content: 'x', timestamp: 1 });
    w.message({ role: 'user', content: 'y', timestamp: 2 });
    w.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/ENOSPC/);
    expect(w.healthy).toBe(false);
  });
});
