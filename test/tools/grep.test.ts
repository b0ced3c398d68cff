import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrepTool, type GrepBackendChoice } from '../../src/tools/grep.js';
import { findRipgrep } from '../../src/tools/grep-rg.js';
import { createWorkspace } from '../../src/tools/workspace.js';
import { call, gitRepo, tempDir, textOf, writeFiles } from './helpers.js';

let repo: ReturnType<typeof tempDir>;
let plain: ReturnType<typeof tempDir>;

const files = {
  '.gitignore': 'build/\n*.log\n',
  'src/a.ts': [
    'import x from "y";',
    'const needle = 1;',
    'const other = 2;',
    'const b = 3;',
    'const c = 4;',
    'export { needle };',
    '',
  ].join('\n'),
  'src/b.js': 'function Needle() {}\nconst a.b( = 1;\n',
  'docs/guide.md': '# Guide\nno match here\n',
  'odd:name-1-.txt': 'needle in an odd file name\n',
  'wide.txt': `needle ${'z'.repeat(600)}\n`,
};

beforeAll(() => {
  repo = tempDir();
  gitRepo(repo.path, files);
  writeFiles(repo.path, {
    'notes.txt': 'untracked needle\n',
    'build/out.js': 'ignored needle\n',
    'debug.log': 'ignored needle\n',
  });
  plain = tempDir();
  writeFiles(plain.path, {
    ...files,
    'notes.txt': 'untracked needle\n',
    'build/out.js': 'ignored needle\n',
    'debug.log': 'ignored needle\n',
  });
});
afterAll(() => {
  repo.cleanup();
  plain.cleanup();
});

const hasRg = findRipgrep() !== undefined;
const backends: GrepBackendChoice[] = ['git', 'javascript', ...(hasRg ? (['ripgrep'] as const) : [])];

async function grep(backend: GrepBackendChoice, args: Record<string, unknown>, root = repo.path) {
  return call([createGrepTool(createWorkspace(root), { backend })], 'grep', args);
}

describe.each(backends)('grep (%s)', (backend) => {
  it('shows the context and the notice with limit=1, context=1', async () => {
    const r = await grep(backend, { pattern: 'needle', path: 'src', limit: 1, context: 1 });
    expect(r.isError).toBe(false);
    expect(textOf(r)).toBe(
      'src/a.ts-1- import x from "y";\n' +
        'src/a.ts:2: const needle = 1;\n' +
        'src/a.ts-3- const other = 2;\n\n' +
        '[Showing the first match; there are more (grep shows at most 100). Raise limit (up to 100), narrow the pattern, or search a narrower `path` or `glob`; read_file shows a file whole.]',
    );
    expect(r.details).toMatchObject({ matches: 1, limitReached: true });
  });

  it('separates groups that are not adjacent', async () => {
    const text = textOf(await grep(backend, { pattern: 'needle', path: 'src/a.ts', context: 1 }));
    expect(text).toBe(
      'src/a.ts-1- import x from "y";\nsrc/a.ts:2: const needle = 1;\nsrc/a.ts-3- const other = 2;\n--\n' +
        'src/a.ts-5- const c = 4;\nsrc/a.ts:6: export { needle };',
    );
  });

  it('searches tracked and untracked files, not ignored ones, and cuts long lines', async () => {
    const r = await grep(backend, { pattern: 'needle' });
    const text = textOf(r);
    expect(text.split('\n\n')[0]!.split('\n')).toEqual([
      'notes.txt:1: untracked needle',
      'odd:name-1-.txt:1: needle in an odd file name',
      'src/a.ts:2: const needle = 1;',
      'src/a.ts:6: export { needle };',
      `wide.txt:1: needle ${'z'.repeat(493)}… [107 more characters]`,
    ]);
    expect(text).toContain('[1 line was longer than 500 characters and cut; read_file shows them whole.]');
    expect(r.details).toMatchObject({ matches: 5, limitReached: false, linesCut: 1 });
  });

  it('filters by glob, case and literal text', async () => {
    expect(textOf(await grep(backend, { pattern: 'needle', glob: '*.js', ignoreCase: true }))).toBe(
      'src/b.js:1: function Needle() {}',
    );
    expect(
      textOf(await grep(backend, { pattern: 'needle', glob: 'src/*.{ts,js}', ignoreCase: true })).split('\n'),
    ).toHaveLength(3);
    expect(textOf(await grep(backend, { pattern: 'needle', glob: '!*.txt' })).split('\n')).toEqual([
      'src/a.ts:2: const needle = 1;',
      'src/a.ts:6: export { needle };',
    ]);
    expect(textOf(await grep(backend, { pattern: 'a.b(', literal: true }))).toBe(
      'src/b.js:2: const a.b( = 1;',
    );
  });

  it('says when nothing matches, and reports a bad pattern as an error', async () => {
    const none = await grep(backend, { pattern: 'absent_word', path: 'docs' });
    expect(none.isError).toBe(false);
    expect(textOf(none)).toBe('No matches for "absent_word" in docs.');
    const bad = await grep(backend, { pattern: 'needle(' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^grep: /);
  });
});

describe('grep backend choice', () => {
  it('uses git grep in a checkout and something else outside one', async () => {
    expect((await grep('auto', { pattern: 'needle' })).details).toMatchObject({ backend: 'git grep' });
    const outside = await grep('auto', { pattern: 'needle' }, plain.path);
    expect(outside.details).toMatchObject({ backend: hasRg ? 'ripgrep' : 'javascript' });
    // .gitignore is honoured without git too.
    expect(textOf(outside)).not.toContain('ignored needle');
    expect(textOf(outside)).toContain('notes.txt:1: untracked needle');
  });

  it('searches an ignored folder when it is asked for by name', async () => {
    const r = await grep('auto', { pattern: 'needle', path: 'build' });
    expect(textOf(r)).toBe('build/out.js:1: ignored needle');
    expect(r.details).toMatchObject({ backend: 'javascript' });
  });

  it('rejects bad arguments with a readable error', async () => {
    const r = await grep('auto', { pattern: 'x', context: 'two' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/"context" must be integer/);
  });
});

describe('grep while a real process flips a folder to a symlink to /proc/self', () => {
  it.each(['javascript', 'git'] as const)('%s: every line shown is the workspace file', async (backend) => {
    const root = tempDir();
    try {
      gitRepo(root.path, { 'README.md': 'r\n' });
      writeFiles(root.path, { 'd/environ': 'INSIDE PATH=here\n' });
      const tool = createGrepTool(createWorkspace(root.path), { backend });
      const flipper = spawn(
        process.execPath,
        [
          '-e',
          `const fs = require('fs'); process.chdir(${JSON.stringify(root.path)});
           const hold = () => { const t = process.hrtime.bigint() + 300000n; while (process.hrtime.bigint() < t); };
           const end = Date.now() + 1500;
           while (Date.now() < end) {
             fs.renameSync('d', 'd.real'); fs.symlinkSync('/proc/self', 'd'); hold();
             fs.unlinkSync('d'); fs.renameSync('d.real', 'd'); hold();
           }`,
        ],
        { stdio: 'ignore' },
      );
      let running = true;
      const exited = new Promise((resolve) =>
        flipper.once('exit', () => {
          running = false;
          resolve(undefined);
        }),
      );
      const shown = new Set<string>();
      let calls = 0;
      while (running) {
        const r = await call([tool], 'grep', { pattern: 'PATH=' });
        for (const line of textOf(r).split('\n')) if (/^\S+:\d+: /.test(line)) shown.add(line);
        calls++;
      }
      await exited;
      expect(calls).toBeGreaterThan(5);
      // The real folder is named d.real for part of each flip; that is still the workspace file.
      expect([...shown].filter((l) => !/^d(\.real)?\/environ:1: INSIDE PATH=here$/.test(l))).toEqual([]);
    } finally {
      root.cleanup();
    }
  });
});

describe('grep (git) lines are confirmed through a checked descriptor', () => {
  it('shows matches from a file larger than the JavaScript search reads whole', async () => {
    const root = tempDir();
    try {
      const filler = `${'x'.repeat(999)}\n`.repeat(17 * 1024);
      gitRepo(root.path, { 'big.txt': `${filler}the needle line\n`, 'small.txt': 'a needle\n' });
      const r = await call([createGrepTool(createWorkspace(root.path), { backend: 'git' })], 'grep', {
        pattern: 'needle',
      });
      expect(textOf(r)).toBe(`big.txt:${17 * 1024 + 1}: the needle line\nsmall.txt:1: a needle`);
    } finally {
      root.cleanup();
    }
  });
});
