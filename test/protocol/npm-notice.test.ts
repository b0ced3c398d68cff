import { describe, expect, it } from 'vitest';
import { withoutNpmUpdateNotice } from '../../src/protocol/npm-notice.js';

describe("npm's update notice", () => {
  it('is removed with its framing lines; the rest of the output and other npm notices stay', () => {
    const out = [
      '> calc@1.0.0 test',
      '> node --test',
      'ok 1 - adds',
      'npm notice',
      'npm notice New major version of npm available! 10.9.4 -> 11.6.2',
      'npm notice Changelog: https://github.com/npm/cli/releases/tag/v11.6.2',
      'npm notice To update run: npm install -g npm@11.6.2',
      'npm notice',
      'npm notice 📦  calc@1.0.0',
    ].join('\n');
    expect(withoutNpmUpdateNotice(out)).toBe(
      ['> calc@1.0.0 test', '> node --test', 'ok 1 - adds', 'npm notice 📦  calc@1.0.0'].join('\n'),
    );
    expect(withoutNpmUpdateNotice('npm notice\nplain')).toBe('npm notice\nplain');
  });
});
