import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/github/octokit.js';
import { checkPermission, effectiveLevel } from '../../src/github/permission.js';
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.js';

let gh: FakeGitHub;
beforeAll(async () => {
  gh = await startFakeGitHub();
  gh.setPermission('admin-ann', 'admin');
  gh.setPermission('maint-max', 'maintain');
  gh.setPermission('writer-wes', 'write');
  gh.setPermission('triage-tia', 'triage');
  gh.setPermission('reader-rae', 'read');
  gh.setPermission('custom-cal', 'write', 'security-reviewer');
});
afterAll(() => gh.stop());

const client = () =>
  createGitHubClient({ token: 'ghs_faketoken', baseUrl: gh.url, throttle: false, retryAfterBaseValue: 1 });
const check = (
  login: string,
  required: 'admin' | 'maintain' | 'write' | 'triage' | 'read',
  extra: { type?: string; allowedBots?: string[] } = {},
) =>
  checkPermission(client(), {
    owner: 'octo',
    repo: 'demo',
    actor: { login, type: extra.type ?? 'User' },
    required,
    allowedBots: extra.allowedBots ?? [],
  });

describe('who may trigger', () => {
  it('orders admin > maintain > write > triage > read, using role_name where the permission field is coarse', async () => {
    expect(await check('maint-max', 'maintain')).toMatchObject({ allowed: true, level: 'maintain' });
    expect(await check('writer-wes', 'maintain')).toMatchObject({ allowed: false, level: 'write' });
    expect(await check('triage-tia', 'triage')).toMatchObject({ allowed: true, level: 'triage' });
    expect(await check('triage-tia', 'write')).toMatchObject({ allowed: false, level: 'triage' });
    expect(await check('reader-rae', 'write')).toMatchObject({ allowed: false, level: 'read' });
    expect(await check('admin-ann', 'admin')).toMatchObject({ allowed: true });
    expect(await check('reader-rae', 'read')).toMatchObject({ allowed: true });
  });

  it('falls back to the permission field for a custom role', async () => {
    expect(effectiveLevel({ permission: 'write', role_name: 'security-reviewer' })).toBe('write');
    expect(await check('custom-cal', 'write')).toMatchObject({ allowed: true, level: 'write' });
  });

  it('refuses someone without access (404) with a clear reason', async () => {
    const d = await check('stranger', 'read');
    expect(d).toMatchObject({ allowed: false, level: 'none' });
    expect(d.reason).toMatch(/stranger has no access/);
  });

  it('lets bots in only through allowed-bots, with or without the [bot] suffix', async () => {
    expect(await check('renovate[bot]', 'write', { type: 'Bot' })).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/not listed in allowed-bots/),
    });
    expect(
      await check('renovate[bot]', 'write', { type: 'Bot', allowedBots: ['dependabot', 'Renovate'] }),
    ).toMatchObject({ allowed: true });
    expect(
      await check('dependabot[bot]', 'write', { type: 'Bot', allowedBots: ['dependabot[bot]'] }),
    ).toMatchObject({ allowed: true });
    const asked = gh
      .requestsTo('GET', /permission$/)
      .filter((r) => r.path.includes('%5Bbot%5D') || r.path.includes('[bot]'));
    expect(asked).toHaveLength(0);
  });

  it('fails closed, as a failed check, when GitHub keeps answering 500', async () => {
    gh.fail({ path: /writer-wes\/permission$/, status: 500, times: 10 });
    const d = await check('writer-wes', 'write');
    expect(d).toMatchObject({ allowed: false, failed: true });
    expect(d.reason).toMatch(/500/);
  });
});
