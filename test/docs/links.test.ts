// The Markdown pages' links, as CI checks them (scripts/check-links.mjs), and the checker itself
// on pages with broken links.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anchorsOf, checkLinks, slug } from '../../scripts/check-links.mjs';

const ROOT = process.cwd();
const SCRIPT = join(ROOT, 'scripts', 'check-links.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function site(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'patchloop-links-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const checker = (cwd: string) => spawnSync(process.execPath, [SCRIPT], { cwd, encoding: 'utf8' });

describe('the link check', () => {
  it('finds every relative link and anchor of README.md, docs/, SECURITY.md and CHANGELOG.md resolving', () => {
    const r = checker(ROOT);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^links: \d+ page\(s\), 0 broken$/m);
    expect(r.status).toBe(0);
  });

  it('fails on a missing file, a missing heading, a bad URL and a link out of the repository', () => {
    const dir = site({
      'README.md': [
        '# Title',
        '',
        'See [setup](docs/setup.md), [config](docs/configuration.md#every-input) and [gone](docs/gone.md).',
        'Also [here](#no-such-heading), [there](#title), [bad](https://) and [out](../elsewhere.md).',
        '',
        '```md',
        '[inside a code block](not-checked.md)',
        '```',
        'and `[inside code](not-checked-either.md)`.',
      ].join('\n'),
      'docs/setup.md': '# Set-up\n',
      'docs/configuration.md':
        '# Configuration\n\n## Every input\n\nBack to the [README](../README.md#title).\n',
    });
    const r = checker(dir);
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual([
      'README.md:3: docs/gone.md — names docs/gone.md, which does not exist',
      'README.md:4: #no-such-heading — names #no-such-heading, which is no heading of README.md',
      'README.md:4: https:// — is not a valid URL',
      'README.md:4: ../elsewhere.md — leaves the repository',
    ]);
    expect(r.stdout).toMatch(/links: 3 page\(s\), 4 broken/);
  });

  it('makes anchors as GitHub does', () => {
    expect(slug("CI on patchloop's PRs")).toBe('ci-on-patchloops-prs');
    expect(slug('Two stages: what each job can do if compromised')).toBe(
      'two-stages-what-each-job-can-do-if-compromised',
    );
    expect(slug('`patchloop run`')).toBe('patchloop-run');
    expect(slug('Hidden markers (issue 23)')).toBe('hidden-markers-issue-23');
    expect(slug('The [CLI](cli.md) and **more**')).toBe('the-cli-and-more');
    expect(slug('snake_case names')).toBe('snake_case-names');
    expect([...anchorsOf('# A\n## A\n```\n# not a heading\n```\n## A\n')]).toEqual(['a', 'a-1', 'a-2']);
  });

  it('checks external links without fetching them', () => {
    const dir = site({
      'README.md': '[ok](https://example.invalid/x) [mail](mailto:a@example.com) [ftp](ftp://x)\n',
    });
    expect(checkLinks(dir)).toEqual(['README.md:1: ftp://x — uses the scheme ftp:']);
  });
});
