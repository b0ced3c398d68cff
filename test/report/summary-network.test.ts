import { describe, expect, it } from 'vitest';
import { renderSummaryMarkdown, renderSummaryText, type RunSummaryInput } from '../../src/report/summary.js';
import { networkSummaryLine } from '../../src/sandbox/network.js';

// The summary's "Command network" row: the policy and the refused hosts, one table cell whose
// `*.` patterns are not read as emphasis.

const input = (commandNetwork?: string): RunSummaryInput => ({
  conclusion: 'success',
  models: ['claude-test-1'],
  turns: 1,
  usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
  changedFiles: [],
  toolLog: [],
  ...(commandNetwork !== undefined ? { commandNetwork } : {}),
});

describe('summary: command network', () => {
  it('shows the policy and the refused hosts on one line of the details, * escaped', () => {
    const line = networkSummaryLine({ kind: 'hosts', hosts: ['registry.npmjs.org', '*.pythonhosted.org'] }, [
      { host: 'evil.example', reason: 'not in command-network', count: 3 },
      { host: 'metadata.test', reason: 'it resolves to a loopback, private or link-local address', count: 1 },
    ]);
    const md = renderSummaryMarkdown(input(line));
    expect(md).toContain(
      '- Command network: HTTP and HTTPS to registry.npmjs.org, \\*.pythonhosted.org only, through patchloop’s proxy; refused: evil.example (3×), metadata.test\n',
    );
    expect(renderSummaryText(input(line))).toContain('Command network: HTTP and HTTPS to registry.npmjs.org');
  });

  it('lists at most ten refused hosts and counts the rest', () => {
    const refused = Array.from({ length: 13 }, (_, i) => ({ host: `h${i}.test`, reason: 'x', count: 1 }));
    const line = networkSummaryLine({ kind: 'none' }, refused);
    expect(line).toMatch(/h9\.test, and 3 more$/);
    expect(line).not.toContain('h10.test');
  });

  it('has no row when no command could run', () => {
    expect(renderSummaryMarkdown(input())).not.toContain('Command network');
  });
});
