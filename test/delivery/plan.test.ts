// The delivery plan's schema as this process meets it building its own plan (stage: all applies
// it in process through the same schema): what a long or odd run leaves in the summary still fits,
// and what the schema exists to refuse is still refused.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitSummary, planErrors } from '../../src/delivery/plan.js';

const SHA = 'a'.repeat(40);

function plan(summary: Record<string, unknown>, more: Record<string, unknown> = {}) {
  return {
    schema: 2,
    repository: 'octo/demo',
    runId: '9001',
    runAttempt: '1',
    workflowRef: 'octo/demo/.github/workflows/patchloop.yml@refs/heads/main',
    prHead: false,
    openPr: true,
    draft: false,
    prTitle: 'Fix #1',
    prBody: '',
    commentText: '',
    summary,
    outputs: { conclusion: 'success', model: 'm', turns: 1, usage: {} },
    marker: { sessionId: '9001-1-1' },
    ...more,
  };
}

const small = { conclusion: 'success', models: ['m'], turns: 1, usage: {}, changedFiles: [], toolLog: [] };

describe('a plan this process builds', () => {
  it('a run whose final message, tool log and notices outgrow the schema still makes a valid plan once fitted', () => {
    const huge = {
      ...small,
      finalMessage: 'x'.repeat(400_000),
      error: 'e'.repeat(70_000),
      models: ['model\nwith a newline', ...Array.from({ length: 30 }, (_, i) => `m${i}`)],
      toolLog: Array.from({ length: 10_050 }, (_, i) => ({
        name: `tool\u0007${i}`,
        args: i === 10_049 ? 'a'.repeat(5000) : 'a',
        ok: true,
        output: i === 10_049 ? 'o'.repeat(70_000) : 'o',
      })),
      notices: Array.from({ length: 250 }, () => 'n'.repeat(9000)),
    };
    expect(planErrors(plan(huge))).toMatch(/summary/);
    const fitted = fitSummary(huge);
    expect(planErrors(plan(fitted))).toBeUndefined();
    // the last entries of a list are kept (the end of a run is what matters most)
    expect(fitted.toolLog.at(-1)).toMatchObject({
      name: 'tool 10049',
      args: expect.stringMatching(/^a{4095}…$/),
    });
    expect(fitted.finalMessage.length).toBe(4 * 65_536);
  });

  it('branch names git accepts pass (a PR head like `fix+x/ü`); names git refuses do not', () => {
    const at = (branch: string) => planErrors(plan(small, { branch, prBase: 'main' }));
    for (const ok of ['patchloop/issue-1-fix', 'fix+x/ü', 'release/1.0']) expect(at(ok), ok).toBeUndefined();
    for (const bad of ['a..b', '-x', 'a b', 'x.lock', 'x/', '/x', 'a\\b', 'a~1', 'a:b'])
      expect(at(bad), bad).toMatch(/\/branch/);
  });

  it('commits need the base they apply on, the branch and the PR base', () => {
    expect(planErrors(plan(small, { headCommit: SHA }))).toMatch(/baseCommit|branch|prBase/);
    expect(
      planErrors(plan(small, { headCommit: SHA, baseCommit: SHA, branch: 'patchloop/x', prBase: 'main' })),
    ).toBeUndefined();
  });
});

// One publishing path: the writes that deliver a run (the push and PR, the review) are made in one
// place, src/delivery/apply.ts (through src/github), whichever stage runs. A second path added
// anywhere else under src/ fails here.
describe('one publishing path', () => {
  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });
  }
  const root = join(import.meta.dirname, '../../src');
  const callers = (call: RegExp) =>
    files(root)
      .filter((f) => call.test(readFileSync(f, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '')))
      .map((f) => f.slice(root.length + 1))
      .sort();

  it('the push with its PR is called from apply alone; the review is posted from the host apply is given', () => {
    expect(callers(/\bpushAndPropose\(/)).toEqual(['delivery/apply.ts', 'github/delivery/delivery.ts']);
    expect(callers(/\bopenPullRequest\(/)).toEqual(['github/delivery/delivery.ts', 'github/delivery/pr.ts']);
    expect(callers(/[^.\w]postDraftedReview\(/)).toEqual(['action/apply-host.ts', 'action/review.ts']);
    // deliverWork is called to commit only: nothing calls it with a push
    expect(callers(/deliverWork\(\{[\s\S]*?push: (?!false)/)).toEqual([]);
  });

  it('src/delivery imports nothing of src/action', () => {
    expect(callers(/from '\.\.\/action\//).filter((f) => f.startsWith('delivery/'))).toEqual([]);
  });
});
