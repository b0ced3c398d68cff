import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProgressBoard } from '../../src/action/progress.js';
import { escapeHtml } from '../../src/report/escape.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderSummaryMarkdown, type RunSummaryInput } from '../../src/report/summary.js';
import { chromium as findChromium, describeNeeding } from '../support/requirements.js';

// The tracking comment for each outcome, rendered and laid out in Chromium at desktop (1280 px)
// and phone (390 px) widths: the headline is the first line, the answer (or the next step) is on
// the first screen, the details are collapsed, no table, nothing scrolls sideways.
//
// No GitHub-flavoured Markdown renderer is among the dependencies, so the comment's Markdown goes
// through the project's own renderer (src/report/markdown.ts: paragraphs with GitHub's line breaks,
// quotes, lists, fenced code, code spans, bold, links) and the summary's own HTML blocks
// (<details>, <summary>) are kept as GitHub keeps them; the stylesheet carries GitHub's rules that
// matter for width (words wrap, code blocks scroll inside their box).

const OUTPUT_DIR = join(process.cwd(), 'test-output');
const CHROMIUM = findChromium();
const WIDTHS = [1280, 390] as const;
const RUN_URL = 'https://github.com/an-organisation/a-rather-long-repository-name/actions/runs/12345678901';
const KEY_ERROR =
  "401 authentication_error: invalid x-api-key Check the API key: the repository secret given as the api-key input (or ANTHROPIC_API_KEY in the workflow's env) must be an anthropic key valid for the anthropic SDK's default URL.";

function base(overrides: Partial<RunSummaryInput>): RunSummaryInput {
  return {
    conclusion: 'success',
    models: ['claude-sonnet-5-5'],
    turns: 6,
    durationMs: 83_400,
    usage: {
      inputTokens: 48_213,
      outputTokens: 2_140,
      cacheReadTokens: 31_000,
      cacheWriteTokens: 4_096,
      costUsd: 0.1932,
    },
    changedFiles: [],
    toolLog: [],
    runUrl: RUN_URL,
    serverUrl: 'https://github.com',
    repository: 'an-organisation/a-rather-long-repository-name',
    requester: 'octocat',
    request:
      '/patchloop fix the divide-by-zero in src/math.js: divide(1, 0) should throw a RangeError, see https://example.com/a/very/long/url/that/does/not/break/anywhere/at/all/in/its/path',
    next: {
      surface: 'action',
      triggerPhrase: '/patchloop',
      continueSession: true,
      onThread: true,
      maxTurns: 40,
      timeoutMinutes: 30,
    },
    ...overrides,
  };
}

const BRANCH = 'patchloop/issue-7-fix-the-divide-by-zero-in-src-math-js-divide-1-0-should-throw';
const LOG = [
  { name: 'read_file', args: 'path=src/math.js', ok: true, output: 'export function divide(a, b) {' },
  {
    name: 'run_tests',
    args: '',
    ok: false,
    output: 'Exit code 1 (0.4 s).\nnot ok 2 - divide by zero throws',
  },
  {
    name: 'edit_file',
    args: 'path=src/math.js oldText="return a / b;"',
    ok: true,
    output: 'Edited src/math.js',
  },
  { name: 'run_tests', args: '', ok: true, output: 'Exit code 0 (0.4 s).\nok 2 - divide by zero throws' },
];

const OUTCOMES: Record<string, RunSummaryInput> = {
  success: base({
    branch: BRANCH,
    commitSha: '0123456789abcdef0123456789abcdef01234567',
    pushed: true,
    prUrl: 'https://github.com/an-organisation/a-rather-long-repository-name/pull/8',
    prNumber: 8,
    changedFiles: [
      { path: 'src/math.js', added: 3, removed: 1 },
      {
        path: 'test/a/deeply/nested/folder/with/a-rather-long-test-file-name.test.js',
        added: 12,
        removed: 0,
      },
    ],
    finalMessage:
      '`divide` now throws a `RangeError` on a zero divisor, and a new test covers it; the tests pass.',
    toolLog: LOG,
  }),
  failure: base({
    conclusion: 'failure',
    turns: 1,
    durationMs: 1_400,
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
    error: KEY_ERROR,
  }),
  'budget-exceeded': base({
    conclusion: 'budget-exceeded',
    turns: 40,
    branch: BRANCH,
    commitSha: '0123456789abcdef0123456789abcdef01234567',
    pushed: true,
    changedFiles: [{ path: 'src/math.js', added: 3, removed: 1 }],
    finalMessage: 'Looking at the other callers of',
    error: 'Stopped after 40 turns: the max-turns budget (40) is used up.',
    toolLog: LOG,
    next: { ...base({}).next!, budget: 'turns' },
  }),
  cancelled: base({
    conclusion: 'cancelled',
    turns: 3,
    branch: BRANCH,
    commitSha: '0123456789abcdef0123456789abcdef01234567',
    pushed: true,
    finalMessage: 'Now I will run the',
    error: 'the run was cancelled',
    toolLog: LOG.slice(0, 2),
  }),
  'no-changes': base({
    conclusion: 'no-changes',
    finalMessage: '`divide(1, 0)` already throws a `RangeError` on this branch; nothing to change.',
    toolLog: LOG.slice(0, 1),
  }),
};

/** The comment's Markdown as GitHub shows it (see the note at the top). */
function commentHtml(markdown: string): string {
  const html: string[] = [];
  let chunk: string[] = [];
  const flush = () => {
    if (chunk.length) html.push(renderMarkdown(chunk.join('\n')));
    chunk = [];
  };
  for (const line of markdown.split('\n')) {
    const summary = /^<details><summary>(.*)<\/summary>$/.exec(line);
    if (summary) {
      flush();
      html.push(`<details><summary>${escapeHtml(summary[1]!)}</summary>`);
    } else if (line === '</details>') {
      flush();
      html.push('</details>');
    } else if (/^<sub>.*<\/sub>$/.test(line)) {
      flush();
      html.push(`<p><sub>${line.slice(5, -6)}</sub></p>`);
    } else chunk.push(line);
  }
  flush();
  return html.join('\n');
}

const PAGE_CSS = `
body { margin: 0; font: 14px/1.5 -apple-system, 'Segoe UI', 'Noto Sans', Helvetica, Arial, sans-serif; }
.comment { margin: 16px; border: 1px solid #d0d7de; border-radius: 6px; padding: 16px; }
.markdown-body { overflow-wrap: break-word; word-wrap: break-word; }
.markdown-body > :first-child { margin-top: 0; }
.markdown-body p, .markdown-body blockquote, .markdown-body ul, .markdown-body pre, .markdown-body details { margin: 0 0 16px; }
.markdown-body blockquote { padding: 0 1em; color: #59636e; border-left: .25em solid #d1d9e0; }
.markdown-body code { padding: .2em .4em; font-size: 85%; background: #eff1f3; border-radius: 6px; white-space: break-spaces; }
.markdown-body pre { padding: 16px; overflow: auto; background: #f6f8fa; border-radius: 6px; word-wrap: normal; }
.markdown-body pre code { padding: 0; background: none; white-space: pre; }
.markdown-body ul { padding-left: 2em; }
`;

let browser: Browser;

async function show(markdown: string, width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 844 } });
  await page.setContent(
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><style>${PAGE_CSS}</style></head><body><div class="comment"><div class="markdown-body">${commentHtml(markdown)}</div></div></body></html>`,
  );
  return page;
}

async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const path = join(OUTPUT_DIR, `${name}.png`);
  await page.locator('.comment').screenshot({ path });
  expect(statSync(path).size).toBeGreaterThan(5_000);
  return path;
}

const noSidewaysScroll = 'document.documentElement.scrollWidth <= window.innerWidth';

describeNeeding(CHROMIUM)('the tracking comment, rendered', () => {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM.path,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  describe.each(WIDTHS)('at %i px', (width) => {
    it.each(Object.keys(OUTCOMES))(
      '%s: the headline first, then the answer or the next step',
      async (name) => {
        const markdown = renderSummaryMarkdown(OUTCOMES[name]!);
        mkdirSync(OUTPUT_DIR, { recursive: true });
        writeFileSync(join(OUTPUT_DIR, `comment-${name}.md`), markdown);
        const page = await show(markdown, width);
        // The first block is the one headline: outcome, (PR or branch,) duration, cost, the run.
        const first = await page.$eval('.markdown-body > :first-child', (el) => ({
          tag: el.tagName,
          text: el.textContent ?? '',
          top: el.getBoundingClientRect().top,
          links: [...el.querySelectorAll('a')].map((a) => a.textContent),
        }));
        expect(first.tag).toBe('P');
        expect(first.text).toMatch(new RegExp(`^\\S+ patchloop: ${name.replace('-', ' ')}`));
        expect(first.text).toMatch(/· (\d+(\.\d)? s|1 min 23 s) · \$0\.\d+ \(estimated\) · workflow run$/);
        expect(first.links).toContain('workflow run');
        if (name === 'success') expect(first.links).toContain('PR #8');
        expect(first.top).toBeLessThan(40);
        // No table anywhere: GitHub makes a table's first row a bold header.
        expect(await page.$('table')).toBeNull();
        // What matters is on the first screen: the answer after a success, the next step otherwise.
        const mark =
          name === 'success'
            ? page.locator('blockquote', { hasText: 'now throws' })
            : page.locator('p', { hasText: 'What next:' });
        const box = await mark.first().boundingBox();
        expect(box, `${name} at ${width}`).not.toBeNull();
        expect(box!.y + box!.height).toBeLessThan(844);
        // The request is quoted before the answer; the details are collapsed and hold the figures.
        const order = (await page.evaluate(
          `(() => { const t = document.querySelector('.markdown-body').textContent; return [t.indexOf('asked:'), t.indexOf('Details: model, tokens')]; })()`,
        )) as number[];
        expect(order[0]).toBeGreaterThan(0);
        expect(order[1]).toBeGreaterThan(order[0]!);
        expect(await page.$eval('details', (d) => (d as unknown as { open: boolean }).open)).toBe(false);
        if (name !== 'success' && name !== 'no-changes' && OUTCOMES[name]!.finalMessage)
          expect(await page.textContent('.markdown-body')).toContain('Last message before the run stopped');
        expect(await page.evaluate(noSidewaysScroll)).toBe(true);
        await screenshot(page, `comment-${name}-${width}`);
        // Opened, the details must not overflow either (the tool log's code block scrolls in its box).
        await page.click('summary');
        expect(await page.$eval('details', (d) => (d as unknown as { open: boolean }).open)).toBe(true);
        expect(await page.textContent('details')).toMatch(/Tokens: input (48213|0) · output/);
        expect(await page.evaluate(noSidewaysScroll)).toBe(true);
        await page.close();
      },
    );

    it('the progress comment: plain bullets of what is being done, with times, no checkboxes', async () => {
      let now = 1_000_000;
      const board = new ProgressBoard(RUN_URL, { started: now, now: () => now });
      const call = (id: string, name: string, input: Record<string, unknown>) => ({
        type: 'toolCall' as const,
        id,
        name,
        input,
      });
      const usage = { inputTokens: 1200, outputTokens: 80, cacheReadTokens: 0, cacheWriteTokens: 0 };
      board.onEvent({ type: 'turn_start', turn: 1, model: 'claude-sonnet-5-5' });
      const steps = [
        call('1', 'read_file', { path: 'src/math.js' }),
        call('2', 'grep', { pattern: 'divide(', path: 'src' }),
        call('3', 'run_tests', {}),
      ];
      for (const [i, c] of steps.entries()) {
        now += 2_000;
        board.onEvent({ type: 'tool_start', turn: 1, call: c });
        if (i < 2) {
          now += 150;
          board.onEvent({
            type: 'tool_end',
            turn: 1,
            call: c,
            durationMs: 150,
            result: {
              role: 'toolResult',
              toolCallId: c.id,
              toolName: c.name,
              content: [],
              isError: i === 1,
              timestamp: now,
            },
          });
        }
      }
      board.onEvent({ type: 'turn_end', turn: 1, usage, message: {} as never });
      now += 4_000;
      const markdown = board.render();
      expect(markdown).not.toMatch(/- \[[ x]\]/);
      const page = await show(markdown, width);
      expect(await page.$('input[type=checkbox]')).toBeNull();
      expect(await page.$eval('.markdown-body > :first-child', (el) => el.textContent)).toBe(
        '👀 patchloop is working on this · 10.3 s so far · follow the run',
      );
      expect(await page.$$eval('li', (els) => els.map((e) => e.textContent))).toEqual([
        'Reading src/math.js (at 2.0 s, took 150 ms)',
        'Searching for divide( in src (at 4.2 s, took 150 ms) — failed ⚠️',
        'Running the tests (at 6.3 s, running)',
      ]);
      expect(await page.textContent('sub')).toBe('turn 1 · claude-sonnet-5-5 · 1280 tokens');
      expect(await page.evaluate(noSidewaysScroll)).toBe(true);
      await screenshot(page, `comment-progress-${width}`);
      await page.close();
    });
  });
});
