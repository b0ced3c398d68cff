import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/protocol/execute.js';
import { ToolError, type AgentTool } from '../../src/protocol/tool.js';
import type { ToolCall } from '../../src/protocol/types.js';

// A small in-test tool: the registry's job (parse, validate, run, catch) is what is under test here.
const echoTool: AgentTool<{ text: string; fail?: 'tool-error' | 'crash' | 'wait' }> = {
  name: 'echo',
  description: 'Echoes text.',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string' }, fail: { enum: ['tool-error', 'crash', 'wait'] } },
    required: ['text'],
    additionalProperties: false,
  },
  async execute(args, ctx) {
    if (args.fail === 'tool-error') throw new ToolError(`cannot echo "${args.text}"`, { reason: 'asked to' });
    if (args.fail === 'crash') throw new TypeError('x is undefined');
    if (args.fail === 'wait') {
      await new Promise((_, reject) =>
        ctx.signal.addEventListener('abort', () => reject(new Error('stopped'))),
      );
    }
    return { content: [{ type: 'text', text: args.text }], details: { length: args.text.length } };
  },
};

const registry = new ToolRegistry([echoTool]);
const run = (input: ToolCall['input'], name = 'echo', signal = new AbortController().signal) =>
  registry.execute({ type: 'toolCall', id: 'toolu_01|weird id', name, input }, signal);

describe('ToolRegistry.execute: every call gets exactly one result', () => {
  it('runs a valid call, keeping content and details apart and the id unchanged', async () => {
    const r = await run({ text: 'hi' });
    expect(r).toMatchObject({
      role: 'toolResult',
      toolCallId: 'toolu_01|weird id',
      toolName: 'echo',
      isError: false,
      content: [{ type: 'text', text: 'hi' }],
      details: { length: 2 },
    });
  });

  it('answers raw argument text that is not JSON with an error result', async () => {
    const r = await run('{"text": "unterminated');
    expect(r.isError).toBe(true);
    expect(r.content[0]).toMatchObject({ text: expect.stringContaining('not valid JSON') });
  });

  it('parses raw argument text that is valid', async () => {
    const r = await run('{"text":"from text"}');
    expect(r.isError).toBe(false);
    expect(r.content[0]).toMatchObject({ text: 'from text' });
  });

  it('refuses an already-parsed argument object holding a lone surrogate', async () => {
    const r = await run({ text: 'a\ud800b' });
    expect(r.isError).toBe(true);
    expect(r.content[0]).toMatchObject({
      text: expect.stringContaining('unpaired UTF-16 surrogate at text'),
    });
  });

  it('names a missing parameter', async () => {
    const r = await run({});
    expect(r.isError).toBe(true);
    expect(r.content[0]).toMatchObject({
      text: expect.stringContaining('missing required parameter "text"'),
    });
  });

  it('refuses unknown parameters (additionalProperties: false)', async () => {
    const r = await run({ text: 'a', extra: 1 });
    expect(r.isError).toBe(true);
    expect(r.content[0]).toMatchObject({ text: expect.stringContaining('unknown parameter "extra"') });
  });

  it('answers an unknown tool with the list of tools', async () => {
    const r = await run({ text: 'a' }, 'rm_rf');
    expect(r.isError).toBe(true);
    expect(r.toolName).toBe('rm_rf');
    expect(r.content[0]).toMatchObject({ text: 'Unknown tool "rm_rf". Available tools: echo.' });
  });

  it('turns a ToolError into its message and details', async () => {
    const r = await run({ text: 'a', fail: 'tool-error' });
    expect(r).toMatchObject({ isError: true, details: { reason: 'asked to' } });
    expect(r.content[0]).toMatchObject({ text: 'cannot echo "a"' });
  });

  it('turns an unexpected exception into an error result', async () => {
    const r = await run({ text: 'a', fail: 'crash' });
    expect(r.isError).toBe(true);
    expect(r.content[0]).toMatchObject({ text: 'echo failed: x is undefined' });
  });

  it('does not start a tool when already aborted, and reports an abort mid-run', async () => {
    const done = new AbortController();
    done.abort();
    const before = await run({ text: 'a' }, 'echo', done.signal);
    expect(before.content[0]).toMatchObject({ text: expect.stringContaining('aborted before the tool ran') });

    const ctl = new AbortController();
    const pending = run({ text: 'a', fail: 'wait' }, 'echo', ctl.signal);
    ctl.abort();
    const during = await pending;
    expect(during.isError).toBe(true);
    expect(during.content[0]).toMatchObject({
      text: expect.stringContaining('cancelled while the tool was running'),
    });
  });
});
