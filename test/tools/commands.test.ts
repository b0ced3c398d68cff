import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBashTool } from '../../src/tools/bash.js';
import { detectTestCommand } from '../../src/tools/detect-test-command.js';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { createRunTestsTool } from '../../src/tools/run-tests.js';
import { createWorkspace } from '../../src/tools/workspace.js';
import { call, tempDir, textOf, writeFiles } from './helpers.js';

let dir: ReturnType<typeof tempDir>;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir.cleanup());

function project(files: Record<string, string>): string {
  const root = `${dir.path}/p${Math.random().toString(36).slice(2, 8)}`;
  writeFiles(root, files);
  return root;
}

describe('detectTestCommand', () => {
  const env = { PATH: '/usr/bin:/bin' };
  it.each([
    [{ 'package.json': '{"scripts":{"test":"vitest run"}}' }, 'npm test', '-- '],
    [{ 'pytest.ini': '[pytest]\n' }, expect.stringMatching(/^python3? -m pytest$/), ''],
    [{ 'pyproject.toml': '[tool.pytest.ini_options]\n' }, expect.stringMatching(/^python3? -m pytest$/), ''],
    [{ 'conftest.py': '' }, expect.stringMatching(/^python3? -m pytest$/), ''],
    [{ 'go.mod': 'module x\n' }, 'go test ./...', ''],
    [{ 'Cargo.toml': '[package]\n' }, 'cargo test', ''],
    [{ Makefile: 'build:\n\techo b\ntest: build\n\techo t\n' }, 'make test', ''],
  ])('%j → %s', (files, command, argsSeparator) => {
    expect(detectTestCommand(project(files), env)).toMatchObject({ command, argsSeparator });
  });

  it('ignores a FIFO named package.json instead of blocking on it', () => {
    const root = project({ 'go.mod': 'module x\n' });
    execFileSync('mkfifo', [`${root}/package.json`, `${root}/Makefile`]);
    // a blocking read would wait for a writer forever (the test would never end); it comes back
    expect(detectTestCommand(root, env)).toMatchObject({ command: 'go test ./...' });
  });

  it('ignores a package.json larger than any real one', () => {
    const big = `{"scripts":{"test":"vitest"},"x":"${'a'.repeat(1.5 * 1024 * 1024)}"}`;
    expect(detectTestCommand(project({ 'package.json': big }), env)).toBeUndefined();
  });

  it.each([
    [{ 'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}' }],
    [{ 'package.json': '{not json' }],
    [{ Makefile: 'build:\n\techo b\n' }],
    [{ 'README.md': '# nothing to run\n' }],
  ])('%j → none', (files) => {
    expect(detectTestCommand(project(files), env)).toBeUndefined();
  });
});

describe('run_tests', () => {
  it('runs the detected npm script with args after `--`, and reports a failure', async () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'node check.js' } }),
      'check.js':
        'console.log("args:", JSON.stringify(process.argv.slice(2))); process.exit(process.argv.includes("--fail") ? 1 : 0);\n',
    });
    const tool = createRunTestsTool(createWorkspace(root));
    const ok = await call([tool], 'run_tests', { args: '--only "a b"' });
    expect(ok.isError).toBe(false);
    expect(textOf(ok)).toMatch(
      /^\$ npm test -- --only 'a b' \(detected from package.json "test" script\)\nExit code 0 /,
    );
    expect(textOf(ok)).toContain('args: ["--only","a b"]');
    const failed = await call([tool], 'run_tests', { args: '--fail' });
    expect(failed.isError).toBe(true);
    expect(failed.details).toMatchObject({ exitCode: 1, timedOut: false, truncated: false });
  });

  it('passes args as literal words: shell syntax in them is never run', async () => {
    const root = project({
      'argv.js': 'console.log(JSON.stringify(process.argv.slice(2)));\n',
    });
    const tool = createRunTestsTool(createWorkspace(root), { testCommand: 'node argv.js' });
    const cases: [string, string[]][] = [
      ['; cat /etc/passwd', [';', 'cat', '/etc/passwd']],
      ['$(id) `id` a|b c&&d >out <in', ['$(id)', '`id`', 'a|b', 'c&&d', '>out', '<in']],
      [
        `"two words" 'single $HOME' back\\ slash "q\\"uote"`,
        ['two words', 'single $HOME', 'back slash', 'q"uote'],
      ],
      [`it's`, ['its']],
    ];
    for (const [args, words] of cases) {
      const r = await call([tool], 'run_tests', { args });
      expect(r.isError, textOf(r)).toBe(false);
      expect(JSON.parse(textOf(r).trim().split('\n').pop()!)).toEqual(words);
    }
    // nothing was redirected into the workspace, and /etc/passwd was never printed
    expect(existsSync(`${root}/out`)).toBe(false);
  });

  it('runs a Makefile test target', async () => {
    const root = project({ Makefile: 'test:\n\t@echo make-tests-ran\n' });
    const r = await call([createRunTestsTool(createWorkspace(root))], 'run_tests', {});
    expect(textOf(r)).toMatch(
      /^\$ make test \(detected from Makefile "test" target\)\nExit code 0 .*\nmake-tests-ran$/s,
    );
  });

  it('prefers the configured command', async () => {
    const root = project({ 'package.json': '{"scripts":{"test":"exit 1"}}' });
    const r = await call(
      [createRunTestsTool(createWorkspace(root), { testCommand: 'echo configured' })],
      'run_tests',
      { args: 'x' },
    );
    expect(textOf(r)).toMatch(/^\$ echo configured x\nExit code 0 .*\nconfigured x$/s);
  });

  it('says when no test command can be found and how to set one', async () => {
    const r = await call([createRunTestsTool(createWorkspace(project({ 'a.txt': '' })))], 'run_tests', {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/No test command found.*`test-command` input/s);
  });

  it('keeps the tail, says how much was cut and where the full output is', async () => {
    const artifacts = `${dir.path}/artifacts`;
    const tool = createRunTestsTool(createWorkspace(project({ 'x.txt': '' })), {
      testCommand: 'seq 1 5000',
      artifactsDir: artifacts,
    });
    const r = await call([tool], 'run_tests', {});
    const text = textOf(r);
    const details = r.details as { fullOutputPath: string; totalLines: number };
    expect(text).toContain('\n3001\n');
    expect(text).not.toContain('\n3000\n');
    expect(text).toContain(
      `[Output cut: showing the last 2000 lines of 5000 lines (23.3 KB in all). Full output saved to ${details.fullOutputPath}.`,
    );
    expect(details.fullOutputPath.startsWith(artifacts)).toBe(true);
    expect(readFileSync(details.fullOutputPath, 'utf8').split('\n')).toHaveLength(5001);
  });

  it('reports progress while the command runs', async () => {
    const tool = createRunTestsTool(createWorkspace(project({ 'x.txt': '' })), {
      testCommand: 'echo first; sleep 2; echo second',
    });
    const updates: string[] = [];
    const out = await tool.execute(
      {},
      {
        signal: new AbortController().signal,
        toolCallId: 't',
        onUpdate: (p) => updates.push((p.content[0] as { text: string }).text),
      },
    );
    expect(updates[0]).toBe('first\n');
    expect((out.content[0] as { text: string }).text).toMatch(/first\nsecond$/);
  });

  it('stops at its timeout and on abort', async () => {
    const root = project({ 'x.txt': '' });
    const timed = await call(
      [createRunTestsTool(createWorkspace(root), { testCommand: 'sleep 30', timeoutMs: 300 })],
      'run_tests',
      {},
    );
    expect(timed.details).toMatchObject({ timedOut: true });
    expect(textOf(timed)).toMatch(/Timed out after/);
    const controller = new AbortController();
    const pending = call(
      [createRunTestsTool(createWorkspace(root), { testCommand: 'sleep 30' })],
      'run_tests',
      {},
      controller.signal,
    );
    setTimeout(() => controller.abort(), 200);
    const aborted = await pending;
    expect(aborted.isError).toBe(true);
    expect(textOf(aborted)).toMatch(/cancelled|Cancelled/);
  });
});

describe('bash', () => {
  it('is offered only with allowBash', () => {
    expect(createWorkspaceTools({ root: dir.path }).map((t) => t.name)).not.toContain('bash');
    expect(createWorkspaceTools({ root: dir.path, allowBash: true }).map((t) => t.name)).toContain('bash');
  });

  it('runs in the workspace root with the exit code and a scrubbed environment', async () => {
    const tool = createBashTool(createWorkspace(dir.path), {
      env: { PATH: process.env.PATH, GITHUB_TOKEN: 'ghs_planted', HOME: '/h' },
    });
    const r = await call([tool], 'bash', {
      command: 'pwd; echo "token=${GITHUB_TOKEN:-none} home=$HOME"; exit 4',
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(new RegExp(`^Exit code 4 \\(.*\\)\\.\\n${dir.path}\\ntoken=none home=/h$`));
  });

  it('applies the timeout argument and validates it', async () => {
    const tool = createBashTool(createWorkspace(dir.path));
    const r = await call([tool], 'bash', { command: 'sleep 30', timeout: 0.3 });
    expect(r.details).toMatchObject({ timedOut: true });
    expect(textOf(await call([tool], 'bash', { command: 'true', timeout: 5000 }))).toMatch(
      /"timeout" must be <= 1800/,
    );
    expect(textOf(await call([tool], 'bash', { command: 'true', timeout: 0 }))).toMatch(
      /"timeout" must be > 0/,
    );
    expect(textOf(await call([tool], 'bash', {}))).toMatch(/missing required parameter "command"/);
  });
});
