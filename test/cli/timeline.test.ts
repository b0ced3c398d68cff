import { describe, expect, it } from 'vitest';
import { createTimeline, describeArgs } from '../../src/cli/timeline.js';
import type { ToolCall, ToolResultMessage } from '../../src/protocol/types.js';
import { emptyUsage } from '../../src/protocol/types.js';
import { turn } from '../agent/helpers.js';

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { out: { isTTY, write: (t: string) => chunks.push(t) }, text: () => chunks.join('') };
}

const call: ToolCall = { type: 'toolCall', id: 'c1', name: 'read_file', input: { path: 'src/math.js' } };
const ok: ToolResultMessage = {
  role: 'toolResult',
  toolCallId: 'c1',
  toolName: 'read_file',
  content: [{ type: 'text', text: 'export function divide' }],
  isError: false,
  timestamp: 0,
};

describe('the live timeline', () => {
  it('prints plain lines without control sequences when not on a terminal', () => {
    const s = sink(false);
    const t = createTimeline(s.out);
    t.onEvent({ type: 'turn_start', turn: 1, model: 'claude-sonnet-4-5' });
    t.onEvent({ type: 'tool_start', turn: 1, call });
    t.onEvent({ type: 'tool_end', turn: 1, call, result: ok, durationMs: 3 });
    const bad = {
      ...ok,
      isError: true,
      content: [{ type: 'text' as const, text: 'Missing "path"\n\u001b[31mred' }],
    };
    t.onEvent({ type: 'tool_end', turn: 1, call: { ...call, input: '{bad' }, result: bad, durationMs: 1500 });
    t.onEvent({
      type: 'turn_end',
      turn: 2,
      message: turn({ text: 'Done.\nAll tests pass.' }),
      usage: emptyUsage(),
    });
    const tests = { ...call, id: 'c2', name: 'run_tests', input: {} };
    const failed = {
      ...bad,
      content: [{ type: 'text' as const, text: '$ npm test\nExit code 1 (0.2 s).\n\u001b[31mnot ok' }],
    };
    t.onEvent({ type: 'tool_end', turn: 1, call: tests, result: failed, durationMs: 200 });
    t.onEvent({ type: 'budget', budget: 'turns', limit: 3, used: 3 });
    t.close();
    expect(s.text()).toBe(
      [
        'turn 1 · claude-sonnet-4-5',
        '  ✓ read_file src/math.js (3 ms)',
        '  ✗ read_file {bad (1.5 s): Missing "path" red',
        '  “Done. All tests pass.”',
        '  ✗ run_tests (200 ms): Exit code 1 (0.2 s). … not ok',
        '  ■ turns budget used up',
        '',
      ].join('\n'),
    );
    expect(s.text()).not.toContain('\u001b');
  });

  it('draws and clears a status line with a spinner on a terminal', () => {
    const s = sink(true);
    let now = 1000;
    const t = createTimeline(s.out, { now: () => now });
    t.onEvent({ type: 'tool_start', turn: 1, call });
    now += 2500;
    t.onEvent({ type: 'tool_end', turn: 1, call, result: ok, durationMs: 2500 });
    t.close();
    const text = s.text();
    expect(text).toContain('⠋ read_file src/math.js (0 ms)');
    expect(text).toContain('\r\u001b[2K  ✓ read_file src/math.js (2.5 s)\n');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('shows the most telling argument of a call', () => {
    expect(describeArgs({ ...call, input: { pattern: 'divide', glob: '*.js' } })).toBe('divide');
    expect(describeArgs({ ...call, name: 'run_tests', input: {} })).toBe('');
    expect(describeArgs({ ...call, input: { limit: 5 } })).toBe('{"limit":5}');
  });
});

describe('the timeline and failures', () => {
  it('gives the reason of invalid arguments and the end of a failing test run', () => {
    const s = sink(false);
    const t = createTimeline(s.out);
    const invalid = {
      ...ok,
      isError: true,
      content: [
        {
          type: 'text' as const,
          text: 'Invalid arguments for read_file:\n- must have required property "path"\nReceived: {"pth":"a"}',
        },
      ],
    };
    t.onEvent({
      type: 'tool_end',
      turn: 1,
      call: { ...call, input: '{"pth":"a"}' },
      result: invalid,
      durationMs: 1,
    });
    const tests = { ...call, id: 'c2', name: 'run_tests', input: {} };
    const failing = {
      ...invalid,
      content: [
        {
          type: 'text' as const,
          text: `$ npm test\nExit code 1 (3.1 s).\n${'ok passing test\n'.repeat(200)}not ok 7 - divide(1, 0) throws RangeError`,
        },
      ],
    };
    t.onEvent({ type: 'tool_end', turn: 1, call: tests, result: failing, durationMs: 3100 });
    const lines = s.text().split('\n');
    expect(lines[0]).toContain('Invalid arguments for read_file: - must have required property "path"');
    expect(lines[1]).toMatch(
      /^ {2}✗ run_tests \(3\.1 s\): Exit code 1 \(3\.1 s\)\. … .*not ok 7 - divide\(1, 0\) throws RangeError$/,
    );
  });

  it('keeps each line within the terminal width on a terminal', () => {
    const chunks: string[] = [];
    const t = createTimeline({ isTTY: true, columns: 40, write: (x: string) => chunks.push(x) });
    t.onEvent({ type: 'turn_start', turn: 1, model: 'm'.repeat(100) });
    t.close();
    const printed = chunks.join('').split('\n')[0]!.replaceAll('\r\u001b[2K', '');
    expect([...printed].length).toBeLessThanOrEqual(39);
    expect(printed.endsWith('…')).toBe(true);
  });

  it('prints one line for a cancel that aborted the turn, and the aborted turn alone when nothing says why', () => {
    const aborted = turn({ stopReason: 'aborted', errorMessage: 'Aborted.' });
    const s = sink(false);
    const t = createTimeline(s.out);
    t.onEvent({ type: 'turn_start', turn: 1, model: 'm' });
    t.onEvent({ type: 'turn_end', turn: 1, message: aborted, usage: emptyUsage() });
    t.onEvent({ type: 'cancel', reason: 'The run was cancelled.' });
    t.onEvent({ type: 'error', message: 'Aborted.' });
    t.close();
    expect(s.text()).toBe('turn 1 · m\n  ■ The run was cancelled.\n');

    const alone = sink(false);
    const u = createTimeline(alone.out);
    u.onEvent({ type: 'turn_end', turn: 1, message: aborted, usage: emptyUsage() });
    u.close();
    expect(alone.text()).toBe('  ✗ aborted: Aborted.\n');
  });
});
