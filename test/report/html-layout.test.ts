import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultHtmlPath, exportCommand } from '../../src/cli/export.js';
import { chromium as findChromium, describeNeeding } from '../support/requirements.js';
import { captureIO } from './capture-io.js';
import { recordScriptedRun, type RecordedRun, type ScriptedTurn } from './fixture.js';

// The exported page's layout, rendered in Chromium at desktop (1280 px) and phone (390 px) widths,
// for three runs: a short one that broke a test and fixed it, a 160-turn one, and one that failed.

const OUTPUT_DIR = join(process.cwd(), 'test-output');
const CHROMIUM = findChromium();
const WIDTHS = [1280, 390] as const;
const KEY_ERROR = '401 Unauthorized: invalid x-api-key';

const FAILING_TEST = "test('divide by zero throws', () => assert.throws(() => divide(1, 0), RangeError));\n";

/** Adds a failing test, runs the tests (red), fixes the code, runs them again (green). */
const SHORT_RUN: ScriptedTurn[] = [
  {
    text: 'First a test that shows the bug.\nThen the fix.',
    calls: [
      {
        name: 'edit_file',
        input: {
          path: 'test/math.test.js',
          oldText: "test('divide', () => assert.equal(divide(6, 3), 2));\n",
          newText: `test('divide', () => assert.equal(divide(6, 3), 2));\n${FAILING_TEST}`,
        },
      },
      { name: 'run_tests', input: {} },
    ],
  },
  {
    calls: [
      {
        name: 'edit_file',
        input: {
          path: 'src/math.js',
          oldText: '  return a / b;',
          newText: "  if (b === 0) throw new RangeError('division by zero');\n  return a / b;",
        },
      },
      { name: 'run_tests', input: {} },
    ],
  },
  { text: '## Done\n\n`divide` now throws a `RangeError` on a zero divisor; the new test passes.' },
];

const ZERO = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/** The model's first request is refused: the error is in the turn, an event and the summary. */
const FAILED_RUN: ScriptedTurn[] = [
  {
    stopReason: 'error',
    errorMessage: KEY_ERROR,
    usage: ZERO,
    eventsAfter: [{ event: 'error', message: KEY_ERROR }],
  },
];

/** A follow-up: the earlier session broke a test, fixed the code and ended without running it again. */
const EARLIER_SESSION: ScriptedTurn[] = [SHORT_RUN[0]!, { calls: [SHORT_RUN[1]!.calls![0]!] }, SHORT_RUN[2]!];
const FOLLOW_UP: ScriptedTurn[] = [
  {
    text: 'Adding the NaN guard.',
    calls: [
      {
        name: 'edit_file',
        input: {
          path: 'src/math.js',
          oldText: "  if (b === 0) throw new RangeError('division by zero');",
          newText:
            "  if (b === 0) throw new RangeError('division by zero');\n  if (Number.isNaN(b)) throw new RangeError('not a number');",
        },
      },
    ],
  },
  { text: 'NaN is refused as well.' },
];

function longRun(): ScriptedTurn[] {
  const turns: ScriptedTurn[] = Array.from({ length: 159 }, (_, i) => ({
    // Every fourth turn says nothing and only calls tools: its narration names them.
    text:
      i % 4 === 3 ? undefined : `Step ${i + 1}: reading src/math.js again to check the needle-${i + 1} path.`,
    calls: [{ name: 'read_file', input: { path: 'src/math.js' } }],
  }));
  turns.push({ text: 'All 160 steps done.' });
  return turns;
}

let browser: Browser;
const runs: Record<string, RecordedRun> = {};
const pages: Record<string, string> = {};

async function open(name: string, width: number, height = 900): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(pages[name]!).href);
  await page.waitForFunction("document.querySelector('#f-count').textContent !== ''");
  expect(errors).toEqual([]);
  return page;
}

async function screenshot(page: Page, name: string, width: number): Promise<void> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const path = join(OUTPUT_DIR, `page-${name}-${width}.png`);
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path, fullPage: name !== 'long' });
  expect(statSync(path).size).toBeGreaterThan(10_000);
}

describeNeeding(CHROMIUM)('the exported page, laid out', () => {
  beforeAll(async () => {
    const task = 'Fix the divide-by-zero in src/math.js and add a test for it';
    runs.short = await recordScriptedRun(SHORT_RUN, {
      task,
      // Long unbroken words, as real runs have them: the page must wrap them, not scroll.
      session: {
        runUrl:
          'https://github.com/an-organisation/a-rather-long-repository-name/actions/runs/12345678901/attempts/1',
        number: 7,
      },
      summary: { branch: 'patchloop/fix-the-divide-by-zero-in-src-math-js-and-add-a-test-20261203-073500' },
    });
    runs.long = await recordScriptedRun(longRun(), { task: 'Read src/math.js 160 times' });
    runs.followup = await recordScriptedRun(FOLLOW_UP, {
      task: 'Also refuse NaN',
      earlier: { task, turns: EARLIER_SESSION },
    });
    runs.failed = await recordScriptedRun(FAILED_RUN, {
      task: 'Add a multiply function',
      conclusion: 'failure',
      summary: { error: KEY_ERROR },
    });
    for (const [name, run] of Object.entries(runs)) {
      expect(await exportCommand([run.transcript], captureIO())).toBe(0);
      pages[name] = defaultHtmlPath(run.transcript);
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM.path,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    for (const run of Object.values(runs)) run.cleanup();
  });

  describe.each(WIDTHS)('at %i px', (width) => {
    it.each(['short', 'long', 'failed', 'followup'])(
      '%s run: task and outcome in the header, no sideways scroll',
      async (name) => {
        const page = await open(name, width);
        expect(await page.textContent('#task')).toMatch(
          {
            short: /^Task Fix the divide-by-zero/,
            long: /^Task Read src\/math\.js 160 times/,
            failed: /^Task Add a multiply function/,
            followup: /^Follow-up Also refuse NaN$/,
          }[name]!,
        );
        expect(await page.textContent('h1 .badge')).toBe(name === 'failed' ? 'failure' : 'success');
        // The header is above the fold: the task line starts within the first screen.
        const top = await page.$eval('#task', (el) => el.getBoundingClientRect().top);
        expect(top).toBeLessThan(200);
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
        await screenshot(page, name, width);
        // Opened turns must not overflow either (long arguments, outputs, diffs).
        await page.click('#expand');
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
        await page.close();
      },
    );
  });

  it.each(['short', 'followup'])(
    '%s run at 1280 px: the final message and the small diff come first, open, within the first screen',
    async (name) => {
      const page = await open(name, 1280, 720);
      const box = await page.$eval('#final', (el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom };
      });
      expect(box.top).toBeGreaterThan(0);
      expect(box.bottom).toBeLessThanOrEqual(720);
      expect(await page.textContent('#final')).toMatch(
        name === 'short' ? /^Final message\s*Done/ : /^Final message\s*NaN is refused as well\.$/,
      );
      // before the facts table and the chart, and the diff open without a click
      const order = (await page.evaluate(
        "['#final', '#changes', 'dl.facts', 'svg.chart'].map((s) => document.querySelector(s)?.getBoundingClientRect().top ?? -1)",
      )) as number[];
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(
        await page.$eval('#changes .whole-diff', (el) => (el as unknown as { open: boolean }).open),
      ).toBe(true);
      expect(await page.isVisible('#changes .whole-diff .diff')).toBe(true);
      await page.close();
    },
  );

  it('shows a follow-up’s own request first, its turns numbered as the live timeline did, the earlier session apart', async () => {
    const page = await open('followup', 390);
    expect(await page.textContent('#continues')).toMatch(
      /^Continues an earlier session of 3 turns that began with “Fix the divide-by-zero in src\/math\.js and add a test for it”/,
    );
    // The earlier session's red test was fixed in that session: no error box for this run.
    expect(await page.$('#errors')).toBeNull();
    expect(await page.textContent('.box.recovered')).toBe(
      '1 error of the earlier session is marked on its turns.',
    );
    const labels = await page.$$eval('details.turn .n', (els) => els.map((e) => e.textContent));
    expect(labels).toEqual(['Earlier turn 1', 'Earlier turn 2', 'Earlier turn 3', 'Turn 1', 'Turn 2']);
    expect(await page.$eval('#earlier-session', (el) => (el as unknown as { open: boolean }).open)).toBe(
      false,
    );
    expect(await page.$eval('#earlier-turn-1', (el) => el.className)).toContain('failed');
    expect(await page.$('#turn-3')).toBeNull();
    expect(await page.$eval('svg.chart', (el) => el.getAttribute('data-turns'))).toBe('2');
    // A link to an earlier turn opens the earlier session around it.
    await page.evaluate("location.hash = '#earlier-turn-2'");
    await page.waitForFunction("document.getElementById('earlier-session').open");
    await page.close();
  });

  it('lists no error the run recovered from; the failing test stays marked on its turn', async () => {
    const page = await open('short', 1280);
    expect(await page.$('#errors')).toBeNull();
    expect(await page.textContent('.box.recovered')).toBe(
      '1 error the run recovered from is marked on its turn.',
    );
    expect(await page.$eval('#turn-1', (el) => el.className)).toContain('failed');
    expect(await page.$$eval('#turn-1 .chip.e', (els) => els.map((e) => e.textContent))).toEqual([
      '✗ run_tests',
    ]);
    expect(await page.$eval('#turn-2', (el) => el.className)).not.toContain('failed');
    await page.close();
  });

  it('shows a failed run’s one error once, and no chart without token figures', async () => {
    const page = await open('failed', 390);
    expect(await page.textContent('#errors > b')).toBe('Errors (1)');
    const items = await page.$$eval('#errors li', (els) => els.map((e) => e.textContent));
    expect(items).toEqual([`turn 1: ${KEY_ERROR}`]);
    expect(await page.$('svg.chart')).toBeNull();
    expect(await page.textContent('body')).not.toContain('Tokens per turn');
    await page.close();
  });

  it('narrates every collapsed turn of a 160-turn run in one line', async () => {
    const page = await open('long', 390);
    const rows = await page.$$eval('details.turn', (els) =>
      els.map((e) => ({
        open: (e as unknown as { open: boolean }).open,
        narr: e.querySelector('summary .narr')?.textContent ?? '',
        height: e.querySelector('.narr')?.getBoundingClientRect().height ?? 0,
      })),
    );
    expect(rows).toHaveLength(160);
    expect(rows.every((r) => !r.open && r.narr !== '')).toBe(true);
    expect(rows[0]!.narr).toBe('Step 1: reading src/math.js again to check the needle-1 path.');
    expect(rows[3]!.narr).toBe('Called read_file');
    expect(rows[159]!.narr).toBe('All 160 steps done.');
    // One line each: a narration never wraps, however narrow the screen.
    const lineHeight = rows[0]!.height;
    expect(rows.every((r) => r.height <= lineHeight + 1)).toBe(true);
    await page.close();
  });

  it('highlights search hits and steps through them with next and previous', async () => {
    const page = await open('long', 1280);
    await page.fill('#f-text', 'needle-15');
    // needle-15 and needle-150 … needle-159 (minus the silent turns), each in its turn's narration.
    await expect.poll(() => page.textContent('#f-hit')).toMatch(/^\d+ matches$/);
    const count = await page.$$eval('mark.hit', (els) => els.length);
    expect(count).toBeGreaterThan(2);
    const current = () =>
      page.$eval('mark.hit.cur', (m) => ({
        index: Array.from(m.ownerDocument.querySelectorAll('mark.hit')).indexOf(m),
        turn: m.closest('details.turn')!.id,
        text: m.textContent,
        visible:
          m.getBoundingClientRect().top >= 0 &&
          m.getBoundingClientRect().bottom <= (globalThis as unknown as { innerHeight: number }).innerHeight,
      }));
    await page.click('#f-next');
    const first = await current();
    expect(first).toEqual({ index: 0, turn: 'turn-15', text: 'needle-15', visible: true });
    expect(await page.textContent('#f-hit')).toBe(`1 of ${count}`);
    await page.click('#f-next');
    const second = await current();
    // The same words again in the opened turn's body, then the next turns'.
    expect(second).toMatchObject({ index: 1, turn: 'turn-15', visible: true });
    expect(await page.textContent('#f-hit')).toBe(`2 of ${count}`);
    await page.click('#f-prev');
    expect(await current()).toEqual(first);
    await page.click('#f-prev');
    expect(await page.textContent('#f-hit')).toBe(`${count} of ${count}`);
    expect(await current()).toMatchObject({ index: count - 1, turn: 'turn-159', visible: true });
    expect(await page.$$eval('mark.hit.cur', (els) => els.length)).toBe(1);
    await page.fill('#f-text', '');
    await expect.poll(() => page.$$eval('mark.hit', (els) => els.length)).toBe(0);
    // The text is whole again after the marks are gone.
    expect(await page.textContent('#turn-15 .narr')).toBe(
      'Step 15: reading src/math.js again to check the needle-15 path.',
    );
    await page.close();
  });
});
