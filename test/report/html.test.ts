import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHtmlPath, exportCommand } from '../../src/cli/export.js';
import { UsageError } from '../../src/cli/io.js';
import { renderMarkdown } from '../../src/report/markdown.js';
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

let run: RecordedRun;
let big: RecordedRun;
let browser: Browser;
let page: Page;
let html: string;
const requests: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  run = await recordScriptedRun(FIX_SESSION);
  const io = captureIO();
  expect(await exportCommand([run.transcript], io)).toBe(0);
  html = defaultHtmlPath(run.transcript);
  expect(io.out().trim()).toBe(html);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
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
    expect(facts).toContain('4.3s');
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
          ? { name: 'edit_file', input: { path: 'src/math.js', oldText: 'nothing like this', newText: 'x' } }
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
    console.log(
      `500-turn page: ${(size / 1024).toFixed(0)} KiB, transcript ${(statSync(big.transcript).size / 1024).toFixed(0)} KiB, loaded in ${Date.now() - start} ms`,
    );
    await p.close();
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
