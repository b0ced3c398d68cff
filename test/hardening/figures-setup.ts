import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { Figures } from './figures.js';

const COLUMNS: [keyof Figures, string][] = [
  ['fuzzCases', 'fuzz cases run'],
  ['escapesTried', 'escapes tried'],
  ['escapesRefused', 'escapes refused'],
  ['faultsInjected', 'faults injected'],
  ['faultsSurvived', 'faults survived'],
  ['attacksTried', 'attacks tried'],
  ['attacksHeld', 'attacks held'],
  ['runs', 'action runs'],
  ['secretChecks', 'outputs searched for secrets'],
  ['secretsFound', 'secrets found in outputs (must be 0)'],
];

/** Sums the recorded lines per group and overall, and renders them as a text table. */
export function figuresTable(jsonl: string): { table: string; totals: Required<Figures> } {
  const groups = new Map<string, Required<Figures>>();
  const empty = (): Required<Figures> =>
    Object.fromEntries(COLUMNS.map(([k]) => [k, 0])) as unknown as Required<Figures>;
  const totals = empty();
  for (const row of jsonl.split('\n')) {
    if (!row.trim()) continue;
    const line = JSON.parse(row) as Figures & { group: string };
    const g = groups.get(line.group) ?? empty();
    for (const [k] of COLUMNS) {
      const v = Number(line[k] ?? 0);
      g[k] += v;
      totals[k] += v;
    }
    groups.set(line.group, g);
  }
  const names = [...groups.keys()].sort();
  const header = ['figure', ...names, 'total'];
  const rows = COLUMNS.map(([k, label]) => [
    label,
    ...names.map((n) => String(groups.get(n)![k])),
    String(totals[k]),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  return { table: [line(header), rule, ...rows.map(line)].join('\n'), totals };
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'pl-figures-'));
  const file = join(dir, 'figures.jsonl');
  project.provide('figuresFile', file);
  return () => {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // no test recorded anything
    }
    rmSync(dir, { recursive: true, force: true });
    const { table, totals } = figuresTable(text);
    process.stdout.write(`\nHardening figures\n${table}\n`);
    if (totals.secretsFound > 0) throw new Error(`${totals.secretsFound} planted secret(s) found in outputs`);
  };
}
