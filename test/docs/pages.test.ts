// What the README and docs/ promise about themselves: a short README, every input and output of
// action.yml on the configuration page, the quickstart as the example workflow, and no reference
// to a file users do not have.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));

/** The names under `inputs:` or `outputs:` of action.yml, with each input's default. */
function actionEntries(section: 'inputs' | 'outputs'): { name: string; default?: string }[] {
  const text = read('action.yml');
  const block = new RegExp(`^${section}:\\n((?:  .*\\n|\\n)*)`, 'm').exec(text)![1]!;
  const entries: { name: string; default?: string }[] = [];
  for (const line of block.split('\n')) {
    const name = /^ {2}([a-z-]+):$/.exec(line)?.[1];
    if (name) entries.push({ name });
    const dflt = /^ {4}default: (.*)$/.exec(line)?.[1];
    if (dflt !== undefined) entries.at(-1)!.default = dflt.replace(/^'(.*)'$/, '$1');
  }
  return entries;
}

/** A workflow without its comments and blank lines, for comparing two copies of it. */
const bare = (yaml: string) =>
  yaml
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trimEnd())
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'))
    .join('\n');

describe('the README', () => {
  it('is short: what it is, the demo, the quickstart, links', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links every page of docs/', () => {
    const readme = read('README.md');
    for (const page of docs) expect(readme, page).toContain(`(docs/${page})`);
  });

  it('shows the quickstart exactly as examples/workflows/comment-trigger.yml, with a cost cap', () => {
    const quickstart = /```yaml\n([\s\S]*?)```/.exec(read('README.md'))![1]!;
    expect(quickstart).toMatch(/^ {10}max-cost-usd: '\d+'$/m);
    expect(bare(quickstart)).toBe(bare(read('examples/workflows/comment-trigger.yml')));
  });

  it('shows a SHA-pinned uses: line with its release in a comment', () => {
    expect(read('README.md')).toMatch(
      /uses: patchloop\/patchloop@(?:[0-9a-f]{40}|SHA_OF_V0_1_0) # v0\.1\.0$/m,
    );
  });
});

describe('docs/', () => {
  it('the configuration page has a row for every input of action.yml, with its default', () => {
    const page = read('docs/configuration.md');
    const inputs = actionEntries('inputs');
    expect(inputs.length).toBeGreaterThan(30);
    const missing = inputs.filter(({ name, default: d }) => {
      const row = new RegExp(`^\\| \`${name}\` +\\| ([^|]+?) +\\|`, 'm').exec(page);
      if (!row) return true;
      return d === '' || d === undefined ? row[1] !== 'empty' : row[1] !== `\`${d}\``;
    });
    expect(missing.map((i) => i.name)).toEqual([]);
  });

  it('the configuration page has a row for every output of action.yml', () => {
    const page = read('docs/configuration.md');
    const outputs = actionEntries('outputs');
    expect(outputs.length).toBeGreaterThan(15);
    expect(outputs.filter(({ name }) => !page.includes(`| \`${name}\` `)).map((o) => o.name)).toEqual([]);
  });

  it('refer to no file users do not have (the contract, notes)', () => {
    for (const page of ['README.md', ...docs.map((d) => `docs/${d}`)])
      expect(read(page), page).not.toMatch(/CONTRACT|§\s?\d/);
  });
});
