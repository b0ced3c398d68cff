import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/protocol/types.js';
import {
  createAdapterProvider,
  prepareMessages,
  type AdapterSpec,
  type AttemptEvent,
} from '../../src/providers/base.js';
import { ANTHROPIC_ID_POLICY } from '../../src/providers/ids.js';
import { TurnBuilder } from '../../src/providers/turn-builder.js';
import { FAST_RETRY, assistant, collect, context, result, user } from './helpers.js';

type Attempt = AdapterSpec['attempt'];

function provider(attempt: Attempt, extra: Partial<AdapterSpec> = {}) {
  return createAdapterProvider(
    { name: 'test', model: 'claude-sonnet-5-5', idPolicy: ANTHROPIC_ID_POLICY, attempt, ...extra },
    FAST_RETRY,
  );
}

describe('adapter harness', () => {
  it('turns a throwing attempt into one final error message, with secrets removed', async () => {
    const secret = 'sk-secret-value-123456';
    const p = provider(
      // eslint-disable-next-line require-yield
      async function* () {
        throw new Error(`could not parse config for key ${secret}`);
      },
      { secrets: [secret] },
    );
    const out = await collect(p, context([user('q')]));
    expect(out.message.stopReason).toBe('error');
    expect(out.message.errorKind).toBe('other');
    expect(out.message.errorMessage).toBe('could not parse config for key [redacted]');
    expect(out.retries).toHaveLength(0);
  });

  it('retries an attempt that ends without done or failure, as a cut stream', async () => {
    let calls = 0;
    const p = provider(async function* (_ctx, _signal, { builder }): AsyncGenerator<AttemptEvent> {
      calls++;
      const e = builder.text(0, `attempt ${calls}`);
      if (e) yield e;
      if (calls === 1) return;
      yield { type: 'done', message: builder.finish('stop') };
    });
    const out = await collect(p, context([user('q')]));
    expect(out.retries.map((r) => r.errorKind)).toEqual(['network']);
    expect(out.message.content).toEqual([{ type: 'text', text: 'attempt 2' }]);
    expect(out.message.usage.costUsd).toBe(0);
  });

  it('stops waiting on a stuck attempt as soon as the signal aborts, keeping what arrived', async () => {
    const p = provider(async function* (_ctx, _signal, { builder }): AsyncGenerator<AttemptEvent> {
      const e = builder.text(0, 'so far');
      if (e) yield e;
      await new Promise(() => undefined); // never settles
    });
    const controller = new AbortController();
    const out = await collect(p, context([user('q')]), { signal: controller.signal }, (e) => {
      if (e.type === 'text_delta') controller.abort();
    });
    expect(out.message.stopReason).toBe('aborted');
    expect(out.message.content).toEqual([{ type: 'text', text: 'so far' }]);
  });

  it('prepares history: failed turns lose their calls with their results, orphans are closed, ids normalized', () => {
    const long = 'id|'.repeat(30);
    const messages: Message[] = [
      user('q'),
      assistant([{ type: 'toolCall', id: long, name: 'read_file', input: { path: 'a' } }]),
      user('more'),
      assistant([{ type: 'toolCall', id: 'failed', name: 'read_file', input: {} }], {
        stopReason: 'error',
        errorMessage: 'x',
      }),
      result('failed', 'synthetic', { isError: true }),
      result('nobody', 'stray result'),
      assistant([], { stopReason: 'aborted' }),
      user('again'),
    ];
    const out = prepareMessages(messages, { idPolicy: ANTHROPIC_ID_POLICY });
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'user', 'user']);
    const call = (out[1] as Extract<Message, { role: 'assistant' }>).content[0] as { id: string };
    expect(call.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(out[2]).toMatchObject({ role: 'toolResult', toolCallId: call.id, isError: true });
    expect(JSON.stringify(out)).not.toContain('stray result');
  });
});

describe('prepareMessages with ids a server reuses', () => {
  it('keeps a later turn’s call and result when a failed turn used the same id', () => {
    const call = { type: 'toolCall' as const, id: 'call_0', name: 'read_file', input: { path: 'a' } };
    const messages: Message[] = [
      user('go'),
      assistant([call], { stopReason: 'error', errorMessage: 'cut' }),
      result('call_0', 'Tool call not run', { isError: true }),
      user('try again'),
      assistant([{ ...call, input: { path: 'b' } }]),
      result('call_0', 'contents of b'),
    ];
    const out = prepareMessages(messages, { idPolicy: ANTHROPIC_ID_POLICY });
    expect(out.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'toolResult']);
    expect(out[3]).toMatchObject({
      toolCallId: 'call_0',
      content: [{ type: 'text', text: 'contents of b' }],
    });
  });
});

describe('TurnBuilder', () => {
  it('corrects mislabelled stop reasons and names calls that came without an id', () => {
    const b = new TurnBuilder('p', 'm', () => 42);
    b.toolCallDelta('k', '{"a":');
    expect(b.toolCallStart('k', '', 'tool')).toMatchObject({ type: 'toolcall_start', name: 'tool' });
    b.toolCallDelta('k', '1}');
    const m = b.finish('stop');
    expect(m.stopReason).toBe('toolUse');
    expect(m.timestamp).toBe(42);
    expect(m.content[0]).toMatchObject({ type: 'toolCall', name: 'tool', input: { a: 1 } });
    expect((m.content[0] as { id: string }).id).toMatch(/^call_[0-9a-f]{24}$/);
    expect(new TurnBuilder('p', 'm').finish('toolUse').stopReason).toBe('stop');
  });

  it('keeps unparseable argument text as the raw string', () => {
    const b = new TurnBuilder('p', 'm');
    b.toolCallStart(0, 'id1', 'write_file');
    b.toolCallDelta(0, '{"path": "a", "content": "cut');
    const m = b.finish('length');
    expect(m.content).toEqual([
      { type: 'toolCall', id: 'id1', name: 'write_file', input: '{"path": "a", "content": "cut' },
    ]);
  });
});
