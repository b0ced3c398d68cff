import { describe, expect, it } from 'vitest';
import { pairToolResults, synthesizeResults, unansweredCalls } from '../../src/protocol/pairing.js';
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from '../../src/protocol/types.js';
import { emptyUsage } from '../../src/protocol/types.js';

const call = (id: string, name = 'read_file'): ToolCall => ({
  type: 'toolCall',
  id,
  name,
  input: { path: 'a' },
});
const assistant = (
  calls: ToolCall[],
  stopReason: AssistantMessage['stopReason'] = 'toolUse',
): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text: 'working' }, ...calls],
  provider: 'anthropic',
  model: 'm',
  usage: emptyUsage(),
  stopReason,
  timestamp: 1,
});
const result = (id: string): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'read_file',
  content: [{ type: 'text', text: `result ${id}` }],
  isError: false,
  timestamp: 2,
});

describe('pairing rule', () => {
  it('gives each call of an aborted turn one synthesised error result', () => {
    const msg = assistant([call('a'), call('b'), call('c')], 'aborted');
    const results = synthesizeResults(msg);
    expect(results.map((r) => r.toolCallId)).toEqual(['a', 'b', 'c']);
    expect(results.every((r) => r.isError)).toBe(true);
    expect(results[0]!.content[0]).toEqual({
      type: 'text',
      text: 'Tool call not run: the run was aborted before the tool ran.',
    });
  });

  it('closes open calls, keeps order, drops duplicates and orphans', () => {
    const messages: Message[] = [
      { role: 'user', content: 'task', timestamp: 0 },
      result('orphan'),
      assistant([call('a'), call('b'), call('c')]),
      result('c'),
      result('a'),
      result('a'),
      { role: 'user', content: 'more', timestamp: 3 },
    ];
    const paired = pairToolResults(messages);
    const shape = paired.map((m) => (m.role === 'toolResult' ? `${m.toolCallId}:${m.isError}` : m.role));
    expect(shape).toEqual(['user', 'assistant', 'a:false', 'b:true', 'c:false', 'user']);
    // the input is untouched
    expect(messages).toHaveLength(7);
  });

  it('synthesises results for an errored turn at the end of the history', () => {
    const msg = { ...assistant([call('x')], 'error'), errorMessage: 'HTTP 500' };
    const paired = pairToolResults([msg]);
    expect(paired).toHaveLength(2);
    const r = paired[1] as ToolResultMessage;
    expect(r.isError).toBe(true);
    expect(r.content[0]).toMatchObject({ text: expect.stringContaining('HTTP 500') });
  });

  it('lists unanswered calls of the last assistant message', () => {
    expect(unansweredCalls([assistant([call('a'), call('b')]), result('a')]).map((c) => c.id)).toEqual(['b']);
    expect(unansweredCalls([{ role: 'user', content: 'x', timestamp: 0 }])).toEqual([]);
  });
});
