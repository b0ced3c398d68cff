// The delivery artifact's checks one by one, on a real repository: the manifest read strictly,
// provenance, symbolic link targets, and checkCommits over crafted commits.
import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkStaysInside, type GitAt } from '../../src/git/bundle.js';
import { createGitRunner, resolveGit } from '../../src/git/index.js';
import {
  checkCommits,
  checkProvenance,
  DeliveryCheckError,
  parseManifest,
} from '../../src/github/delivery/delivery-artifact.js';
import { git, makeRepo, writeFiles, type RepoFixture } from './git-fixtures.js';

const POLICY = { protectedPaths: ['.github/workflows/**'], maxFileBytes: 1000 };

let repo: RepoFixture | undefined;
afterEach(() => repo?.cleanup());

function at(dir: string): GitAt {
  return { runner: createGitRunner(resolveGit({ workspace: dir })), call: { cwd: dir } };
}

function commit(dir: string, change: () => void): string {
  change();
  git(dir, 'add', '-A');
  git(dir, 'commit', '--quiet', '-m', 'c');
  return git(dir, 'rev-parse', 'HEAD');
}

async function failedCheck(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    if (err instanceof DeliveryCheckError) return err.check;
    throw err;
  }
}

describe('linkStaysInside', () => {
  it('accepts relative targets inside the tree, refuses absolute ones and climbs past the root', () => {
    expect(linkStaysInside('a/b/link', '../c')).toBe(true);
    expect(linkStaysInside('link', 'src/x')).toBe(true);
    expect(linkStaysInside('link', '/etc/passwd')).toBe(false);
    expect(linkStaysInside('a/link', '../../x')).toBe(false);
    expect(linkStaysInside('a/link', '..\\..\\x')).toBe(false);
    expect(linkStaysInside('link', 'C:/x')).toBe(false);
    expect(linkStaysInside('link', '..')).toBe(false);
  });
});

describe('checkCommits', () => {
  it('passes an ordinary change and names each refused one', async () => {
    repo = makeRepo();
    const dir = repo.work;
    const g = at(dir);
    const base = git(dir, 'rev-parse', 'HEAD');
    const ok = commit(dir, () => writeFiles(dir, { 'src/math.js': 'x\n', 'docs/a.md': 'a\n' }));
    await expect(checkCommits(g, base, ok, POLICY)).resolves.toBeUndefined();

    const wf = commit(dir, () => writeFiles(dir, { '.github/workflows/ci.yml': 'on: push\n' }));
    expect(await failedCheck(checkCommits(g, base, wf, POLICY))).toBe('protected-paths');
    // a later commit that removes it again does not hide it: every commit is checked
    const undone = commit(dir, () => git(dir, 'rm', '--quiet', '.github/workflows/ci.yml'));
    expect(await failedCheck(checkCommits(g, base, undone, POLICY))).toBe('protected-paths');

    git(dir, 'reset', '--quiet', '--hard', base);
    const big = commit(dir, () => writeFiles(dir, { 'big.bin': 'x'.repeat(1001) }));
    expect(await failedCheck(checkCommits(g, base, big, POLICY))).toBe('size limit');

    git(dir, 'reset', '--quiet', '--hard', base);
    const inside = commit(dir, () => symlinkSync('src/math.js', join(dir, 'ok-link')));
    await expect(checkCommits(g, base, inside, POLICY)).resolves.toBeUndefined();
    const outside = commit(dir, () => symlinkSync('../../outside', join(dir, 'src', 'bad-link')));
    expect(await failedCheck(checkCommits(g, base, outside, POLICY))).toBe('symlink inside the tree');

    git(dir, 'reset', '--quiet', '--hard', base);
    const gitlink = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir }).toString().trim();
    git(dir, 'update-index', '--add', '--cacheinfo', `160000,${gitlink},lib`);
    git(dir, 'commit', '--quiet', '-m', 'submodule');
    const sub = git(dir, 'rev-parse', 'HEAD');
    expect(await failedCheck(checkCommits(g, base, sub, POLICY))).toBe('no submodule change');

    expect(await failedCheck(checkCommits(g, base, base, POLICY))).toBe('commits');
  });
});

describe('the manifest', () => {
  const good = {
    schema: 2,
    repository: 'octo/demo',
    runId: '5',
    runAttempt: '1',
    workflowRef: '',
    baseCommit: 'a'.repeat(40),
    headCommit: 'b'.repeat(40),
    branch: 'patchloop/issue-1-x',
    prHead: false,
    prBase: 'main',
    openPr: true,
    draft: true,
    prTitle: 't',
    prBody: 'b',
    commentText: 'c',
    summary: {
      conclusion: 'success',
      models: ['m'],
      turns: 1,
      usage: {},
      changedFiles: [],
      toolLog: [],
    },
    outputs: { conclusion: 'success', model: 'm', turns: 1, usage: {} },
    marker: { sessionId: '5-1-1', artifactName: 'patchloop-transcript-1-5-1-agent' },
  };

  it('is read strictly', () => {
    expect(parseManifest(JSON.stringify(good)).branch).toBe('patchloop/issue-1-x');
    for (const bad of [
      { ...good, schema: 1 },
      { ...good, outputs: { ...good.outputs, conclusion: 'won' } },
      { ...good, outputs: { ...good.outputs, turns: '3' } },
      { ...good, prTitle: 'x'.repeat(300) },
      { ...good, extra: 1 },
      { ...good, baseCommit: 'HEAD~1' },
      { ...good, prHead: 'yes' },
      { ...good, commentId: -1 },
      { ...good, marker: { sessionId: '5-1', artifactName: 'someone-else' } },
    ]) {
      expect(() => parseManifest(JSON.stringify(bad))).toThrow(/Delivery check "manifest"/);
    }
    expect(() => parseManifest('{')).toThrow(/not JSON/);
  });

  it('must come from this run of this repository', () => {
    const m = parseManifest(JSON.stringify(good));
    expect(() => checkProvenance(m, { GITHUB_REPOSITORY: 'octo/demo', GITHUB_RUN_ID: '5' })).not.toThrow();
    expect(() => checkProvenance(m, { GITHUB_REPOSITORY: 'octo/demo', GITHUB_RUN_ID: '6' })).toThrow(
      /same run/,
    );
    expect(() => checkProvenance(m, { GITHUB_REPOSITORY: 'evil/demo', GITHUB_RUN_ID: '5' })).toThrow(
      /same run/,
    );
  });
});
