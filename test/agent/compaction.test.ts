import { describe, expect, it } from 'vitest';
import { compactMessages, contextTokens, estimateTokens } from '../../src/agent/compaction.js';
import { pairToolResults } from '../../src/protocol/pairing.js';
import type { Message, ToolResultMessage, UserMessage } from '../../src/protocol/types.js';
import { textOf } from '../../src/protocol/types.js';
import { turn } from './helpers.js';

const task: UserMessage = { role: 'user', content: 'Fix the divide-by-zero in src/math.js', timestamp: 0 };

function result(id: string, text: string, isError = false): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: id,
    toolName: 'read_file',
    content: [{ type: 'text', text }],
    isError,
    timestamp: 0,
  };
}

/** A conversation of n read_file turns, each result `size` characters long. */
function conversation(n: number, size: number): Message[] {
  const messages: Message[] = [task];
  for (let i = 0; i < n; i++) {
    const t = turn({
      text: `step ${i}`,
      calls: [{ name: 'read_file', input: { path: `f${i}.js` }, id: `c${i}` }],
    });
    messages.push(t, result(`c${i}`, `${i}:`.padEnd(size, 'x'), i === 1));
  }
  return messages;
}

describe('compaction', () => {
  it('keeps the task and the recent turns, folds the rest into notes, and never splits a call from its result', () => {
    const messages = conversation(10, 4000);
    const before = estimateTokens(messages);
    const out = compactMessages(messages, 3000);
    expect(out).toBeDefined();
    const kept = out!.messages;
    expect(estimateTokens(kept)).toBeLessThan(before / 2);
    // the first message is the task with a note; the next is an assistant turn
    expect(kept[0]!.role).toBe('user');
    expect(textOf((kept[0] as UserMessage).content)).toContain('Fix the divide-by-zero');
    expect(textOf((kept[0] as UserMessage).content)).toContain('read_file {"path":"f1.js"} → error');
    expect(kept[1]!.role).toBe('assistant');
    // pairing holds exactly: nothing synthesised, nothing dropped
    expect(pairToolResults(kept)).toEqual(kept);
    expect(out!.removed + kept.length).toBe(messages.length);
    // the last turn is always kept
    expect(kept.at(-1)).toBe(messages.at(-1));
  });

  it('keeps at least the last turn even when it alone is over the budget', () => {
    const out = compactMessages(conversation(3, 40_000), 10);
    expect(out!.messages).toHaveLength(3);
    expect(out!.removed).toBe(4);
  });

  it('has nothing to do with a single turn', () => {
    expect(compactMessages(conversation(1, 100_000), 10)).toBeUndefined();
  });

  it('carries notes of earlier compactions without repeating the task', () => {
    const first = compactMessages(conversation(6, 4000), 2000)!;
    const grown = [
      ...first.messages,
      ...conversation(6, 4000)
        .slice(1)
        .map((m) => structuredClone(m)),
    ];
    const second = compactMessages(grown, 2000, { task, notes: first.notes })!;
    const text = textOf((second.messages[0] as UserMessage).content);
    expect(text.match(/Fix the divide-by-zero/g)).toHaveLength(1);
    expect(text.match(/\[Context note\]/g)).toHaveLength(1);
    expect(second.notes.length).toBeGreaterThan(first.notes.length);
  });

  it('estimates the context from the last usage plus what came after it', () => {
    const messages = conversation(2, 400);
    const last = messages[3]!;
    if (last.role === 'assistant')
      last.usage = { inputTokens: 1000, outputTokens: 50, cacheReadTokens: 2000, cacheWriteTokens: 0 };
    expect(contextTokens(messages)).toBe(3050 + estimateTokens(messages.slice(4)));
    expect(contextTokens([task], 500)).toBe(500 + estimateTokens([task]));
  });

  it('notes each call with its own result where a server reused an id across turns', () => {
    const messages: Message[] = [task];
    for (const path of ['a.js', 'b.js', 'c.js']) {
      messages.push(
        turn({ calls: [{ name: 'read_file', input: { path }, id: 'call_0' }] }),
        result('call_0', `contents of ${path}`),
      );
    }
    const out = compactMessages(messages, 10);
    const notes = textOf((out!.messages[0] as UserMessage).content);
    expect(notes).toContain('read_file {"path":"a.js"} → ok: contents of a.js');
    expect(notes).toContain('read_file {"path":"b.js"} → ok: contents of b.js');
  });
});
