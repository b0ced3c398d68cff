import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/protocol/execute.js';
import type { ToolCall, ToolResultMessage } from '../../src/protocol/types.js';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { record } from './figures.js';

// Hostile input on the tool-call path: whatever a model sends, each call ends in exactly one
// result, nothing throws, and nothing outside the workspace is read or written.

const SENTINEL = 'SENTINEL-outside-the-workspace-7f3a';
const TOOLS = ['read_file', 'write_file', 'edit_file', 'grep', 'find_files', 'list_dir', 'run_tests'];

let base: string;
let ws: string;
let outside: string;
let registry: ToolRegistry;
let callNo = 0;

/** A fingerprint of a folder tree: names, types, link targets and file contents. */
function snapshot(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      hash.update(`${p}\0${st.mode}\0`);
      if (st.isSymbolicLink()) hash.update(readlinkSync(p));
      else if (st.isDirectory()) walk(p);
      else hash.update(readFileSync(p));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

/** Everything next to the workspace: the sentinel folder and the temp parent itself. */
function outsideState(): string {
  return `${snapshot(outside)}:${readdirSync(base).sort().join(',')}`;
}

async function call(name: string, input: ToolCall['input']): Promise<ToolResultMessage> {
  const id = `fuzz_${++callNo}`;
  let result: ToolResultMessage | undefined;
  let thrown: unknown;
  try {
    result = await registry.execute({ type: 'toolCall', id, name, input }, new AbortController().signal);
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeUndefined();
  expect(result).toBeDefined();
  expect(result!.role).toBe('toolResult');
  expect(result!.toolCallId).toBe(id);
  expect(result!.toolName).toBe(name);
  expect(typeof result!.isError).toBe('boolean');
  expect(result!.content.length).toBeGreaterThan(0);
  for (const block of result!.content) {
    if (block.type === 'text') expect(block.text).not.toContain(SENTINEL);
  }
  return result!;
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'pl-fuzz-'));
  ws = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(ws, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), `${SENTINEL}\n`);
  writeFileSync(join(ws, 'src', 'math.ts'), 'export const divide = (a: number, b: number) => a / b;\n');
  writeFileSync(join(ws, 'README.md'), '# fixture\n');
  execFileSync('git', ['init', '-q'], { cwd: ws });
  execFileSync('git', ['add', '.'], { cwd: ws });
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init'], { cwd: ws });
  // links that lead out: directly, by absolute path, through a chain, into .git, and in a loop
  symlinkSync('../outside', join(ws, 'out'));
  symlinkSync(outside, join(ws, 'out-abs'));
  symlinkSync(join(outside, 'secret.txt'), join(ws, 'secret-link'));
  symlinkSync('chain2', join(ws, 'chain1'));
  symlinkSync('chain3', join(ws, 'chain2'));
  symlinkSync('../outside', join(ws, 'chain3'));
  symlinkSync('.git', join(ws, 'gitdir'));
  symlinkSync('loop2', join(ws, 'loop1'));
  symlinkSync('loop1', join(ws, 'loop2'));
  symlinkSync(join(outside, 'not-yet'), join(ws, 'dangling-out'));
  // run_tests is offered too: the fixture has no test command, so it can only answer with an error
  registry = new ToolRegistry(createWorkspaceTools({ root: ws }));
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

// Paths that must never reach outside the workspace or into .git/.
const escapePaths = (): fc.Arbitrary<string> =>
  fc
    .constantFrom(
      '../outside/secret.txt',
      '../../etc/passwd',
      '../../../../../../../../outside/x.txt',
      'src/../../outside/secret.txt',
      './../outside/x.txt',
      'out/secret.txt',
      'out/new.txt',
      'out-abs/secret.txt',
      'out-abs/new.txt',
      'secret-link',
      'chain1/secret.txt',
      'chain1/new.txt',
      'dangling-out',
      'gitdir/config',
      'gitdir/hooks/pre-commit',
      '.git/config',
      '.git/hooks/post-commit',
      '.GIT/config',
      'src/../.git/HEAD',
      '/etc/passwd',
      '/tmp/pl-escape.txt',
    )
    // the same path as written, absolute through the workspace, and with a trailing slash
    .chain((p) => fc.constantFrom(p, p.startsWith('/') ? p : `${ws}/${p}`, `${p}/`));

// Paths that look odd but stay inside: look-alikes, NUL bytes, long names, loops.
const oddPaths = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '\uff0e\uff0e\uff0foutside\uff0fsecret.txt', // fullwidth dots and slashes
      '\u2024\u2024/outside', // one-dot leaders
      '..\u2215outside', // division slash
      '..\\outside\\secret.txt',
      '%2e%2e/outside/secret.txt',
      'src/math.ts\0.png',
      '\0',
      '',
      '.',
      'loop1',
      'loop1/x',
      'src/\u202eexe.ts', // bidi override
      'a'.repeat(300),
      `${'d/'.repeat(60)}f.txt`,
      'e\u0301.txt',
      '\u00e9.txt',
    ),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );

describe('tool-call fuzzing', () => {
  it('arbitrary argument text always ends in exactly one result', async () => {
    const before = outsideState();
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TOOLS, 'no_such_tool', ''),
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.json({ maxDepth: 4 }),
          fc.constantFrom('{"path":', '{"path":"\\ud800"}', '[1,2', 'null', '"x"', '{}', '{"path": 1e400}'),
        ),
        async (name, text) => {
          cases++;
          await call(name, text);
        },
      ),
      { numRuns: 400 },
    );
    expect(outsideState()).toBe(before);
    record('fuzz', { fuzzCases: cases });
  });

  it('arbitrary JSON values with hostile strings are answered, never thrown', async () => {
    const before = outsideState();
    let cases = 0;
    const hostile = fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), oddPaths(), escapePaths());
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TOOLS),
        fc.record(
          {
            path: fc.oneof(hostile, fc.integer(), fc.constant(null), fc.array(hostile, { maxLength: 2 })),
            content: hostile,
            oldText: hostile,
            newText: hostile,
            pattern: fc.oneof(hostile, fc.constantFrom('(a+)+$', '[', '\\', '*', '**/*', '{a,b', '(?<=x)y')),
            offset: fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 3 })),
            limit: fc.oneof(fc.integer(), fc.constant(-1), fc.constant(0), fc.constant(1e12)),
            extra: fc.anything({ maxDepth: 2 }),
          },
          { requiredKeys: [] },
        ),
        async (name, input) => {
          cases++;
          await call(name, input as Record<string, unknown>);
        },
      ),
      { numRuns: 500 },
    );
    expect(outsideState()).toBe(before);
    record('fuzz', { fuzzCases: cases });
  });

  it('every escape attempt is refused, for reads and writes alike', async () => {
    const before = outsideState();
    let tried = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        escapePaths(),
        fc.constantFrom('read_file', 'write_file', 'edit_file', 'grep', 'find_files', 'list_dir'),
        async (path, name) => {
          const input: Record<string, unknown> =
            name === 'write_file'
              ? { path, content: 'escaped' }
              : name === 'edit_file'
                ? { path, oldText: SENTINEL, newText: 'escaped' }
                : name === 'grep'
                  ? { pattern: 'SENTINEL', path }
                  : name === 'find_files'
                    ? { pattern: '*', path }
                    : { path };
          tried++;
          const result = await call(name, input);
          if (result.isError) refused++;
          expect(result.isError).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
    expect(outsideState()).toBe(before);
    expect(readFileSync(join(ws, '.git', 'HEAD'), 'utf8')).toMatch(/^ref: /);
    record('fuzz', { fuzzCases: tried, escapesTried: tried, escapesRefused: refused });
  });

  it('odd but inside paths never land outside', async () => {
    const before = outsideState();
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(oddPaths(), fc.string({ maxLength: 50 }), async (path, content) => {
        cases++;
        await call('write_file', { path, content });
        await call('read_file', { path });
      }),
      { numRuns: 300 },
    );
    expect(outsideState()).toBe(before);
    record('fuzz', { fuzzCases: cases * 2 });
  });

  it('deep nesting, huge strings and lone surrogates are answered with a readable error or a result', async () => {
    const before = outsideState();
    const cases: [string, ToolCall['input']][] = [
      ['read_file', '['.repeat(100_000)],
      ['read_file', `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`],
      ['write_file', `{"path":"deep.txt","content":"x","extra":${'['.repeat(5000)}${']'.repeat(5000)}}`],
      ['write_file', { path: 'huge.txt', content: 'y'.repeat(2 * 1024 * 1024) }],
      ['read_file', { path: 'huge.txt' }],
      ['grep', { pattern: 'y'.repeat(100_000) }],
      ['edit_file', { path: 'huge.txt', oldText: 'y', newText: 'z' }],
      ['write_file', '{"path":"s.txt","content":"\\udc00 lone"}'],
      ['write_file', { path: 's2.txt', content: 'lone \ud800 surrogate' }],
      ['write_file', { path: '\ud800.txt', content: 'x' }],
      ['read_file', { path: `x${'/..'.repeat(5000)}/outside/secret.txt` }],
      ['read_file', JSON.stringify({ path: 'p'.repeat(1_000_000) })],
    ];
    let nested: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) nested = { a: nested };
    cases.push(['write_file', { path: 'n.txt', content: 'x', nested }]);
    for (const [name, input] of cases) await call(name, input);
    expect(outsideState()).toBe(before);
    record('fuzz', { fuzzCases: cases.length });
  });
});
