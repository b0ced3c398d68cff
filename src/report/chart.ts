import type { Usage } from '../protocol/types.js';
import { formatTokens } from './format.js';

// Tokens per turn as a small inline SVG: the context the model read (input + cache) and what it
// wrote, stacked. Two paths whatever the number of turns, so 500 turns cost a few dozen KB.

export interface ChartOptions {
  width?: number;
  height?: number;
}

function r(n: number): string {
  return String(Math.round(n * 10) / 10);
}

export function tokensChartSvg(usages: readonly Usage[], options: ChartOptions = {}): string {
  const width = options.width ?? 800;
  const height = options.height ?? 140;
  const top = 14;
  const bottom = 16;
  const plot = height - top - bottom;
  const n = usages.length;
  if (n === 0) return '';
  const context = usages.map((u) => u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens);
  const output = usages.map((u) => u.outputTokens);
  const max = Math.max(1, ...context.map((c, i) => c + output[i]!));
  const step = width / n;
  const bar = Math.max(0.5, step * 0.8);
  let ctxPath = '';
  let outPath = '';
  for (let i = 0; i < n; i++) {
    const x = i * step + (step - bar) / 2;
    const hc = (context[i]! / max) * plot;
    const ho = (output[i]! / max) * plot;
    const base = top + plot;
    if (hc > 0) ctxPath += `M${r(x)} ${r(base - hc)}h${r(bar)}v${r(hc)}h${r(-bar)}z`;
    if (ho > 0) outPath += `M${r(x)} ${r(base - hc - ho)}h${r(bar)}v${r(ho)}h${r(-bar)}z`;
  }
  return [
    `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" data-turns="${n}">`,
    `<title>Tokens per turn: context read (input and cache) and output written</title>`,
    `<line x1="0" y1="${top + plot}" x2="${width}" y2="${top + plot}" class="axis"/>`,
    `<path class="c-ctx" d="${ctxPath}"/>`,
    `<path class="c-out" d="${outPath}"/>`,
    `<rect class="c-hover" x="0" y="${top}" width="${r(step)}" height="${plot}" visibility="hidden"/>`,
    `<text x="2" y="10" class="c-label">${formatTokens(max)} tokens</text>`,
    `<text x="2" y="${height - 3}" class="c-label">turn 1</text>`,
    `<text x="${width - 2}" y="${height - 3}" class="c-label" text-anchor="end">turn ${n}</text>`,
    `</svg>`,
  ].join('');
}
