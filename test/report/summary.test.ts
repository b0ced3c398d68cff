import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/protocol/redact.js';
import type { Message } from '../../src/protocol/types.js';
import {
  editsDiff,
  neutralizeMentions,
  renderSummaryMarkdown,
  renderSummaryText,
  shareBudget,
  STEP_SUMMARY_MAX_BYTES,
  STEP_SUMMARY_MAX_CHARS,
  toolLogFromMessages,
  type RunSummaryInput,
  type ToolLogEntry,
} from '../../src/report/summary.js';

function input(overrides: Partial<RunSummaryInput> = {}): RunSummaryInput {
  return {
    conclusion: 'success',
    models: ['claude-test-1'],
    turns: 4,
    durationMs: 83_000,
    usage: {
      inputTokens: 1234567,
      outputTokens: 8910,
      cacheReadTokens: 4000,
      cacheWriteTokens: 120,
      costUsd: 0.4321,
    },
    branch: 'patchloop/issue-7-divide',
    commitSha: '0123456789abcdef0123456789abcdef01234567',
    prUrl: 'https://github.com/o/r/pull/12',
    prNumber: 12,
    changedFiles: [
      { path: 'src/math.js', added: 3, removed: 1 },
      { path: 'test/math.test.js', added: 10, removed: 0 },
    ],
    finalMessage: 'Added a guard to `divide`.\n\n```js\nif (b === 0) throw new RangeError();\n',
    toolLog: [
      { name: 'read_file', args: 'path=src/math.js', ok: true, output: '1\texport function divide(a, b) {' },
      { name: 'edit_file', args: 'path=src/math.js', ok: false, output: 'oldText was not found' },
    ],
    transcriptLocation: 'artifact patchloop-transcript (run.jsonl, run.html)',
    runUrl: 'https://github.com/o/r/actions/runs/99',
    ...overrides,
  };
}

function hugeLog(n: number): ToolLogEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    name: i % 7 === 0 ? 'run_tests' : 'grep',
    args: `pattern=needle-${i} path=src/${'deep/'.repeat(10)}`,
    ok: i % 7 !== 0,
    output: `line ${i} `.repeat(200),
  }));
}

describe('renderSummaryMarkdown', () => {
  it('shows outcome, model, tokens as plain integers, cost, branch, PR, files, final message and the tool log', () => {
    const md = renderSummaryMarkdown(input());
    expect(md).toContain('success');
    expect(md).toContain('`claude-test-1`');
    expect(md).toContain('input 1234567');
    expect(md).toContain('output 8910');
    expect(md).toContain('cache read 4000');
    expect(md).toContain('cache write 120');
    expect(md).not.toMatch(/\d(\.\d)?k\b/);
    expect(md).toContain('$0.4321');
    expect(md).toContain('`patchloop/issue-7-divide`');
    expect(md).toContain('[#12](https://github.com/o/r/pull/12)');
    expect(md.split('\n')[0]).toContain('[PR #12](https://github.com/o/r/pull/12)');
    expect(md).toContain('`src/math.js` +3 −1');
    expect(md).toContain('2 files, +13 −1');
    expect(md).toContain('<details><summary>Details: model, tokens, tool log (2 calls, 1 error)</summary>');
    expect(md).toContain('✗ edit_file path=src/math.js → error: oldText was not found');
    expect(md).toContain('Full transcript: artifact patchloop-transcript');
    expect(md.split('\n')[0]).toContain('[workflow run](https://github.com/o/r/actions/runs/99)');
  });

  it('quotes the final message so its unclosed code fence cannot swallow the tool log', () => {
    const md = renderSummaryMarkdown(input());
    const finalAt = md.indexOf('**Answer**');
    const logAt = md.indexOf('**Changed files**');
    expect(finalAt).toBeGreaterThan(0);
    expect(logAt).toBeGreaterThan(finalAt);
    const quoted = md
      .slice(finalAt, logAt)
      .split('\n')
      .slice(2)
      .filter((l) => l !== '');
    expect(quoted.every((l) => l.startsWith('>'))).toBe(true);
  });

  it('says the cost is unknown when the price is unknown', () => {
    const md = renderSummaryMarkdown(
      input({ usage: { inputTokens: 5, outputTokens: 6, cacheReadTokens: 0, cacheWriteTokens: 0 } }),
    );
    expect(md).toContain('unknown (no price for this model)');
  });

  it('stays within 65,536 characters on a huge log and keeps the head, cutting the log first', () => {
    const log = hugeLog(10_000);
    const md = renderSummaryMarkdown(input({ toolLog: log }));
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toContain('success');
    expect(md).toContain('input 1234567');
    expect(md).toContain('Added a guard');
    expect(md).toContain('tool log (10,000 calls, 1,429 errors)');
    expect(md).toMatch(/… [\d,]+ calls not shown/);
    // The first and the last calls are both kept.
    expect(md).toContain('needle-0 ');
    expect(md).toContain('needle-9999 ');
  });

  it('gives the final message and the tool log each a share when both are huge', () => {
    const md = renderSummaryMarkdown(input({ toolLog: hugeLog(5000), finalMessage: 'word '.repeat(40_000) }));
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toContain('patchloop: success');
    expect(md).toContain('input 1234567');
    expect(md).toContain('the full message is in the transcript');
    expect(md).toContain('Tool log (5,000 calls');
    expect(md.split('\n').filter((l) => /^[✓✗] /.test(l)).length).toBeGreaterThan(20);
    expect(md).toContain('needle-4999 ');
  });

  it('holds any maxChars, even smaller than the head', () => {
    for (const maxChars of [200, 1000, 5000]) {
      const md = renderSummaryMarkdown(input({ toolLog: hugeLog(300) }), { maxChars });
      expect(md.length).toBeLessThanOrEqual(maxChars);
      expect(md.startsWith('✅ **patchloop: success**')).toBe(true);
    }
  });

  it('fits a much longer log into the step summary bound', () => {
    const log = hugeLog(3000);
    const comment = renderSummaryMarkdown(input({ toolLog: log }));
    const step = renderSummaryMarkdown(input({ toolLog: log }), {
      maxChars: STEP_SUMMARY_MAX_CHARS,
      logLines: 3000,
    });
    expect(step.length).toBeLessThanOrEqual(STEP_SUMMARY_MAX_CHARS);
    const count = (s: string) => s.split('\n').filter((l) => /^[✓✗] /.test(l)).length;
    expect(count(step)).toBeGreaterThan(count(comment));
    expect(count(step)).toBeGreaterThan(700);
  });

  it('limits the log to logLines', () => {
    const md = renderSummaryMarkdown(input({ toolLog: hugeLog(100).map((e) => ({ ...e, output: 'x' })) }), {
      logLines: 10,
    });
    expect(md.split('\n').filter((l) => /^[✓✗] /.test(l))).toHaveLength(10);
    expect(md).toContain('90 calls not shown');
  });

  it('applies the redactor to every piece and to the whole output', () => {
    const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const redact = (s: string) => s.split(secret).join('[REDACTED]');
    const md = renderSummaryMarkdown(
      input({
        finalMessage: `The token is ${secret}`,
        error: `push failed for https://x-access-token:${secret}@github.com/o/r`,
        notices: [`saw ${secret}`],
        toolLog: [
          { name: 'bash', args: `command="echo ${secret}"`, ok: true, output: `${'a'.repeat(100)}${secret}` },
          ...hugeLog(3000),
        ],
      }),
      { redact },
    );
    expect(md).not.toContain(secret);
    // A secret cut in half by the 120-character output limit does not leak its head either.
    expect(md).not.toContain(secret.slice(0, 12));
    expect(md).toContain('[REDACTED]');
  });

  it('keeps backticks in file names and tool output from breaking the markdown', () => {
    const md = renderSummaryMarkdown(
      input({
        changedFiles: [{ path: 'weird`name|x.md', added: 1, removed: 0 }],
        toolLog: [{ name: 'grep', args: 'pattern=```', ok: true, output: '```` fence' }],
      }),
    );
    expect(md).toContain('- ``weird`name|x.md`` +1 −0');
    const fence = md.match(/^(`{5,})$/m);
    expect(fence).not.toBeNull();
  });
});

describe('renderSummaryText', () => {
  it('prints outcome, model, tokens, cost, changed files and the transcript path', () => {
    const text = renderSummaryText(input());
    expect(text).toContain('Outcome: success');
    expect(text).toContain('Model: claude-test-1');
    expect(text).toContain('Tokens: input 1234567, output 8910, cache read 4000, cache write 120');
    expect(text).toContain('Cost: $0.4321');
    expect(text).toMatch(/src\/math\.js\s+\+3 -1/);
    expect(text).toContain('Transcript: artifact patchloop-transcript');
    expect(text).not.toContain('<details>');
  });
});

describe('editsDiff', () => {
  it('joins the diffs of successful edits and writes, and leaves out failed ones and other tools', () => {
    const result = (toolName: string, isError: boolean, diff?: string): Message => ({
      role: 'toolResult',
      toolCallId: `${toolName}-${String(isError)}`,
      toolName,
      isError,
      content: [{ type: 'text', text: 'ok' }],
      ...(diff !== undefined ? { details: { path: 'a', diff } } : {}),
      timestamp: 1,
    });
    const diff = editsDiff([
      result('edit_file', false, '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n'),
      result('edit_file', true, '--- a/y\n+++ b/y\n'),
      result('run_tests', false, 'not a file edit'),
      result('write_file', false, '--- /dev/null\n+++ b/z\n@@ -0,0 +1 @@\n+z'),
    ]);
    expect(diff).toBe('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n--- /dev/null\n+++ b/z\n@@ -0,0 +1 @@\n+z\n');
    expect(editsDiff([])).toBe('');
  });
});

describe('toolLogFromMessages', () => {
  it('pairs each call with its result by id, in call order', () => {
    const messages: Message[] = [
      { role: 'user', content: 'fix it', timestamp: 1 },
      {
        role: 'assistant',
        provider: 'scripted',
        model: 'm',
        stopReason: 'toolUse',
        usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
        timestamp: 2,
        content: [
          { type: 'toolCall', id: 'a', name: 'read_file', input: { path: 'src/math.js' } },
          { type: 'toolCall', id: 'b', name: 'grep', input: '{"pattern": ' },
          { type: 'toolCall', id: 'c', name: 'list_dir', input: {} },
        ],
      },
      {
        role: 'toolResult',
        toolCallId: 'b',
        toolName: 'grep',
        isError: true,
        content: [{ type: 'text', text: 'Invalid arguments' }],
        timestamp: 3,
      },
      {
        role: 'toolResult',
        toolCallId: 'a',
        toolName: 'read_file',
        isError: false,
        content: [{ type: 'text', text: 'body' }],
        timestamp: 4,
      },
    ];
    const log = toolLogFromMessages(messages);
    expect(log).toEqual([
      { name: 'read_file', args: 'path=src/math.js', ok: true, output: 'body' },
      { name: 'grep', args: '{"pattern":', ok: false, output: 'Invalid arguments' },
      { name: 'list_dir', args: '', ok: false, output: '(no result recorded)' },
    ]);
  });
});

describe('the tool log’s arguments (issue 23)', () => {
  it('are redacted before they are shortened: a secret at the cut leaves not even its start', () => {
    const token = `ghp_${'Z9y8'.repeat(9)}`;
    const messages: Message[] = [
      {
        role: 'assistant',
        content: [
          {
            type: 'toolCall',
            id: 'a',
            name: 'bash',
            input: { command: `${'x'.repeat(18)} -H "Bearer ${token}"` },
          },
        ],
        provider: 'p',
        model: 'm',
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
        stopReason: 'toolUse',
        timestamp: 1,
      },
    ];
    const redact = createRedactor([]);
    const [entry] = toolLogFromMessages(messages, redact);
    expect(entry!.args).not.toContain(token.slice(0, 8));
    const md = renderSummaryMarkdown(input({ toolLog: toolLogFromMessages(messages, redact) }), { redact });
    expect(md).not.toContain(token.slice(0, 8));
    // without the redactor the cut leaves the token's start, which no pattern recognises
    expect(toolLogFromMessages(messages)[0]!.args).toContain(token.slice(0, 8));
  });
});

describe('mentions', () => {
  it('breaks every @login and @org/team with a zero-width space, also inside code spans, and leaves e-mail addresses', () => {
    expect(neutralizeMentions('thanks @octocat and @acme/core-team; mail me@example.com')).toBe(
      'thanks @\u200Boctocat and @\u200Bacme/core-team; mail me@example.com',
    );
    // A backtick of the model's own closes a code span: wrapping in backticks is no protection.
    expect(neutralizeMentions('`x @a ` then `@b` and /@c and (@d)')).toBe(
      '`x @\u200Ba ` then `@\u200Bb` and /@\u200Bc and (@\u200Bd)',
    );
    expect(neutralizeMentions(neutralizeMentions('@a'))).toBe('@\u200Ba');
  });

  it('neutralises mentions everywhere in the summary and notes no cut when nothing was cut', () => {
    const message = Array.from({ length: 50 }, (_, i) => `ping @user${i}`).join('\n');
    const md = renderSummaryMarkdown(
      input({ finalMessage: message, error: 'blame @boss', notices: ['cc @team'] }),
    );
    expect(md).not.toMatch(/(^|[^\w])@[A-Za-z0-9]/m);
    expect(md).toContain('ping @\u200Buser49');
    expect(md).not.toContain('(cut');
  });
});

describe('links, requester and layout', () => {
  const linked = () =>
    input({ serverUrl: 'https://github.com/', repository: 'o/r', pushed: true, requester: 'octocat' });

  it('links the branch, the commit and each changed file at that commit', () => {
    const md = renderSummaryMarkdown(
      input({
        serverUrl: 'https://github.com/',
        repository: 'o/r',
        pushed: true,
        changedFiles: [{ path: 'src/a b(1).ts', added: 1, removed: 0 }],
      }),
    );
    expect(md).toContain(
      '- Branch: [`patchloop/issue-7-divide`](https://github.com/o/r/tree/patchloop/issue-7-divide)',
    );
    expect(md).toContain(
      '[`0123456789ab`](https://github.com/o/r/commit/0123456789abcdef0123456789abcdef01234567)',
    );
    expect(md).toContain(
      '- [`src/a b(1).ts`](https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/src/a%20b%281%29.ts) +1 −0',
    );
  });

  it('links nothing that was not pushed (a dry run)', () => {
    const md = renderSummaryMarkdown(input({ serverUrl: 'https://github.com', repository: 'o/r' }));
    expect(md).not.toContain('/tree/');
    expect(md).not.toContain('/commit/');
    expect(md).toContain('- Branch: `patchloop/issue-7-divide`');
  });

  it('names the requester without mentioning them, above the quoted request and in the details', () => {
    const md = renderSummaryMarkdown({ ...linked(), request: '/patchloop fix the divide\n\nthanks @boss' });
    expect(md).toContain(
      '**[@\u200Boctocat](https://github.com/octocat) asked:**\n\n> /patchloop fix the divide\n>\n> thanks @\u200Bboss',
    );
    expect(md).toContain('- Requested by: [@\u200Boctocat](https://github.com/octocat)');
  });

  it('has no table: GitHub would make its first row a bold header', () => {
    for (const md of [renderSummaryMarkdown(input()), renderSummaryMarkdown(linked())]) {
      expect(md).not.toMatch(/^\|.*\|$/m);
      expect(md).not.toContain('|---|');
      expect(md).toContain('- Model: `claude-test-1`');
    }
  });

  it('links related runs in the footer: the failed run a CI fix is for', () => {
    const md = renderSummaryMarkdown(
      input({ related: [{ label: 'Failed run of CI', url: 'https://github.com/o/r/actions/runs/555' }] }),
    );
    expect(md).toContain(
      'Full transcript: artifact patchloop-transcript (run.jsonl, run.html) · [Failed run of CI](https://github.com/o/r/actions/runs/555)',
    );
  });

  it('links the transcript artifact', () => {
    const md = renderSummaryMarkdown(
      input({
        transcriptLocation: '/tmp/x/transcript.jsonl on the runner',
        artifactName: 'patchloop-transcript-7-99-1',
        artifactUrl: 'https://github.com/o/r/actions/runs/99/artifacts/5',
      }),
    );
    expect(md).toContain(
      'Full transcript: [`patchloop-transcript-7-99-1`](https://github.com/o/r/actions/runs/99/artifacts/5)',
    );
    expect(md).not.toContain('on the runner');
  });

  it('shows a dry run’s diff collapsed, and cuts a huge one with a note while keeping the log', () => {
    const diff = [
      'diff --git a/src/math.js b/src/math.js',
      '--- a/src/math.js',
      '+++ b/src/math.js',
      '@@ -1 +1 @@',
      '-a',
      '+b',
    ].join('\n');
    const small = renderSummaryMarkdown(input({ diff }));
    expect(small).toContain('<details><summary>Diff (2 files)</summary>');
    expect(small).toContain('```diff\ndiff --git a/src/math.js b/src/math.js');
    expect(small).not.toContain('(cut');
    const huge = `${diff}\n${'+added line\n'.repeat(20_000)}`;
    const md = renderSummaryMarkdown(input({ diff: huge, toolLog: hugeLog(500) }));
    expect(md.length).toBeLessThanOrEqual(65_536);
    expect(md).toMatch(/… \(cut: [\d,]+ more lines of the diff are not shown\)/);
    expect(md).toContain('Tool log (500 calls');
    expect(md).toContain('Added a guard');
  });

  it('shows a failed call’s reason, and the end of a failed test run', () => {
    const md = renderSummaryMarkdown(
      input({
        toolLog: [
          {
            name: 'read_file',
            args: '{"pth":',
            ok: false,
            output:
              'Invalid arguments for read_file:\n- must have required property "path"\nReceived: {"pth":1}',
          },
          {
            name: 'run_tests',
            args: '',
            ok: false,
            output: `$ npm test\nExit code 1 (2.0 s).\n${'ok line\n'.repeat(300)}not ok 3 - divide by zero throws`,
          },
        ],
      }),
    );
    expect(md).toContain(
      '✗ read_file {"pth": → error: Invalid arguments for read_file: - must have required property "path"',
    );
    expect(md).toContain('✗ run_tests  → error: Exit code 1 (2.0 s). …');
    expect(md).toContain('not ok 3 - divide by zero throws');
    expect(md).not.toContain('error: $ npm test');
  });
});

describe('the step summary bound', () => {
  it('counts UTF-8 bytes: a final message of three-byte characters stays under 1 MiB, and the log survives', () => {
    const md = renderSummaryMarkdown(input({ finalMessage: '漢'.repeat(700_000), toolLog: hugeLog(3000) }), {
      maxBytes: STEP_SUMMARY_MAX_BYTES,
      maxChars: 2_000_000,
    });
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThanOrEqual(STEP_SUMMARY_MAX_BYTES);
    expect(md).toContain('the full message is in the transcript');
    expect(md).toContain('Tool log (3,000 calls');
    expect(md).not.toContain('\uFFFD');
  });

  it('takes a bound above the comment limit as a byte bound', () => {
    const md = renderSummaryMarkdown(input({ finalMessage: 'é'.repeat(900_000) }), {
      maxChars: STEP_SUMMARY_MAX_CHARS,
    });
    expect(Buffer.byteLength(md, 'utf8')).toBeLessThanOrEqual(STEP_SUMMARY_MAX_CHARS);
  });
});

describe('shareBudget', () => {
  it('gives small sections what they want and shares the rest by weight', () => {
    expect(shareBudget(100, [10, 500, 500], [1, 1, 1])).toEqual([10, 45, 45]);
    expect(shareBudget(100, [10, 20, 30], [1, 1, 1])).toEqual([10, 20, 30]);
    expect(shareBudget(90, [0, 500, 500], [1, 2, 1])).toEqual([0, 60, 30]);
  });
});

describe('the next step of a run that did not succeed', () => {
  const action = { surface: 'action' as const, triggerPhrase: '/fix', continueSession: true, onThread: true };
  const at = (o: Partial<RunSummaryInput>) => {
    const md = renderSummaryMarkdown(input(o));
    return /^\*\*What next:\*\* (.*)$/m.exec(md)?.[1];
  };

  it('on GitHub: a comment that continues, the input to raise, the secret to fix', () => {
    expect(at({ next: action })).toBeUndefined();
    expect(at({ conclusion: 'budget-exceeded', next: { ...action, budget: 'turns', maxTurns: 40 } })).toBe(
      'Comment `/fix continue` to go on from where it stopped (same branch, same conversation), or raise the `max-turns` input (40 now) in the workflow.',
    );
    expect(
      at({ conclusion: 'budget-exceeded', next: { ...action, budget: 'cost', maxCostUsd: 2.5 } }),
    ).toMatch(/raise the `max-cost-usd` input \(\$2\.50 now\) in the workflow\.$/);
    expect(
      at({ conclusion: 'budget-exceeded', next: { ...action, budget: 'time', timeoutMinutes: 30 } }),
    ).toMatch(
      /raise the `timeout-minutes` input \(30 now\) and the job's own `timeout-minutes` above it in the workflow\.$/,
    );
    expect(at({ conclusion: 'cancelled', next: action })).toBe(
      'The work so far was kept; comment `/fix continue` to go on from where it stopped (same branch, same conversation).',
    );
    // a failure before the model said anything: a setting to fix, not a session to continue
    const zero = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
    expect(at({ conclusion: 'failure', usage: zero, next: action })).toMatch(
      /^Fix what the error names \(a repository secret/,
    );
    expect(at({ conclusion: 'failure', next: action })).toMatch(
      /^Comment `\/fix continue` to go on from where it stopped .*, or read the workflow run's log for what failed\.$/,
    );
    expect(at({ conclusion: 'failure', next: { ...action, continueSession: false } })).toMatch(
      /^Comment `\/fix` with the request again \(continue-session is off/,
    );
    expect(at({ conclusion: 'no-changes', next: action })).toMatch(
      /^If a change was expected, comment `\/fix` again/,
    );
    for (const c of ['budget-exceeded', 'cancelled', 'failure', 'no-changes'])
      expect(at({ conclusion: c, next: action })).not.toMatch(/--|patchloop run/);
  });

  it('in the CLI: the command and the flag, and the unfinished text labelled', () => {
    const text = renderSummaryText(
      input({
        conclusion: 'budget-exceeded',
        finalMessage: 'Looking at the',
        next: { surface: 'cli', transcriptPath: '/tmp/my runs/t.jsonl', budget: 'turns', maxTurns: 40 },
      }),
    );
    expect(text).toContain(
      `Next: Run patchloop run --continue '/tmp/my runs/t.jsonl' "go on" with a higher --max-turns (40 now).`,
    );
    expect(text).toContain('Last message (unfinished):\n  Looking at the');
    expect(text).not.toMatch(/secret|`\/|the `?max-turns`? input/i);
  });

  it('labels an unfinished run’s last text in the comment, and a success’s text as the answer', () => {
    expect(renderSummaryMarkdown(input({ conclusion: 'cancelled' }))).toContain(
      '**Last message before the run stopped** (unfinished: the model had not ended its work)\n\n> Added a guard',
    );
    expect(renderSummaryMarkdown(input())).toContain('**Answer**\n\n> Added a guard');
  });
});
