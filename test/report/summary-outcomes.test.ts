// Each mode's headline and next step, and the outcome said from the evidence: a review posted
// with its comments and verdict, an answer given, a fix whose tests still fail, a provider's
// outage, and a run nobody asked for.
import { describe, expect, it } from 'vitest';
import type { FailedRequest, TestsAtEnd } from '../../src/agent/index.js';
import { emptyUsage } from '../../src/protocol/types.js';
import { nextStep, outageOf } from '../../src/report/summary-next.js';
import { renderSummaryMarkdown, renderSummaryText, type RunSummaryInput } from '../../src/report/summary.js';

const base: RunSummaryInput = {
  conclusion: 'success',
  models: ['claude-test-1'],
  turns: 3,
  usage: { ...emptyUsage(), inputTokens: 1000, outputTokens: 100, costUsd: 0.0123 },
  changedFiles: [],
  toolLog: [],
  requester: 'alice',
  serverUrl: 'https://github.com',
  request: 'Review this pull request.',
  next: { surface: 'action', onThread: true, triggerPhrase: '/patchloop' },
};

const RED: TestsAtEnd = {
  passed: false,
  tool: 'run_tests',
  command: 'npm test',
  exitCode: 1,
  ending: 'exit 1',
};
const GREEN: TestsAtEnd = {
  passed: true,
  tool: 'run_tests',
  command: 'npm test',
  exitCode: 0,
  ending: 'exit 0',
};
const headline = (md: string) => md.split('\n')[0]!;

describe('a review’s summary', () => {
  const review: RunSummaryInput = {
    ...base,
    review: { comments: 2, verdict: 'Needs changes: the zero check uses loose equality.', posted: true },
    reviewUrl: 'https://github.com/o/r/pull/2#pullrequestreview-9',
    finalMessage: 'Needs changes: the zero check uses loose equality.\n\nChecked the diff and ran the tests.',
    tests: GREEN,
  };

  it('headlines the review posted, its comments and its verdict; never "success" above "Needs changes"', () => {
    const md = renderSummaryMarkdown(review);
    expect(headline(md)).toMatch(
      /^💬 \*\*patchloop: review posted\*\* — 2 comments \(Needs changes: the zero check uses loose equality\.\) · \[review\]\(https:\/\/github\.com\/o\/r\/pull\/2#pullrequestreview-9\)/,
    );
    expect(md).not.toContain('success');
    expect(md).toContain('**Review**\n\n> Needs changes');
    expect(md).toContain('- Tests: passed at the end (last run_tests exit 0)');
    expect(md).not.toContain('What next');
  });

  it('says when the review was not posted, has no comments, or a verdict that is long or hostile', () => {
    const md = renderSummaryMarkdown({
      ...review,
      reviewUrl: undefined,
      review: { comments: 0, verdict: `@bob <!-- x --> ${'very '.repeat(40)}long`, posted: false },
    });
    const first = headline(md);
    expect(first).toMatch(/^💬 \*\*patchloop: review not posted\*\* — no inline comments \(/);
    expect(first).not.toContain('@bob');
    expect(first).not.toContain('<!--');
    expect(first).toMatch(/ \([^()]{70,80}…\)/);
    expect(first.length).toBeLessThan(300);
  });

  it('a failed review keeps the failure’s headline', () => {
    const md = renderSummaryMarkdown({
      ...review,
      conclusion: 'failure',
      error: 'The review could not be posted.',
    });
    expect(headline(md)).toMatch(/^❌ \*\*patchloop: failure\*\*/);
  });
});

describe('what started a run', () => {
  it('a run someone asked for credits them', () => {
    expect(renderSummaryMarkdown({ ...base, request: 'fix the division' })).toContain(
      '**[@\u200Balice](https://github.com/alice) asked:**\n\n> fix the division',
    );
  });

  it('a run nobody asked for says what started it, quotes only the workflow’s prompt, and credits nobody', () => {
    const started = 'the `pull_request` event (`opened`) of pull request #2, automatically';
    const md = renderSummaryMarkdown({ ...base, request: undefined, startedBy: started });
    expect(md).toContain(`**Started by** ${started}.`);
    expect(md).not.toMatch(/asked/);
    expect(md).not.toContain('Requested by');
    expect(md).toContain(`- Started by: ${started}`);
    const prompted = renderSummaryMarkdown({
      ...base,
      request: 'Check the changelog too.',
      startedBy: started,
    });
    expect(prompted).toContain(
      `**Started by** ${started}, with the workflow’s prompt:\n\n> Check the changelog too.`,
    );
  });
});

describe('an answer’s summary', () => {
  it('says the answer was given, with no fix-oriented next step', () => {
    const md = renderSummaryMarkdown({
      ...base,
      conclusion: 'no-changes',
      structuredOutput: '{\n  "labels": ["bug"]\n}',
    });
    expect(headline(md)).toMatch(/^✅ \*\*patchloop: answer given\*\*/);
    expect(md).not.toContain('no changes');
    expect(md).not.toContain('What next');
    expect(md).not.toContain('If a change was expected');
    // the same run without an answer is what it was
    expect(headline(renderSummaryMarkdown({ ...base, conclusion: 'no-changes' }))).toMatch(
      /^➖ \*\*patchloop: no changes\*\*/,
    );
  });

  it('an answer run that committed work is told as a fix', () => {
    const md = renderSummaryMarkdown({ ...base, structuredOutput: '{}', commitSha: 'a'.repeat(40) });
    expect(headline(md)).toMatch(/^✅ \*\*patchloop: success\*\*/);
  });
});

describe('a fix whose tests still fail', () => {
  const red: RunSummaryInput = {
    ...base,
    conclusion: 'failure',
    error: 'The tests still fail at the end (last run_tests exit 1).',
    tests: RED,
    finalMessage: 'I could not make it pass.',
  };

  it('headlines the failure with its reason, and the next step keeps the work', () => {
    const md = renderSummaryMarkdown(red);
    expect(headline(md)).toMatch(/^❌ \*\*patchloop: failure\*\* \(tests still failing\)/);
    expect(md).toContain('> **Error:** The tests still fail at the end (last run_tests exit 1).');
    expect(md).toContain(
      '**What next:** The tests still fail; the work so far is kept on its branch. Comment `/patchloop continue` to go on from where it stopped (same branch, same conversation), or finish it by hand.',
    );
    expect(md).toContain('- Tests: failed at the end (last run_tests exit 1)');
  });

  it('tests that failed before the last edits are said as such, never as failing', () => {
    const md = renderSummaryMarkdown({ ...base, tests: { ...RED, stale: true } });
    expect(headline(md)).toMatch(/^✅ \*\*patchloop: success\*\*/);
    expect(md).toContain('- Tests: failed before the last edits, not run since (run_tests exit 1)');
    const failed = renderSummaryMarkdown({ ...red, error: 'Push refused.', tests: { ...RED, stale: true } });
    expect(headline(failed)).not.toContain('tests still failing');
    expect(failed).not.toContain('The tests still fail;');
  });

  it('in the CLI’s text too', () => {
    const text = renderSummaryText({ ...red, next: { surface: 'cli', transcriptPath: '/tmp/t.jsonl' } });
    expect(text).toContain('Outcome: failure (tests still failing)');
    expect(text).toContain('Tests: failed at the end (last run_tests exit 1)');
    expect(text).toContain(
      'Next: The tests still fail; the work so far is committed on its branch. Run patchloop run --continue /tmp/t.jsonl "go on" to go on, or finish it by hand.',
    );
  });
});

describe('after a provider’s outage', () => {
  const failed = (f: Partial<FailedRequest>): FailedRequest => ({
    provider: 'anthropic',
    model: 'claude-test-1',
    kind: 'overloaded',
    ...f,
  });

  it('names the outage and says to re-run, never to fix a secret', () => {
    const md = renderSummaryMarkdown({
      ...base,
      conclusion: 'failure',
      usage: emptyUsage(),
      error: '529 overloaded_error: Overloaded',
      next: { ...base.next!, failedRequest: failed({ status: 529 }) },
    });
    expect(headline(md)).toMatch(/^❌ \*\*patchloop: failure\*\* \(provider outage\)/);
    expect(md).toContain(
      "**What next:** Anthropic answered HTTP 529 (overloaded) after patchloop's retries: an outage on the provider's side, nothing to fix in the workflow or its secrets. Wait a few minutes, then re-run the job from the workflow run page.",
    );
    expect(md).not.toContain('Fix what the error names');
  });

  it('after work was done, goes on from where it stopped; a rate limit says when it is the key’s own', () => {
    const step = nextStep('failure', {
      surface: 'action',
      onThread: true,
      failedRequest: failed({ kind: 'rate_limit', status: 429 }),
    });
    expect(step).toBe(
      "Anthropic answered HTTP 429 (rate limited) after patchloop's retries: an outage on the provider's side, nothing to fix in the workflow or its secrets. Wait a few minutes, then comment `/patchloop continue` to go on from where it stopped (same branch, same conversation) (if it keeps happening, the API key’s rate limit or quota is too low for this run).",
    );
    expect(
      nextStep('failure', {
        surface: 'cli',
        beforeWork: true,
        failedRequest: failed({ kind: 'server', status: 500 }),
      }),
    ).toBe(
      "Anthropic answered HTTP 500 (a server error) after the retries: an outage on the provider's side, nothing to fix in your flags or environment. Wait a few minutes, then run the same command again.",
    );
  });

  it('names 500, 429, 529 and timeouts; not a key, a bad request or an address where nothing answers', () => {
    expect(outageOf(failed({ kind: 'server', status: 503 }))).toBe(
      'anthropic answered HTTP 503 (a server error)',
    );
    expect(outageOf(failed({ kind: 'overloaded' }))).toBe('anthropic was overloaded');
    expect(outageOf(failed({ kind: 'network' }))).toBe('the connection to anthropic failed or timed out');
    expect(outageOf(failed({ kind: 'network', status: 408 }))).toBe(
      'anthropic answered HTTP 408 (timed out)',
    );
    expect(outageOf(failed({ kind: 'network', unreachable: true }))).toBeUndefined();
    expect(outageOf(failed({ kind: 'auth', status: 401 }))).toBeUndefined();
    expect(outageOf(failed({ kind: 'bad_request', status: 400 }))).toBeUndefined();
    // a key that is wrong still says to fix what the error names
    const md = renderSummaryMarkdown({
      ...base,
      conclusion: 'failure',
      usage: emptyUsage(),
      error: '401 authentication_error: invalid x-api-key',
      next: { ...base.next!, failedRequest: failed({ kind: 'auth', status: 401 }) },
    });
    expect(md).toContain('**What next:** Fix what the error names (a repository secret');
    expect(headline(md)).toMatch(/^❌ \*\*patchloop: failure\*\* · /);
  });
});
