import { execFileSync, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAction, type BuiltAction } from '../action/harness.js';
import type { AnthropicTurn } from '../fakes/anthropic-server.js';
import {
  actionUnderTest,
  attack,
  BENIGN,
  FIX_CALL,
  git,
  makeFixture,
  originContent,
  plantRunSecrets,
  publicCopy,
  resultsSeen,
  SANDBOX_USER,
  switchOff,
  UNISOLATED,
  wrapperScript,
} from './attack-kit.js';
import { record } from './figures.js';

// Issue 11, attack classes "no bounds" (a sparse multi-GB file, a FIFO where patchloop reads its
// configuration) and "isolation set-up that fails open" as a fail-closed check: where isolation
// cannot be had the commands are not offered unless the workflow says so, and where it can be had
// but its set-up fails the run stops before the first model request.

const secrets = plantRunSecrets();
let action: BuiltAction;

beforeAll(async () => {
  action = await actionUnderTest(buildAction);
}, 120_000);
afterAll(() => action?.cleanup());

const root = process.platform === 'linux' && process.getuid?.() === 0;
const TEST_SH = '{ "name": "demo", "scripts": { "test": "sh ci/test.sh" } }\n';

describe.skipIf(!root)('bounds', () => {
  it('a sparse multi-GB file a command creates is left out of the commit and named, and delivery ends within the budget', async () => {
    const f = makeFixture();
    const script = [
      'set +e',
      'truncate -s 20G big.bin && echo sparse-20G-made || echo sparse-20G-refused',
      'truncate -s 1536M medium.bin && echo sparse-1536M-made || echo sparse-1536M-refused',
      'ls -ls big.bin medium.bin',
      "echo 'export const y = 2;' > src/extra.js",
      '',
    ].join('\n');
    const run = await attack({
      action,
      fixture: f,
      secrets,
      head: { 'package.json': TEST_SH, 'ci/test.sh': script },
      turns: [
        { toolCalls: [{ id: 'toolu_t1', name: 'run_tests', json: '{}' }] },
        { toolCalls: [FIX_CALL] },
        { text: 'Guarded div().' },
      ],
      inputs: { 'timeout-minutes': '1' },
      timeoutMs: 300_000,
    });
    try {
      const problems: string[] = [];
      if (run.r.signal) problems.push(`the run was killed after ${run.durationMs} ms`);
      // the agent's budget is one minute; delivery may take what the budget leaves, plus start and end
      if (run.durationMs > 90_000) problems.push(`the run took ${run.durationMs} ms`);
      const branch = run.r.outputs.branch;
      const tree = branch ? git(f.origin, 'ls-tree', '-r', '--name-only', branch).split('\n') : [];
      if (!tree.includes('src/extra.js'))
        problems.push(`the ordinary change was not delivered: ${run.log.slice(-1500)}`);
      const big: string[] = [];
      for (const name of ['big.bin', 'medium.bin']) {
        const st = lstatSync(join(f.work, name), { throwIfNoEntry: false });
        if (!st || st.size === 0) continue; // the file-size limit refused it
        big.push(name);
        if (tree.includes(name)) problems.push(`${name} (${st.size} bytes) was committed`);
        if (!run.comment.includes(name)) problems.push(`${name} is not named in the summary`);
      }
      if (run.leaks.length) problems.push(...run.leaks);
      const pushed = originContent(f.origin);
      if (pushed.largeBlobs.length)
        problems.push(`blobs of ${pushed.largeBlobs.join(', ')} bytes were pushed`);
      record('bounds: sparse file', {
        attacksTried: 1,
        attacksHeld: problems.length === 0 ? 1 : 0,
        runs: 1,
        secretChecks: Object.keys(run.outputs).length,
        secretsFound: run.leaks.length,
      });
      expect(problems).toEqual([]);
      // at least one of them exists: the staging limit, not only the file-size limit, was tried
      expect(big.length, 'neither sparse file could be made').toBeGreaterThan(0);
    } finally {
      await run.cleanup();
      f.cleanup();
    }
  }, 420_000);

  it('a test script that prints 3 GB: patchloop saves its first and last 8 MiB only, stops it at 1 GiB and tells the model, and the run completes', async () => {
    const f = makeFixture();
    // bounded at 3 GB, so that a run with the defence off cannot fill the disk either
    const script = [
      'echo FIRST-LINE-OF-OUTPUT',
      "yes 'a line the test prints again and again' | head -c 3G",
      'echo last-line-never-seen',
      '',
    ].join('\n');
    const run = await attack({
      action,
      fixture: f,
      secrets,
      head: { 'package.json': TEST_SH, 'ci/test.sh': script },
      turns: [
        { toolCalls: [{ id: 'toolu_t1', name: 'run_tests', json: '{}' }] },
        { toolCalls: [FIX_CALL] },
        { text: 'Guarded div().' },
      ],
      timeoutMs: 300_000,
    });
    try {
      const problems: string[] = [];
      // what patchloop wrote under RUNNER_TEMP for the run: the saved output above all
      const du = spawnSync('du', ['-sb', run.r.runnerTemp], { encoding: 'utf8' });
      const used = Number(du.stdout.split('\t')[0]);
      if (!(used < 64 * 1024 ** 2)) problems.push(`RUNNER_TEMP holds ${used} bytes`);
      const logs = spawnSync('find', [run.r.runnerTemp, '-name', '*.log', '-size', '+1M'], {
        encoding: 'utf8',
      })
        .stdout.split('\n')
        .filter(Boolean);
      if (logs.length !== 1) problems.push(`saved outputs: ${logs.join(', ') || 'none'}`);
      else {
        const fd = openSync(logs[0]!, 'r');
        const head = Buffer.alloc(512);
        readSync(fd, head, 0, 512, 0);
        closeSync(fd);
        // npm's own lines about the script come first
        if (!head.toString().includes('\nFIRST-LINE-OF-OUTPUT\n'))
          problems.push('the saved output lost its head');
        if (
          statSync(logs[0]!).size < 16 * 1024 ** 2 ||
          spawnSync('grep', ['-c', 'of output dropped here', logs[0]!], {
            encoding: 'utf8',
          }).stdout.trim() !== '1'
        )
          problems.push('the saved output does not say what was dropped');
      }
      const seen = resultsSeen(run.model);
      if (
        !/printed more than 1\.00 GB of output/.test(seen) ||
        !/so it and all its processes were stopped/.test(seen)
      )
        problems.push('the model was not told the command was stopped for its output');
      if (!/in between were dropped/.test(seen))
        problems.push('the model was not told what the saved output left out');
      if (seen.includes('last-line-never-seen')) problems.push('the command was not stopped');
      if (!run.r.outputs.conclusion) problems.push('no conclusion');
      if (!run.comment || /is working on this/.test(run.comment)) problems.push('no summary comment');
      const branch = run.r.outputs.branch;
      const tree = branch ? git(f.origin, 'ls-tree', '-r', '--name-only', branch).split('\n') : [];
      if (!tree.includes('src/math.js')) problems.push(`the fix was not delivered: ${run.log.slice(-1500)}`);
      if (run.leaks.length) problems.push(...run.leaks);
      record('bounds: output', {
        attacksTried: 1,
        attacksHeld: problems.length === 0 ? 1 : 0,
        runs: 1,
        secretChecks: Object.keys(run.outputs).length,
        secretsFound: run.leaks.length,
      });
      expect(problems).toEqual([]);
    } finally {
      await run.cleanup();
      f.cleanup();
    }
  }, 420_000);

  it('a FIFO named package.json does not freeze the run: it ends with a summary and the credential restored', async () => {
    const f = makeFixture();
    const script = 'rm -f package.json && mkfifo package.json && echo fifo-made\n';
    const turns: AnthropicTurn[] = [
      { toolCalls: [{ id: 'toolu_t1', name: 'run_tests', json: '{}' }] },
      {
        toolCalls: [
          { id: 'toolu_t2', name: 'run_tests', json: '{}' },
          { id: 'toolu_r1', name: 'read_file', json: '{"path":"package.json"}' },
          { id: 'toolu_g1', name: 'grep', json: '{"pattern":"scripts"}' },
          { id: 'toolu_f1', name: 'find_files', json: '{"pattern":"*.json"}' },
          { id: 'toolu_e1', name: 'edit_file', json: '{"path":"package.json","oldText":"a","newText":"b"}' },
        ],
      },
      { toolCalls: [FIX_CALL] },
      { text: 'Guarded div().' },
    ];
    const run = await attack({
      action,
      fixture: f,
      secrets,
      head: { 'package.json': TEST_SH, 'ci/test.sh': script },
      turns,
      inputs: { 'timeout-minutes': '1' },
      timeoutMs: 180_000,
    });
    try {
      const problems: string[] = [];
      if (run.r.signal) problems.push(`the run froze and was killed after ${run.durationMs} ms`);
      if (run.durationMs > 90_000) problems.push(`the run took ${run.durationMs} ms`);
      if (!run.r.outputs.conclusion) problems.push('no conclusion');
      if (!run.comment || /is working on this/.test(run.comment)) problems.push('no summary comment');
      const fifo = lstatSync(join(f.work, 'package.json'), { throwIfNoEntry: false });
      if (!fifo?.isFIFO()) problems.push('the FIFO was not made: the attack did not happen');
      let header = '';
      try {
        header = git(f.work, 'config', '--local', '--get', 'http.https://github.com/.extraheader');
      } catch {
        // not there
      }
      if (header !== secrets.checkoutHeader) problems.push('the checkout credential was not restored');
      if (run.leaks.length) problems.push(...run.leaks);
      record('bounds: FIFO', {
        attacksTried: 1,
        attacksHeld: problems.length === 0 ? 1 : 0,
        runs: 1,
        secretChecks: Object.keys(run.outputs).length,
        secretsFound: run.leaks.length,
      });
      expect(problems).toEqual([]);
    } finally {
      await run.cleanup();
      f.cleanup();
    }
  }, 300_000);
});

describe.skipIf(!root)('fail closed', () => {
  const ONE_TURN: AnthropicTurn[] = [{ text: 'Nothing to do.' }];

  interface Offered {
    tools: string[];
    comment: string;
    log: string;
    leaks: string[];
  }

  /** Runs the action twice where isolation cannot be had: without and with allow-unisolated-commands. */
  async function whereUnavailable(how: 'no-sudo' | 'no-namespaces'): Promise<[Offered, Offered]> {
    const nobody = 65534;
    const results: Offered[] = [];
    for (const allowed of [false, true]) {
      const f = makeFixture();
      const bundle = publicCopy(action, f.root);
      const home = join(f.root, 'home-user');
      mkdirSync(home);
      const wrapper =
        how === 'no-sudo'
          ? // a self-hosted runner's user: not root, no passwordless sudo
            wrapperScript(
              f.root,
              'as-nobody',
              `chown -R ${nobody}:${nobody} ${f.root} "$RUNNER_TEMP" && chmod 755 "$RUNNER_TEMP"`,
              [
                'setpriv',
                '--reuid',
                String(nobody),
                '--regid',
                String(nobody),
                '--clear-groups',
                '--',
                '/usr/bin/env',
                `HOME=${home}`,
                process.execPath,
                bundle,
              ],
            )
          : // an unprivileged container: root, but without the capabilities namespaces need
            wrapperScript(f.root, 'no-caps', 'true', [
              'setpriv',
              '--inh-caps=-all',
              '--bounding-set=-all',
              '--',
              process.execPath,
              bundle,
            ]);
      if (how === 'no-sudo') {
        const sudo = execFileSync(
          'setpriv',
          [
            '--reuid',
            String(nobody),
            '--regid',
            String(nobody),
            '--clear-groups',
            'sh',
            '-c',
            'sudo -n true 2>&1; echo rc=$?',
          ],
          { encoding: 'utf8' },
        );
        expect(sudo).not.toMatch(/rc=0/);
      } else {
        const ns = spawnSync('setpriv', [
          '--inh-caps=-all',
          '--bounding-set=-all',
          '--',
          'unshare',
          '--mount',
          '--pid',
          '--fork',
          'true',
        ]);
        expect(ns.status, 'namespaces are still possible without capabilities').not.toBe(0);
      }
      const run = await attack({
        action,
        fixture: f,
        secrets,
        script: wrapper,
        event: 'issue',
        turns: ONE_TURN,
        inputs: { 'allow-bash': 'true', ...(allowed ? { 'allow-unisolated-commands': 'true' } : {}) },
      });
      try {
        results.push({ tools: run.toolsOffered, comment: run.comment, log: run.log, leaks: run.leaks });
      } finally {
        await run.cleanup();
        execFileSync('rm', ['-rf', f.root]);
      }
    }
    const [closed, open] = results as [Offered, Offered];
    const held =
      !closed.tools.includes('run_tests') &&
      !closed.tools.includes('bash') &&
      open.tools.includes('run_tests') &&
      open.tools.includes('bash');
    record(`fail closed: ${how}`, {
      attacksTried: 1,
      attacksHeld: held ? 1 : 0,
      runs: 2,
      secretChecks: 20,
      secretsFound: closed.leaks.length + open.leaks.length,
    });
    return [closed, open];
  }

  for (const how of ['no-sudo', 'no-namespaces'] as const) {
    it(`where isolation cannot be had (${how === 'no-sudo' ? 'not root, no passwordless sudo' : 'root without the capabilities for namespaces, as in an unprivileged container'}): run_tests and bash are offered only with allow-unisolated-commands, and the comment says why`, async () => {
      const [closed, open] = await whereUnavailable(how);
      expect(closed.tools, closed.log.slice(-3000)).toContain('read_file');
      expect(closed.tools).not.toContain('run_tests');
      expect(closed.tools).not.toContain('bash');
      // the comment says why tests could not run
      expect(closed.comment).toMatch(/isolat/i);
      expect(closed.comment).toMatch(/run_tests|tests/);
      expect(open.tools, open.log.slice(-3000)).toContain('run_tests');
      expect(open.tools).toContain('bash');
      expect(`${open.comment}\n${open.log}`).toMatch(UNISOLATED);
      expect([...closed.leaks, ...open.leaks]).toEqual([]);
    }, 300_000);
  }

  it('where isolation can be had but its set-up fails (the sandbox user cannot be created): the run stops before the first model request and says why', async () => {
    const f = makeFixture();
    const etc = join(f.root, 'etc');
    mkdirSync(etc);
    // a mount namespace of this run only: the account files without the sandbox user, read-only,
    // and the account tools failing; everything else as on the machine
    const setup = [
      'set -e',
      `for x in passwd group shadow gshadow; do [ -e /etc/$x ] || continue; grep -v '^${SANDBOX_USER}:' /etc/$x > ${etc}/$x || true; mount --bind ${etc}/$x /etc/$x; mount -o remount,ro,bind /etc/$x; done`,
      'for b in /usr/sbin/useradd /usr/sbin/adduser /usr/sbin/groupadd /usr/sbin/addgroup /usr/sbin/usermod; do [ -e $b ] && mount --bind /bin/false $b; done',
      `if getent passwd ${SANDBOX_USER}; then exit 97; fi`,
    ].join('\n');
    // the mounts are made by a node process inside the namespace, which then starts the bundle
    // (a shell in between would drop the INPUT_* names, which are not shell identifiers)
    const inner = wrapperScript(f.root, 'inside-namespace', setup, [process.execPath, action.path]);
    const wrapper = wrapperScript(f.root, 'no-sandbox-user', 'true', [
      'unshare',
      '--mount',
      '--propagation',
      'private',
      '--',
      process.execPath,
      inner,
    ]);
    const run = await attack({
      action,
      fixture: f,
      secrets,
      script: wrapper,
      event: 'issue',
      turns: [{ toolCalls: [{ id: 'toolu_t1', name: 'run_tests', json: '{}' }] }, { text: 'done' }],
      inputs: { 'allow-bash': 'true' },
    });
    try {
      const held = run.model.requests.length === 0 && run.r.outputs.conclusion === 'failure';
      record('fail closed: set-up fails', {
        attacksTried: 1,
        attacksHeld: held ? 1 : 0,
        runs: 1,
        secretChecks: Object.keys(run.outputs).length,
        secretsFound: run.leaks.length,
      });
      expect(run.model.requests, run.log.slice(-3000)).toHaveLength(0);
      expect(run.r.outputs.conclusion).toBe('failure');
      expect(run.comment).toMatch(/isolat|sandbox/i);
      expect(run.comment).not.toMatch(/is working on this/);
      expect(run.leaks).toEqual([]);
      // and the machine's own account files are untouched
      expect(existsSync('/etc/passwd') && statSync('/etc/passwd').size > 0).toBe(true);
      expect(execFileSync('getent', ['passwd', SANDBOX_USER], { encoding: 'utf8' })).toContain(SANDBOX_USER);
    } finally {
      await run.cleanup();
      f.cleanup();
    }
  }, 300_000);
  it('where the sandbox self-check fails after the first model request went out (commands would see the whole environment): no tool runs, the run fails and says why', async () => {
    // a bundle whose commands get the job's whole environment (the `env-allow` switch): the
    // self-check's planted variable shows, so the check fails, now beside the first model request
    // (a defence-off run of the suite switches its defences off in this bundle too)
    const weak = await buildAction();
    const off = (process.env.PL_DEFENCE_OFF ?? '').split(',').filter(Boolean);
    switchOff(dirname(weak.path), ['env-allow', ...off]);
    const f = makeFixture();
    const script = ['env > env-seen.txt', 'echo ran > ran.txt', 'env', ''].join('\n');
    const run = await attack({
      action: weak,
      fixture: f,
      secrets,
      head: { 'package.json': TEST_SH, 'ci/test.sh': script },
      turns: [{ toolCalls: [{ id: 'toolu_t1', name: 'run_tests', json: '{}' }, FIX_CALL] }, { text: 'done' }],
    });
    try {
      const ran = existsSync(join(f.work, 'ran.txt'));
      const held =
        run.model.requests.length === 1 &&
        run.r.outputs.conclusion === 'failure' &&
        !ran &&
        !run.leaks.length;
      record('fail closed: self-check fails beside the first request', {
        attacksTried: 1,
        attacksHeld: held ? 1 : 0,
        runs: 1,
        secretChecks: Object.keys(run.outputs).length,
        secretsFound: run.leaks.length,
      });
      // the first request went out beside the set-up; its calls waited and never ran
      expect(run.model.requests, run.log.slice(-3000)).toHaveLength(1);
      expect(ran, 'the test script ran').toBe(false);
      expect(readFileSync(join(f.work, 'src/math.js'), 'utf8')).toBe(BENIGN['src/math.js']);
      expect(run.r.outputs.conclusion).toBe('failure');
      expect(run.comment).toMatch(/sandbox could not be set up, so nothing was run/);
      expect(run.comment).toMatch(/self-check failed/);
      expect(run.leaks).toEqual([]);
      // nothing was committed or pushed
      expect(run.r.outputs.branch ?? '').toBe('');
      expect(git(f.origin, 'for-each-ref', '--format=%(refname)', 'refs/heads')).not.toMatch(/patchloop/);
    } finally {
      await run.cleanup();
      f.cleanup();
      weak.cleanup();
    }
  }, 300_000);
});
