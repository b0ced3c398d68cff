import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { inCi } from '../support/requirements.js';
import type { DriverResult } from './keyring-driver.js';
import { createFixture, missingForSandbox, type Fixture } from './fixture.js';

// The session keyring each command gets of its own (claims i4a, i4b), done with Perl's syscall()
// where keyutils' keyctl is missing (the GitHub-hosted Ubuntu image has no keyutils), and with
// keyctl where Perl is missing. The sandbox is set up with one of the two taken as not installed
// (`hideBins`), in a driver process that runs in a session keyring of its own holding a key, as a
// runner's job does; a key is also put in the sandbox user's own user keyring just before each
// command. Real keys and real syscalls: a command must read neither, and with the defence left
// out it reads both. PL_WEAKEN=keyring leaves the defence out of the defended tests too, so that
// they are seen to fail.

const NUMBERS: Partial<Record<string, { keyctl: number; addKey: number }>> = {
  x64: { keyctl: 250, addKey: 248 },
  arm64: { keyctl: 219, addKey: 217 },
};
const nr = NUMBERS[process.arch];
const perl = ['/usr/bin/perl', '/bin/perl'].find((p) => existsSync(p));
const haveKeyctl = ['/usr/bin/keyctl', '/bin/keyctl', '/usr/sbin/keyctl', '/sbin/keyctl'].some((p) =>
  existsSync(p),
);
// the keyctl way is skipped where keyutils is missing, except in CI, which must test both ways
const noKeyctl = !haveKeyctl && !inCi();
const missing = inCi()
  ? undefined
  : (missingForSandbox({ keyctl: false }) ??
    (perl && nr ? undefined : 'the keyring tests need perl on x86_64 or aarch64'));
const weakened = (process.env.PL_WEAKEN ?? '').split(',').filter((w) => w === 'keyring') as ['keyring'] | [];

describe.skipIf(missing !== undefined)('session keyring without keyctl, and without perl', () => {
  let dir: string;
  let f: Fixture;
  beforeAll(async () => {
    f = createFixture();
    dir = mkdtempSync('/tmp/pl-sbx-keyring-');
    chmodSync(dir, 0o700);
    await build({
      entryPoints: [join(import.meta.dirname, 'keyring-driver.ts')],
      outfile: join(dir, 'driver.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'warning',
    });
  }, 60_000);
  afterAll(() => {
    f?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The driver, in a new session keyring of its own (joined by a Perl line of the test's). */
  function drive(
    options: Pick<SandboxOptions, 'hideBins' | 'weaken' | 'selfCheck'>,
    untilSeen = false,
    workspaceModule = false,
  ): DriverResult {
    const tag = randomBytes(6).toString('hex');
    const file = join(dir, `config-${tag}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        workspace: f.workspace,
        env: f.env,
        tag,
        nr,
        perl,
        options,
        tries: 5,
        untilSeen,
        workspaceModule,
      }),
      { mode: 0o600 },
    );
    const join_ = String.raw`syscall(0 + shift @ARGV, 1, undef) >= 0 or die "join: $!\n"; exec { $ARGV[0] } @ARGV or die "exec: $!\n";`;
    const r = spawnSync(
      perl!,
      ['-e', join_, '--', String(nr!.keyctl), process.execPath, join(dir, 'driver.mjs'), file],
      { encoding: 'utf8', env: process.env, timeout: 240_000 },
    );
    if (r.status !== 0) throw new Error(`the driver failed (${r.status ?? r.signal}): ${r.stderr}`);
    return JSON.parse(r.stdout) as DriverResult;
  }

  function expectHeld(r: DriverResult, program: RegExp) {
    expect(r.kind, r.reason).toBe('isolated');
    // commands are offered: isolated, with a session keyring of their own
    expect(r.reason).toMatch(/a session keyring of their own/);
    expect(r.launch?.[0]).toMatch(program);
    // the premises: a plain child of the driver reads its key, the sandbox user reads its own
    expect(r.parentKeyInherited).toBe(true);
    expect(r.userKeyPlanted).toBe(true);
    const out = r.outputs!.join('\n');
    expect(out).toMatch(/^exit 0\n/);
    expect(out).not.toContain(r.parentValue);
    expect(out).not.toContain(r.userValue);
    expect(out).not.toMatch(/^(read|found) /m);
    // /proc/keys does not list the parent's key to the command
    expect(out).toMatch(/^proc-keys 0$/m);
  }

  it("without keyctl, Perl gives each command its own session keyring: neither the parent's key nor the sandbox user's is read", () => {
    // with a Perl module of the workspace's in PERL5OPT and PERL5LIB (`command-env`), which the
    // command's own perl loads, but the keyring step's (run before the new keyring is joined) must not
    const r = drive({ hideBins: ['keyctl'], weaken: weakened }, false, true);
    expectHeld(r, /\/perl$/);
    expect(r.outputs!.join('\n')).toMatch(/^module loaded$/m);
    expect(r.launch).not.toContain('patchloop-keyring');
  }, 240_000);

  it.skipIf(noKeyctl)(
    'without perl, keyctl does the same',
    () => {
      const r = drive({ hideBins: ['perl'], weaken: weakened });
      expectHeld(r, /\/(sh|dash|bash)$/);
      expect(r.launch?.slice(1, 5)).toEqual([
        '-c',
        expect.stringContaining('session -'),
        'patchloop-keyring',
        expect.stringMatching(/\/keyctl$/),
      ]);
    },
    240_000,
  );

  it('with the keyring defence left out (and no self-check), a command reads both keys', () => {
    const r = drive({ hideBins: ['keyctl'], weaken: ['keyring'], selfCheck: false }, true);
    expect(r.kind, r.reason).toBe('isolated');
    // setpriv starts the command's own shell: there is no keyring step
    expect(r.launch?.[0]).toMatch(/\/bash$/);
    const out = r.outputs!.join('\n');
    expect(out).toMatch(/^read /m);
    expect(out).toContain(r.parentValue);
    expect(out).toMatch(/^proc-keys 1$/m);
    // other test files run defended commands of the same user meanwhile, which empty its keyrings:
    // the user's key must get through at least once in a few tries
    expect(out).toContain(r.userValue);
  }, 240_000);

  for (const hidden of ['keyctl', 'perl'] as const)
    it.skipIf(hidden === 'perl' && noKeyctl)(
      `the self-check refuses a sandbox without its keyring defence (${hidden} taken as missing)`,
      () => {
        const r = drive({ hideBins: [hidden], weaken: ['keyring'] });
        expect(r.kind).toBe('failed');
        expect(r.reason).toMatch(/the sandbox self-check failed: the probe found: keyring-shared/);
      },
      240_000,
    );

  it('with neither perl nor keyctl, commands are not offered (fail closed)', () => {
    const r = drive({ hideBins: ['keyctl', 'perl'] });
    expect(r).toEqual({
      kind: 'unavailable',
      reason:
        'commands cannot be isolated: neither perl nor keyctl is installed (perl-base or keyutils): each command gets a keyring of its own with one of them',
    });
  }, 240_000);
});
