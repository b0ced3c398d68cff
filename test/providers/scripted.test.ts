import { describe, expect, it } from 'vitest';
import { createScriptedProvider, scriptFromTranscript } from '../../src/providers/scripted.js';
import { assistant, collect, context, user } from './helpers.js';

describe('scripted provider', () => {
  it('plays one recorded turn per request, streamed in pieces, and then says it has run out', async () => {
    const turns = [
      assistant([
        { type: 'text', text: 'I will read the file now, then fix it.' },
        { type: 'toolCall', id: 'c1', name: 'read_file', input: { path: 'src/math.js' } },
      ]),
      assistant([{ type: 'text', text: 'Done.' }]),
    ];
    const p = createScriptedProvider(turns, { label: 'demo session', pieceLength: 8 });
    expect([p.name, p.model, p.label]).toEqual(['scripted', 'scripted', 'demo session']);

    const first = await collect(p, context([user('fix')]));
    expect(first.events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(3);
    expect(first.text).toBe('I will read the file now, then fix it.');
    expect(first.events.find((e) => e.type === 'toolcall_end')).toMatchObject({
      toolCall: { id: 'c1', name: 'read_file', input: { path: 'src/math.js' } },
    });
    expect(first.message).toMatchObject({
      provider: 'scripted',
      stopReason: 'toolUse',
      content: turns[0]!.content,
    });
    expect(first.message.usage.costUsd).toBeUndefined();

    expect((await collect(p, context([user('fix')]))).message.content).toEqual([
      { type: 'text', text: 'Done.' },
    ]);
    const third = await collect(p, context([user('more')]));
    expect(third.message.stopReason).toBe('error');
    expect(third.message.errorMessage).toMatch(/no more turns \(it had 2\)/);
    expect(p.requests).toHaveLength(3);
  });

  it('replays raw argument text and recorded stop reasons as they were', async () => {
    const p = createScriptedProvider([
      assistant([{ type: 'toolCall', id: 'c', name: 'write_file', input: '{"path": "x", "content": "cut' }], {
        stopReason: 'length',
      }),
    ]);
    const out = await collect(p, context([user('q')]));
    expect(out.message.stopReason).toBe('length');
    expect(out.message.content).toEqual([
      { type: 'toolCall', id: 'c', name: 'write_file', input: '{"path": "x", "content": "cut' },
    ]);
  });

  it('ends as aborted when the signal is already aborted', async () => {
    const p = createScriptedProvider([assistant([{ type: 'text', text: 'hello' }])]);
    const out = await collect(p, context([user('q')]), { signal: AbortSignal.abort() });
    expect(out.message.stopReason).toBe('aborted');
  });

  it('reads the assistant messages of a transcript, tolerating junk', () => {
    const lines = [
      { type: 'session', version: 1, id: 's' },
      { type: 'message', message: user('task') },
      { type: 'message', message: { ...assistant([{ type: 'text', text: 'a' }]), stopReason: 'bogus' } },
      {
        type: 'message',
        message: {
          role: 'assistant',
          content: [{ type: 'weird' }, { type: 'toolCall', id: 'x', name: 'grep', input: [1] }],
        },
      },
      { type: 'summary', conclusion: 'success' },
    ];
    const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"type":"mess`;
    const script = scriptFromTranscript(text);
    expect(script).toHaveLength(2);
    expect(script[0]).toMatchObject({ stopReason: 'stop', content: [{ type: 'text', text: 'a' }] });
    expect(script[1]!.content).toEqual([{ type: 'toolCall', id: 'x', name: 'grep', input: {} }]);
  });
});
