import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/protocol/types.js';
import {
  ANTHROPIC_ID_POLICY,
  GOOGLE_ID_POLICY,
  OPENAI_CHAT_ID_POLICY,
  OPENAI_RESPONSES_ID_POLICY,
  buildIdMap,
  isValidId,
  normalizeToolCallIds,
} from '../../src/providers/ids.js';
import { assistant, result, user } from './helpers.js';

function history(ids: string[]): Message[] {
  return [
    user('q'),
    assistant(ids.map((id, i) => ({ type: 'toolCall' as const, id, name: 'read_file', input: { i } }))),
    ...ids.map((id, i) => result(id, `r${i}`)),
  ];
}

const POLICIES = [ANTHROPIC_ID_POLICY, OPENAI_CHAT_ID_POLICY, OPENAI_RESPONSES_ID_POLICY, GOOGLE_ID_POLICY];

describe('normalizeToolCallIds', () => {
  it('leaves valid ids alone and returns the same message objects', () => {
    const messages = history(['toolu_01', 'call-2']);
    const out = normalizeToolCallIds(messages, ANTHROPIC_ID_POLICY);
    expect(out).toEqual(messages);
    out.forEach((m, i) => expect(m).toBe(messages[i]));
  });

  it('rewrites a 450-character id with | into a valid one, call and result together, input untouched', () => {
    const long = `call_${'a'.repeat(200)}|fc_${'b'.repeat(241)}`;
    expect(long).toHaveLength(450);
    const messages = history([long]);
    const snapshot = structuredClone(messages);
    const out = normalizeToolCallIds(messages, ANTHROPIC_ID_POLICY);
    const call = (out[1] as Extract<Message, { role: 'assistant' }>).content[0] as { id: string };
    expect(call.id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect((out[2] as Extract<Message, { role: 'toolResult' }>).toolCallId).toBe(call.id);
    expect(messages).toEqual(snapshot);
  });

  it('keeps ids distinct that differ only after character 64 or only in forbidden characters', () => {
    const base = 'x'.repeat(64);
    const ids = [`${base}1`, `${base}2`, 'a|b', 'a.b', 'a_b'];
    const map = buildIdMap(history(ids), ANTHROPIC_ID_POLICY);
    const mapped = ids.map((id) => map.get(id)!);
    expect(new Set(mapped).size).toBe(ids.length);
    expect(map.get('a_b')).toBe('a_b');
    for (const m of mapped) expect(isValidId(m, ANTHROPIC_ID_POLICY)).toBe(true);
  });

  it('is deterministic, so the same history gives the same request', () => {
    const ids = ['one|1', `${'z'.repeat(80)}`, 'plain'];
    expect(buildIdMap(history(ids), OPENAI_CHAT_ID_POLICY)).toEqual(
      buildIdMap(history(ids), OPENAI_CHAT_ID_POLICY),
    );
  });

  it('maps any set of ids one-to-one onto valid ids, for every policy', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.oneof(
            fc.string({ minLength: 1, maxLength: 120 }),
            fc.string({ unit: 'grapheme', minLength: 1, maxLength: 500 }),
          ),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.constantFrom(...POLICIES),
        (ids, policy) => {
          const out = normalizeToolCallIds(history(ids), policy);
          const calls = (out[1] as Extract<Message, { role: 'assistant' }>).content.map(
            (c) => (c as { id: string }).id,
          );
          const results = out.slice(2).map((m) => (m as Extract<Message, { role: 'toolResult' }>).toolCallId);
          expect(results).toEqual(calls);
          expect(new Set(calls).size).toBe(ids.length);
          for (const id of calls) expect(isValidId(id, policy)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });
});
