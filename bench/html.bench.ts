// The exported HTML page of a 500-turn run: how long it takes to render in Node and to load in
// headless Chromium, as ratios against baselines measured in the same run (JSON.parse of the same
// transcript; a page holding the same text in one <pre>).

import { mkdtempSync, rmSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { parseTranscript, TranscriptWriter } from '../src/protocol/transcript.js';
import { escapeHtml } from '../src/report/escape.js';
import { renderHtml } from '../src/report/html.js';
import { buildRunView } from '../src/report/model.js';

const TURNS = 500;
const ROUNDS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function writeTranscript(path: string): void {
  const w = new TranscriptWriter(path);
  let t = Date.now();
  w.session({
    id: 'bench',
    startedAt: new Date(t).toISOString(),
    repository: 'o/r',
    trigger: 'bench',
    provider: 'scripted',
    model: 'm',
  });
  w.message({ role: 'user', content: 'Make the tests pass.', timestamp: t });
  const source = Array.from(
    { length: 60 },
    (_, i) => `export function f${i}(a, b) { return a * ${i} + b; }`,
  ).join('\n');
  for (let i = 0; i < TURNS; i++) {
    const id = `call_${i}`;
    const name = i % 3 === 0 ? 'read_file' : i % 3 === 1 ? 'grep' : 'edit_file';
    const usage = {
      inputTokens: 1000 + 40 * i,
      outputTokens: 80,
      cacheReadTokens: 2000 + 30 * i,
      cacheWriteTokens: 0,
      costUsd: 0.001,
    };
    w.message({
      role: 'assistant',
      provider: 'scripted',
      model: 'm',
      usage,
      stopReason: 'toolUse',
      timestamp: (t += 900),
      content: [
        { type: 'text', text: `Turn ${i}: I will check **f${i}** in \`src/a.js\` next.` },
        {
          type: 'toolCall',
          id,
          name,
          input:
            name === 'edit_file'
              ? { path: 'src/a.js', oldText: `f${i}`, newText: `g${i}` }
              : { path: 'src/a.js' },
        },
      ],
    });
    w.message({
      role: 'toolResult',
      toolCallId: id,
      toolName: name,
      isError: i % 17 === 0,
      timestamp: (t += 40),
      content: [
        {
          type: 'text',
          text: name === 'read_file' ? source : `src/a.js:${i}: export function f${i}(a, b) {`,
        },
      ],
      ...(name === 'edit_file'
        ? { details: { diff: `--- a/src/a.js\n+++ b/src/a.js\n@@ -${i},1 +${i},1 @@\n-f${i}\n+g${i}\n` } }
        : {}),
    });
  }
  w.summary({
    conclusion: 'success',
    usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
  });
  w.close();
}

const dir = mkdtempSync(join(tmpdir(), 'patchloop-html-bench-'));
try {
  const transcript = join(dir, 'run.jsonl');
  writeTranscript(transcript);
  const text = readFileSync(transcript, 'utf8');

  const parseTimes: number[] = [];
  const renderTimes: number[] = [];
  let html = '';
  for (let r = 0; r < ROUNDS; r++) {
    let t0 = performance.now();
    for (const line of text.split('\n')) if (line) JSON.parse(line);
    parseTimes.push(performance.now() - t0);
    t0 = performance.now();
    html = renderHtml(buildRunView(parseTranscript(text)));
    renderTimes.push(performance.now() - t0);
  }
  const page = join(dir, 'run.html');
  writeFileSync(page, html);
  const baseline = join(dir, 'baseline.html');
  writeFileSync(baseline, `<!doctype html><meta charset="utf-8"><pre>${escapeHtml(text)}</pre>`);

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu'],
  });
  const load = async (file: string): Promise<number> => {
    const tab = await browser.newPage();
    await tab.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    // Evaluated in the page: from the start of navigation to the end of the load event.
    const ms = Number(
      await tab.evaluate(
        "(() => { const n = performance.getEntriesByType('navigation')[0]; return n.loadEventEnd - n.startTime; })()",
      ),
    );
    await tab.close();
    return ms;
  };
  const pageTimes: number[] = [];
  const baseTimes: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    baseTimes.push(await load(baseline));
    pageTimes.push(await load(page));
  }
  await browser.close();

  const kib = (p: string) => `${(statSync(p).size / 1024).toFixed(0)} KiB`;
  console.log(`${TURNS} turns: transcript ${kib(transcript)}, page ${kib(page)} (goal < 2048 KiB)`);
  console.log(
    `render in Node: ${median(renderTimes).toFixed(1)} ms = ${(median(renderTimes) / median(parseTimes)).toFixed(1)}× JSON.parse of the transcript (${median(parseTimes).toFixed(1)} ms)`,
  );
  console.log(
    `load in Chromium: ${median(pageTimes).toFixed(0)} ms = ${(median(pageTimes) / median(baseTimes)).toFixed(2)}× a plain <pre> page of the transcript (${median(baseTimes).toFixed(0)} ms); goal < 1000 ms`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
