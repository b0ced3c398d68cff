// The summary's parts for reviews and structured answers (CONTRACT §9).
import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../src/protocol/types.js';
import { renderSummaryMarkdown, type RunSummaryInput } from '../../src/report/summary.js';

const base: RunSummaryInput = {
  conclusion: 'success',
  models: ['claude-test-1'],
  turns: 3,
  usage: { ...emptyUsage(), inputTokens: 1000, outputTokens: 100, costUsd: 0.0123 },
  changedFiles: [],
  toolLog: [],
};

describe('the summary of a review or a structured answer', () => {
  it('links the review beside the cost', () => {
    const md = renderSummaryMarkdown({
      ...base,
      reviewUrl: 'https://github.com/o/r/pull/2#pullrequestreview-9',
    });
    // in the headline, beside the cost, and in the details
    expect(md.split('\n')[0]).toMatch(
      /\[review\]\(https:\/\/github\.com\/o\/r\/pull\/2#pullrequestreview-9\) · .*\$0\.0123/,
    );
    expect(md).toContain('- Review: [posted](https://github.com/o/r/pull/2#pullrequestreview-9)');
  });

  it('shows the answer in a fence no text inside can close, cut within the bound', () => {
    const answer = JSON.stringify({ reason: 'has ``` inside', labels: ['bug'] }, null, 2);
    const md = renderSummaryMarkdown({ ...base, structuredOutput: answer });
    expect(md).toContain(
      `**Structured answer** (output \`structured-output\`)\n\n\`\`\`\`json\n${answer}\n\`\`\`\``,
    );
    const huge = JSON.stringify({ text: 'x'.repeat(200_000) });
    const cut = renderSummaryMarkdown({ ...base, structuredOutput: huge });
    expect(cut.length).toBeLessThanOrEqual(65_536);
    expect(cut).toContain('the output structured-output has it whole');
  });
});
