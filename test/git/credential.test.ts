import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
