import { readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/tools/diff.js';
import { expandBraces, gitPathspecs, parseGlob } from '../../src/tools/glob.js';
import { IgnoreRules, parseGitignore } from '../../src/tools/ignore.js';
import { decodeTail, OutputBuffer } from '../../src/tools/output-buffer.js';
import { cutLine, truncateHead, truncateTail, utf8Head, utf8Tail } from '../../src/tools/truncate.js';
import { tempDir } from './helpers.js';

describe('truncate', () => {
  it('keeps whole lines from the head or the tail, whichever limit comes first', () => {
    const text = 'aaaa\nbbbb\ncccc\ndddd\n';
    expect(truncateHead(text, { maxLines: 2, maxBytes: 100 })).toMatchObject({
      text: 'aaaa\nbbbb',
      cutBy: 'lines',
      totalLines: 4,
    });
    expect(truncateTail(text, { maxLines: 10, maxBytes: 10 })).toMatchObject({
      text: 'cccc\ndddd',
      cutBy: 'bytes',
      keptLines: 2,
    });
    expect(truncateTail(text, { maxLines: 10, maxBytes: 100 })).toMatchObject({
      truncated: false,
      text: 'aaaa\nbbbb\ncccc\ndddd',
    });
  });

  it('cuts a single over-long line on a character boundary', () => {
    expect(truncateHead('ééééé', { maxLines: 5, maxBytes: 5 })).toMatchObject({
      text: 'éé',
      partialLine: true,
    });
    expect(truncateTail('ééééé', { maxLines: 5, maxBytes: 5 })).toMatchObject({
      text: 'éé',
      partialLine: true,
    });
  });

  it('never splits a character (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(64), (s, n) => {
        const head = utf8Head(s, n);
        const tail = utf8Tail(s, n);
        expect(Buffer.byteLength(head)).toBeLessThanOrEqual(Math.max(n, 0));
        expect(s.startsWith(head) || head.includes('\uFFFD')).toBe(true);
        expect(s.endsWith(tail) || tail.includes('\uFFFD')).toBe(true);
      }),
    );
  });

  it('cuts long lines with a count of what was left out', () => {
    expect(cutLine('x'.repeat(10), 4)).toEqual({ text: 'xxxx… [6 more characters]', cut: true });
    expect(cutLine('a😀b', 2)).toEqual({ text: 'a… [3 more characters]', cut: true });
  });
});

describe('OutputBuffer', () => {
  it('keeps a bounded tail in memory and the whole output on disk', () => {
    const dir = tempDir();
    try {
      const buf = new OutputBuffer({
        memoryBytes: 1024,
        limits: { maxLines: 10, maxBytes: 100 },
        spillDir: dir.path,
        name: 't',
      });
      const chunks = Array.from({ length: 50 }, (_, i) => Buffer.from(`${'x'.repeat(99)}${i}\n`));
      for (const c of chunks) buf.write(c);
      const out = buf.finish();
      expect(out.totalLines).toBe(50);
      expect(out.complete).toBe(false);
      expect(out.text.endsWith('x49\n')).toBe(true);
      expect(Buffer.byteLength(out.text)).toBeLessThanOrEqual(1024 + 102);
      expect(readFileSync(out.fullOutputPath!)).toEqual(Buffer.concat(chunks));
    } finally {
      dir.cleanup();
    }
  });

  it('decodes a tail that starts inside a character', () => {
    expect(decodeTail(Buffer.from('aé€'), 4)).toBe('€');
  });
});

describe('unifiedDiff', () => {
  it('shows one hunk with three lines of context', () => {
    const before = Array.from({ length: 10 }, (_, i) => `l${i + 1}`).join('\n') + '\n';
    const after = before.replace('l5\n', 'L5\nL5b\n');
    expect(unifiedDiff('f', before, after)).toEqual({
      diff: '--- a/f\n+++ b/f\n@@ -2,7 +2,8 @@\n l2\n l3\n l4\n-l5\n+L5\n+L5b\n l6\n l7\n l8\n',
      firstChangedLine: 5,
      added: 2,
      removed: 1,
    });
    expect(unifiedDiff('f', '', 'a\n').diff).toBe('--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+a\n');
    expect(unifiedDiff('f', 'same\n', 'same\n').diff).toBe('');
  });
});

describe('globs', () => {
  it('expands braces, nested too', () => {
    expect(expandBraces('*.{ts,tsx}')).toEqual(['*.ts', '*.tsx']);
    expect(expandBraces('{a,b{c,d}}x')).toEqual(['ax', 'bcx', 'bdx']);
    expect(expandBraces('{lonely}')).toEqual(['{lonely}']);
  });

  it('matches names at any depth without a slash and paths with one', () => {
    const names = parseGlob('*.ts')!;
    expect(names.matches('a/b/c.ts')).toBe(true);
    const paths = parseGlob('src/**/*.ts, !**/*.test.ts')!;
    expect(paths.matches('src/x/y.ts')).toBe(true);
    expect(paths.matches('src/x/y.test.ts')).toBe(false);
    expect(paths.matches('lib/y.ts')).toBe(false);
  });

  it('builds git pathspecs relative to the searched folder', () => {
    expect(gitPathspecs('', parseGlob('*.ts'))).toEqual([':(glob)**/*.ts']);
    expect(gitPathspecs('src/[x]', parseGlob('a/*.ts,!*.d.ts'))).toEqual([
      ':(glob)src/\\[x\\]/a/*.ts',
      ':(glob,exclude)src/\\[x\\]/**/*.d.ts',
    ]);
    expect(gitPathspecs('src', undefined)).toEqual([':(literal)src']);
  });
});

describe('gitignore rules', () => {
  it('handles anchoring, folders only, negation and comments', () => {
    const rules = parseGitignore('# c\n/top.txt\nbuild/\n*.log\n!keep.log\ndocs/*.tmp\n', '');
    expect(rules).toHaveLength(5);
    const dir = tempDir();
    try {
      writeFileSync(`${dir.path}/.gitignore`, '/top.txt\nbuild/\n*.log\n!keep.log\ndocs/*.tmp\n');
      const r = IgnoreRules.forFolder(dir.path, '');
      expect(r.ignores('top.txt', false)).toBe(true);
      expect(r.ignores('sub/top.txt', false)).toBe(false);
      expect(r.ignores('build', true)).toBe(true);
      expect(r.ignores('build', false)).toBe(false);
      expect(r.ignores('a/b/x.log', false)).toBe(true);
      expect(r.ignores('keep.log', false)).toBe(false);
      expect(r.ignores('docs/a.tmp', false)).toBe(true);
      expect(r.ignores('docs/sub/a.tmp', false)).toBe(false);
    } finally {
      dir.cleanup();
    }
  });
});
