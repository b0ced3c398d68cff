import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectCommand } from '../../src/cli/inspect.js';
import { UsageError } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { parseTranscript } from '../../src/protocol/transcript.js';
import { buildRunView } from '../../src/report/model.js';
import { captureIO } from './capture-io.js';
import { FIX_SESSION, recordScriptedRun, type RecordedRun } from './fixture.js';

// Transcripts from real tool runs driven by a scripted model (see fixture.ts).

let run: RecordedRun;
let killed: RecordedRun;

beforeAll(async () => {
  run = await recordScriptedRun(FIX_SESSION);
  killed = await recordScriptedRun(
    [
      {
        text: 'Reading.',
        calls: [
          {
            name: 'write_file',
            input: { path: 'evil.txt', content: 'red \x1b[31mALERT\x1b[0m \u202Etxt.exe\n' },
          },
        ],
      },
      { calls: [{ name: 'read_file', input: { path: 'evil.txt' } }] },
      {
        text: 'Thinking about it',
        calls: [{ name: 'grep', input: { pattern: 'x' } }],
        stopReason: 'aborted',
      },
    ],
    { killed: true },
  );
});

afterAll(() => {
  run?.cleanup();
  killed?.cleanup();
});

describe('buildRunView', () => {
  it('pairs every call with its result and counts tools, errors and usage', () => {
    const view = buildRunView(parseTranscript(readFileSync(run.transcript, 'utf8')));
    expect(view.complete).toBe(true);
    expect(view.conclusion).toBe('success');
    expect(view.turns).toHaveLength(5);
    expect(view.turns.flatMap((t) => t.calls).every((c) => c.result !== undefined)).toBe(true);
    expect(view.tools).toEqual({
      list_dir: { calls: 1, errors: 0 },
      read_file: { calls: 3, errors: 1 },
      grep: { calls: 1, errors: 0 },
      edit_file: { calls: 2, errors: 1 },
      run_tests: { calls: 1, errors: 0 },
      write_file: { calls: 1, errors: 0 },
    });
    expect(view.errors.map((e) => [e.turn, e.tool])).toEqual([
      [2, 'edit_file'],
      [3, 'read_file'],
    ]);
    const sum = view.turns.reduce((n, t) => n + t.usage.inputTokens, 0);
    expect(view.totals.inputTokens).toBe(sum);
    expect(view.totals.inputTokens).toBe(run.usage.inputTokens);
    expect(view.models).toEqual(['scripted-model-1']);
    expect(view.task).toContain('divide-by-zero');
    expect(view.timeline.filter((i) => i.kind === 'event')).toHaveLength(1);
    expect(view.turns[3]!.calls.every((c) => c.durationMs !== undefined && c.durationMs >= 0)).toBe(true);
    expect(view.warnings).toEqual([]);
  });

  it('tolerates a torn last line, unknown line types, junk lines and a missing summary', () => {
    const path = join(killed.root, 'damaged.jsonl');
    const original = readFileSync(killed.transcript, 'utf8').split('\n');
    const damaged = [
      original[0],
      JSON.stringify({ type: 'checkpoint', state: 'future feature' }),
      'this line is not JSON',
      ...original.slice(1).filter(Boolean),
      JSON.stringify({
        type: 'message',
        message: { role: 'assistant', content: [{ type: 'text', text: 'cut here' }] },
      }).slice(0, 40),
    ].join('\n');
    writeFileSync(path, damaged);
    const view = buildRunView(parseTranscript(readFileSync(path, 'utf8')));
    expect(view.complete).toBe(false);
    expect(view.conclusion).toBeUndefined();
    expect(view.turns).toHaveLength(3);
    expect(view.turns[2]!.stopReason).toBe('aborted');
    expect(view.turns[2]!.calls[0]!.isError).toBe(true);
    const warnings = view.warnings.join('\n');
    expect(warnings).toContain('unknown line type "checkpoint"');
    expect(warnings).toContain('Lines that are not JSON were skipped: 3');
    expect(warnings).toContain('last line is cut off');
    expect(warnings).toContain('No summary line');
  });

  it('reads older shapes: short usage names, `arguments` for tool input, no session line', () => {
    const text = [
      JSON.stringify({ type: 'message', message: { role: 'user', content: 'task', timestamp: 1000 } }),
      JSON.stringify({
        type: 'message',
        message: {
          role: 'assistant',
          model: 'old-model',
          stopReason: 'toolUse',
          timestamp: 3000,
          usage: { input: 10, output: 5, cacheRead: 2, cacheWrite: 1, cost: { total: 0.5 } },
          content: [{ type: 'toolCall', id: 't1', name: 'read_file', arguments: { path: 'a' } }],
        },
      }),
      JSON.stringify({
        type: 'message',
        message: {
          role: 'toolResult',
          toolCallId: 't1',
          toolName: 'read_file',
          content: 'plain',
          timestamp: 3500,
        },
      }),
    ].join('\n');
    const view = buildRunView(parseTranscript(text));
    expect(view.turns[0]!.usage).toEqual({
      inputTokens: 10,
      outputTokens: 5,
      cacheReadTokens: 2,
      cacheWriteTokens: 1,
      costUsd: 0.5,
    });
    expect(view.turns[0]!.calls[0]!.input).toEqual({ path: 'a' });
    expect(view.turns[0]!.calls[0]!.durationMs).toBe(500);
    expect(view.turns[0]!.durationMs).toBe(2000);
    expect(view.warnings.join('\n')).toContain('No session line');
  });
});

describe('patchloop inspect', () => {
  it('prints a readable timeline without colours when stdout is not a TTY', async () => {
    const io = captureIO();
    expect(await inspectCommand([run.transcript], io)).toBe(0);
    const out = io.out();
    expect(out).not.toContain('\x1b[');
    expect(out).toContain('patchloop run run-scripted-1');
    expect(out).toContain('Fix the divide-by-zero in src/math.js');
    expect(out).toMatch(
      /── Turn 1 · scripted-model-1 · toolUse · .*in 900 out \d+ cache r 0 w 1800 · \$0\.\d{4}/,
    );
    expect(out).toContain('✓ list_dir');
    expect(out).toContain('✓ read_file path=src/math.js');
    expect(out).toMatch(/✗ edit_file path=src\/math\.js oldText="return a \/ b ;" newText=x/);
    expect(out).toContain('! retry attempt=1 delayMs=500 reason=overloaded (529)');
    expect(out).toMatch(/✓ run_tests · \d/);
    expect(out).toContain('Totals');
    expect(out).toContain(`input ${run.usage.inputTokens}`);
    expect(out).toContain('outcome: success');
    expect(out).toMatch(/edit_file\s+2 calls\s+1 error/);
    expect(out).toContain('Errors (2)');
  });

  it('uses colours on a TTY and honours NO_COLOR', async () => {
    const tty = captureIO({ tty: true });
    await inspectCommand([run.transcript], tty);
    expect(tty.out()).toContain('\x1b[32m✓\x1b[39m');
    const noColor = captureIO({ tty: true, env: { NO_COLOR: '1' } });
    await inspectCommand([run.transcript], noColor);
    expect(noColor.out()).not.toContain('\x1b[');
  });

  it('never passes escape sequences or bidi overrides from the transcript to the terminal', async () => {
    const io = captureIO({ tty: true });
    await inspectCommand([killed.transcript], io);
    const out = io.out();
    expect(out).toContain('red \\u001b[31mALERT');
    expect(out).not.toContain('\x1b[31mALERT');
    expect(out).not.toContain('\u202E');
    expect(out).toContain('incomplete (no summary line)');
  });

  it('--json prints turns, totals, tools and errors', async () => {
    const io = captureIO();
    expect(await inspectCommand([run.transcript, '--json'], io)).toBe(0);
    const data = JSON.parse(io.out());
    expect(Array.isArray(data.turns)).toBe(true);
    expect(data.turns).toHaveLength(5);
    expect(Object.keys(data.totals).sort()).toEqual([
      'cacheReadTokens',
      'cacheWriteTokens',
      'costUsd',
      'inputTokens',
      'outputTokens',
    ]);
    expect(data.totals.outputTokens).toBe(run.usage.outputTokens);
    expect(data.tools.edit_file).toEqual({ calls: 2, errors: 1 });
    expect(data.errors).toHaveLength(2);
    expect(data.errors[0]).toMatchObject({
      source: 'tool',
      turn: 2,
      tool: 'edit_file',
      toolCallId: 'call_2_2',
    });
    expect(data.turns[1].toolCalls[1]).toMatchObject({ name: 'edit_file', isError: true, recorded: true });
    expect(data.turns[0].usage.inputTokens).toBe(900);
    expect(data.events).toEqual([expect.objectContaining({ event: 'retry', afterTurn: 2 })]);
    expect(data.conclusion).toBe('success');
  });

  it('--json on a killed run says it is incomplete and lists the warnings', async () => {
    const copy = join(killed.root, 'torn.jsonl');
    writeFileSync(copy, readFileSync(killed.transcript));
    appendFileSync(copy, '{"type":"message","message":{"role":"assis');
    const io = captureIO();
    expect(await inspectCommand([copy, '--json'], io)).toBe(0);
    const data = JSON.parse(io.out());
    expect(data.complete).toBe(false);
    expect(data.conclusion).toBeNull();
    expect(data.turns).toHaveLength(3);
    expect(data.warnings.join('\n')).toContain('cut off');
  });

  it('reports usage errors: no file, a missing file, a file that is not a transcript, an unknown flag', async () => {
    const io = captureIO({ cwd: killed.root });
    await expect(inspectCommand([], io)).rejects.toThrow(UsageError);
    await expect(inspectCommand(['nope.jsonl'], io)).rejects.toThrow(/no such file/);
    writeFileSync(join(killed.root, 'notes.txt'), 'hello\nworld\n');
    await expect(inspectCommand(['notes.txt'], io)).rejects.toThrow(/holds no transcript lines/);
    await expect(inspectCommand([killed.transcript, '--colour'], io)).rejects.toThrow(UsageError);
  });

  it('exits 2 for usage errors, 1 for a file that cannot be read, 0 for a good run', async () => {
    const bad = captureIO({ cwd: killed.root });
    // A file problem is not a usage error: exit 1, one prefix, no hint about --help.
    expect(await main(['inspect', 'missing.jsonl'], bad)).toBe(1);
    expect(bad.err()).toMatch(/^patchloop inspect: cannot read transcript .*missing\.jsonl: no such file\n$/);
    expect(await main(['export'], bad)).toBe(2);
    expect(await main(['replay', run.transcript, '--repo', 'no/such/dir'], bad)).toBe(2);
    const good = captureIO();
    expect(await main(['inspect', run.transcript, '--json'], good)).toBe(0);
    expect(JSON.parse(good.out()).turns).toHaveLength(5);
  });
});

describe('a follow-up’s transcript', () => {
  it('leads with the follow-up’s request and numbers its turns as the live timeline did, in text and --json', async () => {
    const followUp = await recordScriptedRun(
      [
        { text: 'Adding the guard.', calls: [{ name: 'read_file', input: { path: 'src/math.js' } }] },
        { text: 'Done again.' },
      ],
      {
        task: 'Also refuse NaN',
        earlier: {
          task: 'Fix the divide-by-zero in src/math.js',
          turns: [{ calls: [{ name: 'read_file', input: { path: 'missing.js' } }] }, { text: 'Fixed.' }],
        },
      },
    );
    try {
      const io = captureIO();
      expect(await inspectCommand([followUp.transcript], io)).toBe(0);
      const text = io.out();
      expect(text).toMatch(
        /\nFollow-up\n {2}Also refuse NaN\n {2}continues an earlier session of 2 turns: Fix the divide-by-zero/,
      );
      expect(text.indexOf('Earlier session')).toBeLessThan(text.indexOf('── Earlier turn 1'));
      expect(text.indexOf('── Earlier turn 2')).toBeLessThan(text.indexOf('── Turn 1'));
      expect(text).toMatch(/── Turn 2 /);
      expect(text).not.toMatch(/── Turn [34] /);
      expect(text).toMatch(/2 turns \(and 2 of the earlier session\)/);
      // the earlier session's failed call is labelled as the earlier session's
      expect(text).toMatch(/earlier turn 1 · read_file/);

      const json = captureIO();
      expect(await inspectCommand([followUp.transcript, '--json'], json)).toBe(0);
      const view = JSON.parse(json.out()) as {
        task: string;
        earlierTask: string;
        earlierTurns: number;
        turns: { index: number; earlier?: boolean }[];
        errors: { turn: number; earlier?: boolean }[];
      };
      expect(view.task).toBe('Also refuse NaN');
      expect(view.earlierTask).toBe('Fix the divide-by-zero in src/math.js');
      expect(view.earlierTurns).toBe(2);
      expect(view.turns.map((t) => [t.index, t.earlier ?? false])).toEqual([
        [1, true],
        [2, true],
        [1, false],
        [2, false],
      ]);
      expect(view.errors).toEqual([expect.objectContaining({ turn: 1, earlier: true })]);
    } finally {
      followUp.cleanup();
    }
  });
});
