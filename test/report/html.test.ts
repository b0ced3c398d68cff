import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHtmlPath, exportCommand } from '../../src/cli/export.js';
import { UsageError } from '../../src/cli/io.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { chromium as findChromium, describeNeeding } from '../support/requirements.js';
import { captureIO } from './capture-io.js';
import {
  FIX_SESSION,
  HOSTILE_HTML,
  recordScriptedRun,
  type RecordedRun,
  type ScriptedTurn,
} from './fixture.js';

// The exported page opened in headless Chromium. Transcripts come from real tool runs driven by a
// scripted model (see fixture.ts).

/** The two DOM properties the tests read (the project compiles without the DOM library). */
interface Shown {
  hidden: boolean;
  open: boolean;
}

const OUTPUT_DIR = join(process.cwd(), 'test-output');
const CHROMIUM = findChromium();

let run: RecordedRun;
let big: RecordedRun;
let browser: Browser;
let page: Page;
let html: string;
const requests: string[] = [];
const consoleErrors: string[] = [];

describeNeeding(CHROMIUM)('in Chromium', () => {
  beforeAll(async () => {
    const last = FIX_SESSION[FIX_SESSION.length - 1]!;
    const session: ScriptedTurn[] = [
      ...FIX_SESSION.slice(0, -1),
      {
        ...last,
        eventsAfter: [
          { event: 'commit', sha: '0123456789abcdef0123', files: 1 },
          { event: 'pull-request', kind: 'created', number: 12, url: 'https://github.com/o/r/pull/12' },
        ],
      },
    ];
    run = await recordScriptedRun(session, {
      session: {
        runUrl: 'https://github.com/o/r/actions/runs/99',
        number: 7,
        systemPrompt: 'You are patchloop, working in the repository o/r.',
        tools: [
          {
            name: 'read_file',
            description: 'Reads a file. Use offset=N to continue.',
            parameters: { type: 'object', properties: { path: { type: 'string' } } },
          },
        ],
      },
    });
    const io = captureIO();
    expect(await exportCommand([run.transcript], io)).toBe(0);
    html = defaultHtmlPath(run.transcript);
    expect(io.out().trim()).toBe(html);
    browser = await chromium.launch({
      executablePath: CHROMIUM.path,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu'],
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(pathToFileURL(html).href);
  });

  afterAll(async () => {
    await browser?.close();
    run?.cleanup();
    big?.cleanup();
  });

  const visibleTurns = () =>
    page.$$eval('details.turn', (els) => els.filter((e) => !(e as unknown as Shown).hidden).map((e) => e.id));

  describe('the exported page', () => {
    it('is self-contained: one file, no request beyond itself, no script error', async () => {
      expect(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual([]);
      const text = readFileSync(html, 'utf8');
      expect(text).not.toMatch(/<(link|iframe|object|embed)\b/i);
      expect(text).not.toMatch(/<script[^>]+src=/i);
      expect(text).toContain('Content-Security-Policy');
      expect(consoleErrors).toEqual([]);
    });

    it('shows the header: outcome, model, duration, tokens and cost', async () => {
      const header = await page.textContent('h1');
      expect(header).toContain('success');
      const facts = await page.textContent('dl.facts');
      expect(facts).toContain('scripted-model-1');
      expect(facts).toContain('4.3 s');
      expect(facts).toContain(`input ${run.usage.inputTokens}`);
      expect(facts).toContain('$0.0410');
      expect(facts).toContain('9 (2 errors)');
      expect(
        await page.$$eval('svg.chart path.c-ctx', (p) => p[0]!.getAttribute('d')!.split('M').length - 1),
      ).toBe(5);
    });

    it('keeps a <script> in a tool output inert and shows it as text', async () => {
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
      await page.click('#turn-4 > summary');
      const outputs = await page.$$eval('#turn-4 pre.out', (els) => els.map((e) => e.textContent));
      expect(outputs.some((t) => t?.includes(HOSTILE_HTML))).toBe(true);
      expect(await page.$$eval('#turn-4 .tb script, #turn-4 .tb img', (els) => els.length)).toBe(0);
      expect(await page.evaluate('window.__pwned')).toBeUndefined();
    });

    it('starts with turns collapsed and expands one on click, with full arguments and the result', async () => {
      expect(await page.$eval('#turn-1', (d) => (d as unknown as Shown).open)).toBe(false);
      expect(await page.isVisible('#turn-1 .call')).toBe(false);
      await page.click('#turn-1 > summary');
      expect(await page.$eval('#turn-1', (d) => (d as unknown as Shown).open)).toBe(true);
      expect(await page.isVisible('#turn-1 .call[data-tool="read_file"]')).toBe(true);
      expect(await page.textContent('#turn-1 .call[data-tool="read_file"] pre.out')).toContain(
        'export function divide(a, b)',
      );
      await page.click('#turn-3 > summary');
      const editArgs = await page.textContent('#turn-3 .call[data-tool="edit_file"]');
      expect(editArgs).toContain("if (b === 0) throw new RangeError('division by zero');");
      // The edit's diff from `details`, coloured as a diff.
      expect(await page.textContent('#turn-3 .diff .d-add')).toContain(
        "+  if (b === 0) throw new RangeError('division by zero');",
      );
      // Unparsable argument text is shown as it was sent.
      expect(await page.textContent('#turn-3 .call[data-tool="read_file"]')).toContain(
        'not valid JSON, as the model sent them',
      );
    });

    it('renders the final message as Markdown, with http(s) links only', async () => {
      expect(await page.textContent('#turn-5 h4')).toBe('Summary');
      expect(await page.$$eval('#turn-5 .md strong', (els) => els.map((e) => e.textContent))).toContain(
        'guard',
      );
      expect(await page.$$eval('#turn-5 .md em', (els) => els.map((e) => e.textContent))).toContain('zero');
      expect(await page.$$eval('#turn-5 .md li', (els) => els.length)).toBe(2);
      expect(await page.$$eval('#turn-5 .md a', (els) => els.map((e) => e.getAttribute('href')))).toEqual([
        'https://developer.mozilla.org/',
      ]);
      expect(await page.textContent('#turn-5 .md pre')).toContain("throw new RangeError('division by zero')");
      expect(await page.textContent('#turn-5 .md')).toContain('[bad](javascript:alert(1))');
    });

    it('filters to only errors, then to one tool', async () => {
      await page.selectOption('#f-kind', 'errors');
      expect(await visibleTurns()).toEqual(['turn-2', 'turn-3']);
      const shownCalls = await page.$$eval('#turn-2 .call, #turn-3 .call', (els) =>
        els.filter((e) => !(e as unknown as Shown).hidden).map((e) => e.getAttribute('data-tool')),
      );
      expect(shownCalls).toEqual(['edit_file', 'read_file']);
      expect(await page.textContent('#f-count')).toBe('2 of 5 turns');
      await page.selectOption('#f-kind', 'all');
      await page.selectOption('#f-tool', 'run_tests');
      expect(await visibleTurns()).toEqual(['turn-4']);
      await page.selectOption('#f-tool', '');
      expect(await visibleTurns()).toHaveLength(5);
    });

    it('links the issue, the PR and the run from the session line and the events', async () => {
      const hrefs = await page.$$eval('dl.facts a', (as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual([
        'https://github.com/o/r/issues/7',
        'https://github.com/o/r/pull/12',
        'https://github.com/o/r/actions/runs/99',
      ]);
    });

    it('heads the page with the changed files and a small change shown open', async () => {
      expect(await page.textContent('#changes > b')).toBe('Changed files (2 files, +2 −0)');
      expect(await page.$$eval('#changes li code', (els) => els.map((e) => e.textContent))).toEqual([
        'src/math.js',
        'notes.html',
      ]);
      // a few lines: open without a click, and a click closes it
      expect(await page.isVisible('#changes .diff')).toBe(true);
      expect(await page.textContent('#changes .diff .d-add')).toContain(
        "throw new RangeError('division by zero')",
      );
      await page.click('#changes .whole-diff > summary');
      expect(await page.isVisible('#changes .diff')).toBe(false);
    });

    it('shows tool chips with their short arguments, and a failed call’s reason first', async () => {
      const chips = await page.$$eval('#turn-1 .chip', (els) => els.map((e) => e.textContent));
      expect(chips).toEqual(['list_dir', 'read_file src/math.js']);
      expect(await page.$$eval('#turn-3 .chip', (els) => els.map((e) => e.textContent))).toContain(
        '✗ read_file {"path": "src/math.js",',
      );
      // A one-line error is its own reason: it is not repeated above the result.
      expect(await page.$$eval('#turn-3 .call.e .why', (els) => els.length)).toBe(0);
      expect(await page.textContent('#turn-3 .call.e pre.out')).toMatch(/^Invalid arguments for read_file:/);
    });

    it('says each event in words', async () => {
      const events = await page.$$eval('.event', (els) => els.map((e) => e.textContent));
      expect(events).toEqual([
        'retryRetried the model request (attempt 1) after 500 ms: overloaded (529)',
        'commitCommitted 0123456789ab (1 file)',
        'pull-requestPull request #12: created https://github.com/o/r/pull/12',
      ]);
    });

    it('has the system prompt and the tool definitions on demand', async () => {
      expect(await page.isVisible('#setup pre')).toBe(false);
      await page.click('#setup > summary');
      expect(await page.textContent('#setup pre')).toBe('You are patchloop, working in the repository o/r.');
      expect(await page.textContent('#setup .tooldef summary')).toContain('read_file');
      await page.click('#setup > summary');
    });

    it('finds text anywhere in the run', async () => {
      await page.fill('#f-text', 'RangeError');
      await expect.poll(() => page.textContent('#f-count')).toContain(' of ');
      expect(await visibleTurns()).toEqual(['turn-3', 'turn-5']);
      await page.fill('#f-text', 'no such text anywhere');
      await expect.poll(() => page.textContent('#f-count')).toBe('0 of 5 turns');
      expect(await visibleTurns()).toEqual([]);
      await page.fill('#f-text', '');
      await expect.poll(() => page.textContent('#f-count')).toBe('5 turns');
      expect(await visibleTurns()).toHaveLength(5);
    });

    it('looks right (screenshot saved to test-output/)', async () => {
      mkdirSync(OUTPUT_DIR, { recursive: true });
      await page.click('#collapse');
      await page.evaluate('window.scrollTo(0, 0)');
      for (const id of ['#turn-2', '#turn-3']) await page.click(`${id} > summary`);
      const path = join(OUTPUT_DIR, 'report-export.png');
      await page.screenshot({ path, fullPage: true });
      expect(statSync(path).size).toBeGreaterThan(20_000);
    });
  });

  describe('export', () => {
    it('writes where -o says and refuses to overwrite the transcript', async () => {
      const io = captureIO({ cwd: run.root });
      expect(await exportCommand([run.transcript, '-o', 'page.html'], io)).toBe(0);
      expect(readFileSync(join(run.root, 'page.html'), 'utf8')).toMatch(/^<!doctype html>/);
      await expect(exportCommand([run.transcript, '-o', run.transcript], io)).rejects.toThrow(UsageError);
    });

    it('keeps a 500-turn transcript under 2 MB', async () => {
      const turns: ScriptedTurn[] = Array.from({ length: 500 }, (_, i) => ({
        text: `Step ${i + 1}: checking **math** again.`,
        calls: [
          i % 25 === 24
            ? { name: 'read_file', input: { path: `src/missing-${i + 1}.js` } }
            : i % 100 === 50
              ? {
                  name: 'edit_file',
                  input: { path: 'src/math.js', oldText: 'nothing like this', newText: 'x' },
                }
              : { name: 'read_file', input: { path: 'src/math.js' } },
        ],
      }));
      turns.push({ text: 'Done.' });
      big = await recordScriptedRun(turns);
      const io = captureIO();
      expect(await exportCommand([big.transcript], io)).toBe(0);
      const out = defaultHtmlPath(big.transcript);
      const size = statSync(out).size;
      expect(size).toBeLessThan(2 * 1024 * 1024);
      const start = Date.now();
      const p = await browser.newPage();
      await p.goto(pathToFileURL(out).href);
      await p.waitForFunction("document.querySelector('#f-count').textContent === '501 turns'");
      // 20 distinct failed reads and 5 identical failed edits: a count per tool, the same error
      // once with its turns, the first five, the rest on demand.
      expect(await p.textContent('#errors > b')).toBe('Errors (25)');
      expect(await p.textContent('#errors > .dim')).toBe('read_file 20 · edit_file 5');
      const shown = await p.$$eval('#errors > ul > li', (els) => els.map((e) => e.textContent ?? ''));
      expect(shown).toHaveLength(5);
      expect(await p.textContent('#errors .more > summary')).toBe('16 more');
      expect(await p.isVisible('#errors .more li')).toBe(false);
      const all = await p.$$eval('#errors li', (els) => els.map((e) => e.textContent ?? ''));
      expect(all.filter((t) => t.includes('oldText was not found'))).toEqual([
        expect.stringMatching(/^turns 51, 151, 251, 351, 451 · edit_file \(5 times\): oldText was not found/),
      ]);
      await p.fill('#f-text', 'step 250:');
      await expect.poll(() => p.textContent('#f-count')).toBe('1 of 501 turns');
      await p.fill('#f-text', '');
      await expect.poll(() => p.textContent('#f-count')).toBe('501 turns');
      await p.evaluate('window.scrollTo(0, 0)');
      mkdirSync(OUTPUT_DIR, { recursive: true });
      await p.screenshot({ path: join(OUTPUT_DIR, 'report-export-500-turns.png') });
      console.log(
        `500-turn page: ${(size / 1024).toFixed(0)} KiB, transcript ${(statSync(big.transcript).size / 1024).toFixed(0)} KiB, loaded in ${Date.now() - start} ms`,
      );
      await p.close();
    });
  });
});

describe('renderMarkdown', () => {
  it('escapes every tag and attribute of the input', () => {
    const out = renderMarkdown(
      '<b onclick="x()">hi</b> **<img src=x onerror=alert(1)>** [a](https://e.com/"onmouseover="x)',
    );
    expect(out).not.toMatch(/<(b|img)\b/);
    expect(out).toContain('&lt;b onclick=&quot;x()&quot;&gt;');
    expect(out).toContain('<strong>&lt;img src=x onerror=alert(1)&gt;</strong>');
    expect(out).toContain('href="https://e.com/&quot;onmouseover=&quot;x"');
  });

  it('renders fences, headings, lists, inline code, bold and italic', () => {
    const out = renderMarkdown('# Title\n\n1. one\n2. `two`\n\n- a *b* __c__\n\n```\n<x>\n```');
    expect(out).toContain('<h3>Title</h3>');
    expect(out).toContain('<ol><li>one</li><li><code>two</code></li></ol>');
    expect(out).toContain('<ul><li>a <em>b</em> <strong>c</strong></li></ul>');
    expect(out).toContain('<pre class="md-code"><code>&lt;x&gt;</code></pre>');
  });
});
