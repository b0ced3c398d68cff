import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  credentialEnv,
  GitRepo,
  restoreCheckoutCredential,
  takeCheckoutCredential,
} from '../../src/git/index.js';
import {
  git,
  gitAsync,
  makeRepo,
  startGitHttpServer,
  writeFiles,
  type GitHttpServer,
  type RepoFixture,
} from '../github/git-fixtures.js';

const TOKEN = 'ghs_checkoutTokenForTests0123456789';
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
const HEADER = `AUTHORIZATION: basic ${BASIC}`;

let repo: RepoFixture;
let server: GitHttpServer;
let runnerTemp: string;

beforeAll(async () => {
  repo = makeRepo();
  server = await startGitHttpServer(repo.root, `basic ${BASIC}`);
  runnerTemp = mkdtempSync(join(tmpdir(), 'patchloop-runner-temp-'));
});
afterAll(async () => {
  await server.stop();
  repo.cleanup();
  rmSync(runnerTemp, { recursive: true, force: true });
});

async function cloneOverHttp(name: string): Promise<string> {
  const dir = join(repo.root, name);
  await gitAsync(
    repo.root,
    '-c',
    `http.extraheader=${HEADER}`,
    'clone',
    '--quiet',
    `${server.url}/origin.git`,
    dir,
  );
  return dir;
}

async function fetchWorks(dir: string): Promise<boolean> {
  try {
    await gitAsync(dir, 'fetch', '--quiet', 'origin');
    return true;
  } catch {
    return false;
  }
}

describe('the checkout credential', () => {
  it('is moved out of .git/config (actions/checkout v4) and given to the push alone', async () => {
    const dir = await cloneOverHttp('v4');
    git(dir, 'config', '--local', `http.${server.url}/.extraheader`, HEADER);
    expect(await fetchWorks(dir)).toBe(true);

    const cred = await takeCheckoutCredential(dir, { runnerTemp });
    expect(cred.entries).toEqual([{ key: `http.${server.url}/.extraheader`, value: HEADER }]);
    expect(cred.secrets).toEqual(expect.arrayContaining([HEADER, BASIC, TOKEN]));
    expect(readFileSync(join(dir, '.git/config'), 'utf8')).not.toContain(BASIC);
    expect(git(dir, 'config', '--list')).not.toContain(BASIC);
    expect(await fetchWorks(dir)).toBe(false);

    writeFiles(dir, { 'notes.txt': 'hello\n' });
    const checkout = new GitRepo({ dir, credential: cred });
    await checkout.startBranch('patchloop/v4');
    expect((await checkout.commitChanges('add notes')).commit).not.toBeNull();
    const before = server.auths.length;
    const pushed = await checkout.push('patchloop/v4');
    expect(pushed).toMatchObject({ ok: true, branch: 'patchloop/v4', rebased: false });
    expect(server.auths.slice(before)).toContain(`basic ${BASIC}`);
    await checkout.writeBack(pushed.ok ? pushed : undefined);
    expect(git(repo.origin, 'rev-parse', 'refs/heads/patchloop/v4')).toBe(git(dir, 'rev-parse', 'HEAD'));
    expect(git(dir, 'rev-parse', 'refs/remotes/origin/patchloop/v4')).toBe(git(dir, 'rev-parse', 'HEAD'));
    expect(readFileSync(join(dir, '.git/config'), 'utf8')).not.toContain(BASIC);

    // After the run it goes back, once, so the workflow's later steps can push as before.
    await checkout.restoreCredential(cred);
    await checkout.restoreCredential(cred);
    expect(git(dir, 'config', '--local', '--get-all', `http.${server.url}/.extraheader`)).toBe(HEADER);
    expect(await fetchWorks(dir)).toBe(true);
  });

  it('is moved out of the includeIf credential file of actions/checkout v6, which is deleted', async () => {
    const dir = await cloneOverHttp('v6');
    const file = join(runnerTemp, 'git-credentials-0f8e4c2a-1b2c-4d5e-8f90-123456789abc.config');
    writeFileSync(file, `[http "${server.url}/"]\n\textraheader = ${HEADER}\n`);
    const gitDir = join(dir, '.git');
    git(dir, 'config', '--local', `includeIf.gitdir:${gitDir}.path`, file);
    git(dir, 'config', '--local', `includeIf.gitdir:${gitDir}/worktrees/*.path`, file);
    git(
      dir,
      'config',
      '--local',
      'includeIf.gitdir:/github/workspace/.git.path',
      '/github/runner_temp/git-credentials-0f8e4c2a-1b2c-4d5e-8f90-123456789abc.config',
    );
    expect(await fetchWorks(dir)).toBe(true);

    const cred = await takeCheckoutCredential(dir, { runnerTemp });
    expect(cred.entries).toEqual([{ key: `http.${server.url}/.extraheader`, value: HEADER }]);
    expect(existsSync(file)).toBe(false);
    expect(git(dir, 'config', '--list', '--show-origin')).not.toMatch(/includeif|git-credentials/i);
    expect(await fetchWorks(dir)).toBe(false);

    writeFiles(dir, { 'v6.txt': 'six\n' });
    const checkout = new GitRepo({ dir, credential: cred });
    await checkout.startBranch('patchloop/v6');
    await checkout.commitChanges('v6');
    expect(await checkout.push('patchloop/v6')).toMatchObject({ ok: true });
  });

  it('is empty, and harmless, when the checkout kept none', async () => {
    const cred = await takeCheckoutCredential(repo.work, { runnerTemp });
    expect(cred).toMatchObject({ entries: [], secrets: [], removed: [] });
    expect(credentialEnv(cred)).toEqual({ GIT_CONFIG_COUNT: '0' });
  });

  it('goes back into a checkout that was never isolated as well', async () => {
    const dir = await cloneOverHttp('plain');
    git(dir, 'config', '--local', `http.${server.url}/.extraheader`, HEADER);
    const cred = await takeCheckoutCredential(dir, { runnerTemp });
    expect(await fetchWorks(dir)).toBe(false);
    await restoreCheckoutCredential(dir, cred);
    expect(await fetchWorks(dir)).toBe(true);
  });

  it('refuses to push when origin was pointed elsewhere during the run', async () => {
    const dir = await cloneOverHttp('drift');
    git(dir, 'config', '--local', `http.${server.url}/.extraheader`, HEADER);
    const cred = await takeCheckoutCredential(dir, { runnerTemp });
    const checkout = new GitRepo({ dir, credential: cred });
    await checkout.isolate();
    git(dir, 'remote', 'set-url', 'origin', 'https://attacker.example/steal.git');
    writeFiles(dir, { 'x.txt': 'x\n' });
    await checkout.commitChanges('x');
    const pushed = await checkout.push('patchloop/drift');
    expect(pushed.ok).toBe(false);
    expect(pushed.ok ? '' : pushed.error).toMatch(/push URL changed/);
    expect(await checkout.restoreConfig()).toBe(true);
    expect(await checkout.push('patchloop/drift')).toMatchObject({ ok: true });
  });
});

// actions/checkout v4/v5 with `submodules:` (persist-credentials) writes the same header into each
// submodule's own config, nested ones included: `git config --file .git/modules/<name>/config`.
describe('the checkout credential in submodules', () => {
  const SUB_TOKEN = 'ghs_submoduleTokenForTests987654321';
  const SUB_BASIC = Buffer.from(`x-access-token:${SUB_TOKEN}`).toString('base64');
  const SUB_HEADER = `AUTHORIZATION: basic ${SUB_BASIC}`;
  const KEY = 'http.https://github.com/.extraheader';
  let superRepo: string;

  /** Publishes a bare repo `name` with one commit, and `subs` added as submodules. */
  function publish(name: string, subs: string[] = []): string {
    const bare = join(repo.root, `${name}.git`);
    git(repo.root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
    const seed = join(repo.root, `seed-${name}`);
    git(repo.root, 'clone', '--quiet', bare, seed);
    git(seed, 'checkout', '--quiet', '-B', 'main');
    writeFiles(seed, { [`${name}.txt`]: `${name}\n` });
    for (const sub of subs) {
      git(
        seed,
        '-c',
        'protocol.file.allow=always',
        'submodule',
        'add',
        '--quiet',
        sub,
        basename(sub, '.git'),
      );
    }
    git(seed, 'add', '-A');
    git(seed, 'commit', '--quiet', '-m', name);
    git(seed, 'push', '--quiet', 'origin', 'main');
    rmSync(seed, { recursive: true, force: true });
    return bare;
  }

  beforeAll(() => {
    superRepo = publish('super', [publish('lib', [publish('inner')])]);
  });

  /** A checkout of `super` with its submodules, lib's credential where actions/checkout puts it. */
  function checkout(name: string): { dir: string; lib: string; inner: string } {
    const dir = join(repo.root, name);
    git(
      repo.root,
      '-c',
      'protocol.file.allow=always',
      'clone',
      '--quiet',
      '--recurse-submodules',
      superRepo,
      dir,
    );
    git(dir, 'config', '--local', KEY, HEADER);
    const lib = join(dir, '.git/modules/lib/config');
    const inner = join(dir, '.git/modules/lib/modules/inner/config');
    git(dir, 'config', '--file', lib, KEY, SUB_HEADER);
    return { dir, lib, inner };
  }

  it('is taken out of .git/modules/<name>/config, redacted, and put back there exactly', async () => {
    const { dir, lib } = checkout('sub-take');
    const before = readFileSync(lib, 'utf8');
    expect(before).toContain(SUB_BASIC);

    const cred = await takeCheckoutCredential(dir, { runnerTemp });
    expect(readFileSync(lib, 'utf8')).not.toContain(SUB_BASIC);
    expect(git(join(dir, 'lib'), 'config', '--list')).not.toContain(SUB_BASIC);
    expect(cred.secrets).toEqual(expect.arrayContaining([SUB_HEADER, SUB_BASIC, SUB_TOKEN, HEADER]));
    // the push gets the checkout's own header, never a submodule's
    expect(cred.entries).toEqual([{ key: KEY, value: HEADER }]);
    expect(cred.removed).toContain(`${KEY} in .git/modules/lib/config`);

    // the way the action puts it back: through GitRepo, once it isolated the checkout
    const repoOf = new GitRepo({ dir, credential: cred });
    await repoOf.isolate();
    await repoOf.restoreCredential(cred);
    await repoOf.restoreCredential(cred);
    expect(readFileSync(lib, 'utf8')).toBe(before);
    expect(git(dir, 'config', '--local', '--get-all', KEY)).toBe(HEADER);
  });

  it('is taken out of a nested submodule’s config, .git/modules/<a>/modules/<b>/config, and put back', async () => {
    const { dir, lib, inner } = checkout('sub-nested');
    git(dir, 'config', '--file', inner, KEY, SUB_HEADER);
    const [libBefore, innerBefore] = [readFileSync(lib, 'utf8'), readFileSync(inner, 'utf8')];

    const cred = await takeCheckoutCredential(dir, { runnerTemp });
    expect(readFileSync(inner, 'utf8')).not.toContain(SUB_BASIC);
    expect(readFileSync(lib, 'utf8')).not.toContain(SUB_BASIC);
    expect(cred.removed).toContain(`${KEY} in .git/modules/lib/modules/inner/config`);

    await restoreCheckoutCredential(dir, cred);
    expect(readFileSync(inner, 'utf8')).toBe(innerBefore);
    expect(readFileSync(lib, 'utf8')).toBe(libBefore);
  });

  it('takes an unscoped http.extraheader, in .git/config and in a submodule’s config', async () => {
    const { dir, lib } = checkout('sub-unscoped');
    git(dir, 'config', '--local', '--unset-all', KEY);
    git(dir, 'config', '--local', 'http.extraheader', HEADER);
    git(dir, 'config', '--file', lib, 'http.extraheader', SUB_HEADER);

    const cred = await takeCheckoutCredential(dir, { runnerTemp });
    expect(readFileSync(join(dir, '.git/config'), 'utf8')).not.toContain(BASIC);
    expect(readFileSync(lib, 'utf8')).not.toContain(SUB_BASIC);
    expect(cred.entries).toEqual([{ key: 'http.extraheader', value: HEADER }]);
    expect(cred.secrets).toEqual(expect.arrayContaining([TOKEN, SUB_TOKEN]));

    await restoreCheckoutCredential(dir, cred);
    expect(git(dir, 'config', '--local', 'http.extraheader')).toBe(HEADER);
    expect(git(dir, 'config', '--file', lib, 'http.extraheader')).toBe(SUB_HEADER);
  });

  it('takes a header written in a form git reads but does not write, and nothing else', async () => {
    const { dir, lib } = checkout('sub-odd-form');
    const odd = [
      '[alias]',
      '\tnote = !echo one \\',
      '\textraheader = not a key: part of the alias above',
      `[http "https://github.com/"] extraheader = ${SUB_HEADER}`,
      '[HTTP]',
      `\tExtraHeader = "${SUB_HEADER}"`,
      '',
    ].join('\n');
    writeFileSync(lib, readFileSync(lib, 'utf8') + odd);
    await takeCheckoutCredential(dir, { runnerTemp });
    expect(readFileSync(lib, 'utf8')).not.toContain(SUB_BASIC);
    expect(git(dir, 'config', '--file', lib, 'alias.note')).toMatch(/^!echo one\s+extraheader = not a key/);
  });

  it('refuses a submodule config that is a symbolic link, neither following it nor taking anything', async () => {
    const { dir, lib } = checkout('sub-link');
    const elsewhere = join(repo.root, 'sub-link-target.config');
    writeFileSync(elsewhere, readFileSync(lib, 'utf8'));
    rmSync(lib);
    symlinkSync(elsewhere, lib);
    const before = readFileSync(elsewhere, 'utf8');

    await expect(takeCheckoutCredential(dir, { runnerTemp })).rejects.toThrow(/symbolic link/);
    expect(readFileSync(elsewhere, 'utf8')).toBe(before);
    expect(lstatSync(lib).isSymbolicLink()).toBe(true);
    expect(git(dir, 'config', '--local', KEY)).toBe(HEADER);
  });

  it('stops, with the credential put back, when a submodule config cannot be cleaned', async () => {
    const { dir, lib } = checkout('sub-locked');
    // git cannot lock the file, so its unset fails
    writeFileSync(`${lib}.lock`, '');
    await expect(takeCheckoutCredential(dir, { runnerTemp })).rejects.toThrow(/still holds/);
    expect(readFileSync(lib, 'utf8')).toContain(SUB_BASIC);
    expect(git(dir, 'config', '--local', KEY)).toBe(HEADER);
  });

  it('is taken out of a config.worktree as well, and put back', async () => {
    const { dir } = checkout('sub-worktree-config');
    const file = join(dir, '.git/config.worktree');
    git(dir, 'config', '--file', file, KEY, SUB_HEADER);
    const before = readFileSync(file, 'utf8');
    const cred = await takeCheckoutCredential(dir, { runnerTemp });
    expect(readFileSync(file, 'utf8')).not.toContain(SUB_BASIC);
    await restoreCheckoutCredential(dir, cred);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});
