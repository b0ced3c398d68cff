// `patchloop run` ends through its delivery plan (issue 37), as the action does: the plan is
// built, recorded in the transcript, validated by the plan's schema and applied with no target
// (src/delivery/apply.ts through src/cli/apply-host.ts). The commit stays on the local branch;
// nothing is pushed and nothing asks GitHub. The real CLI bundle, a real checkout with an origin,
// and the loopback Anthropic server.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/delivery/apply.js';
import { planErrors, type DeliveryPlan } from '../../src/delivery/plan.js';
import type { GitRepo } from '../../src/git/index.js';
import { parseTranscript, TranscriptWriter } from '../../src/protocol/transcript.js';
import { emptyUsage } from '../../src/protocol/types.js';
import { cliHost, localIds, localPlan } from '../../src/cli/apply-host.js';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { BUGGY_PROJECT, DIVIDE_FIX, tempRepo } from '../agent/helpers.js';
import { buildCli, runBuiltCli, type BuiltCli } from './build-cli.js';

let cli: BuiltCli;
let processTmp: string;
beforeAll(async () => {
  cli = await buildCli();
  processTmp = mkdtempSync(join(tmpdir(), 'patchloop-cli-tmp-'));
});
afterAll(() => {
  cli.cleanup();
  rmSync(processTmp, { recursive: true, force: true });
});

const run = (args: string[], env: NodeJS.ProcessEnv) => runBuiltCli(cli, args, env);

const fix = (newText: string): AnthropicTurn[] => [
  {
    toolCalls: [
      {
        id: 'toolu_01',
        name: 'edit_file',
        json: JSON.stringify({ path: 'src/math.js', oldText: DIVIDE_FIX.oldText, newText }),
      },
    ],
  },
  { toolCalls: [{ id: 'toolu_02', name: 'run_tests', json: '{}' }] },
  { text: 'Done.' },
];

/** A GitHub API that counts what reaches it (nothing should). */
async function countingGitHub(): Promise<{ url: string; hits: string[]; server: Server }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, hits, server };
}

async function runOn(turns: AnthropicTurn[]) {
  const repo = tempRepo(BUGGY_PROJECT);
  // an origin the run could push to: nothing may reach it
  const origin = mkdtempSync(join(tmpdir(), 'patchloop-origin-'));
  repo.git('init', '-q', '--bare', origin);
  repo.git('remote', 'add', 'origin', origin);
  repo.git('push', '-q', 'origin', 'main');
  const base = repo.git('rev-parse', 'HEAD').trim();
  const server = await startAnthropicServer(turns);
  const github = await countingGitHub();
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TMPDIR: processTmp,
      ANTHROPIC_API_KEY: 'sk-ant-test-0123456789abcdefghij',
      GITHUB_TOKEN: 'ghs_test0123456789abcdefghijklmnopqrstuv',
      GITHUB_API_URL: github.url,
      GITHUB_SERVER_URL: github.url,
      GITHUB_REPOSITORY: 'octo/demo',
    };
    delete env.ANTHROPIC_BASE_URL;
    const r = await run(
      [
        'run',
        '--repo',
        repo.root,
        '--model',
        'claude-sonnet-4-5',
        '--base-url',
        server.url,
        '--test-command',
        'node --test',
        'Fix the divide-by-zero in src/math.js',
      ],
      env,
    );
    const path = /^Transcript: (.+)$/m.exec(r.stdout)?.[1]?.trim();
    const transcript = parseTranscript(readFileSync(path!, 'utf8'));
    const originBranches = repo.git('ls-remote', '--heads', 'origin').trim().split('\n');
    return { r, repo, base, transcript, path: path!, githubHits: github.hits, originBranches };
  } finally {
    await server.close();
    await new Promise((r) => github.server.close(r));
    rmSync(origin, { recursive: true, force: true });
  }
}

describe('patchloop run ends through its delivery plan', () => {
  it('a green run: the plan is recorded and valid, its commit is on the local branch, nothing is pushed or asked of GitHub', async () => {
    const { r, repo, base, transcript, path, githubHits, originBranches } = await runOn(
      fix(DIVIDE_FIX.newText),
    );
    try {
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Outcome: success$/m);
      const branch = /^Branch: (.+)$/m.exec(r.stdout)![1]!;
      const sha = repo.git('rev-parse', branch).trim();
      expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe(branch);
      expect(r.stdout.trim().split('\n').at(-1)).toBe(`success · You are on branch ${branch}.`);

      const plans = transcript.events.filter((e) => e.event === 'delivery-plan');
      expect(plans).toHaveLength(1);
      const plan = plans[0]!.plan as DeliveryPlan;
      expect(planErrors(plan)).toBeUndefined();
      expect(plan).toMatchObject({
        baseCommit: base,
        headCommit: sha,
        branch,
        prBase: 'main',
        openPr: false,
        prBody: '',
        outputs: { conclusion: 'success', model: 'claude-sonnet-4-5', turns: 3 },
        summary: { conclusion: 'success', branch, commitSha: sha },
      });
      // the plan comes after the commit; apply's summary line ends the transcript
      const kinds = transcript.events.map((e) => e.event);
      expect(kinds.indexOf('delivery-plan')).toBeGreaterThan(kinds.indexOf('commit'));
      expect(transcript.summary).toMatchObject({ conclusion: 'success', branch, commitSha: sha });
      // nothing left the machine but the model's requests
      expect(kinds).not.toContain('push');
      expect(kinds).not.toContain('pull-request');
      expect(kinds).not.toContain('comment');
      expect(githubHits).toEqual([]);
      expect(originBranches).toEqual([expect.stringMatching(/\trefs\/heads\/main$/)]);

      // `patchloop inspect` shows the plan that was applied
      const inspected = await run(['inspect', path, '--json'], { ...process.env });
      expect(inspected.code).toBe(0);
      const events = (JSON.parse(inspected.stdout) as { events: { event: string }[] }).events;
      expect(events.map((e) => e.event)).toContain('delivery-plan');
      // (the line is cut at the width: the branch's name is long)
      const text = await run(['inspect', path], { ...process.env, NO_COLOR: '1' });
      expect(text.stdout).toContain(
        `! delivery-plan Delivery plan: success, commit ${sha.slice(0, 12)} on ${branch.slice(0, 20)}`,
      );
    } finally {
      repo.cleanup();
    }
  }, 180_000);

  it('a red-test run: the plan concludes failure, apply keeps it, exit 1, the work committed locally', async () => {
    const { r, repo, transcript, githubHits, originBranches } = await runOn(
      fix("  if (b === 0) throw new Error('division by zero');\n  return a / b;"),
    );
    try {
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(/^Outcome: failure \(tests still failing\)$/m);
      const branch = /^Branch: (.+)$/m.exec(r.stdout)![1]!;
      const plan = transcript.events.find((e) => e.event === 'delivery-plan')!.plan as DeliveryPlan;
      expect(planErrors(plan)).toBeUndefined();
      expect(plan.outputs.conclusion).toBe('failure');
      expect(plan.headCommit).toBe(repo.git('rev-parse', branch).trim());
      expect(transcript.summary).toMatchObject({ conclusion: 'failure' });
      expect(r.stdout.trim().split('\n').at(-1)).toBe(`failure · You are on branch ${branch}.`);
      expect(githubHits).toEqual([]);
      expect(originBranches).toHaveLength(1);
    } finally {
      repo.cleanup();
    }
  }, 180_000);
});

describe('the CLI host', () => {
  const redact = (t: string) => t.replaceAll('sk-secret-value', '[redacted]');
  const base = 'b'.repeat(40);
  const head = 'c'.repeat(40);
  function planOf(conclusion: DeliveryPlan['outputs']['conclusion'] = 'success') {
    return localPlan({
      id: '20261206T165012-0a1b2c',
      root: '/tmp/my repo',
      startedFrom: { commit: base, branch: 'main' },
      commit: { branch: 'patchloop/fix-1', sha: head },
      summary: {
        conclusion,
        models: ['m'],
        turns: 2,
        usage: emptyUsage(),
        changedFiles: [{ path: 'a.js', added: 1, removed: 0 }],
        toolLog: [],
        finalMessage: 'used sk-secret-value',
        next: { surface: 'cli' },
      },
      conclusion,
      transcriptPath: '/tmp/t.jsonl',
      redact,
    });
  }

  it('makes a plan the schema takes, redacted, with ids of the schema shape', () => {
    const plan = planOf();
    expect(planErrors(plan)).toBeUndefined();
    expect(plan).toMatchObject({ repository: 'local/my-repo', runId: '20261206165012' });
    expect(plan.marker.sessionId).toBe(`20261206165012-${0x0a1b2c}`);
    expect(JSON.stringify(plan)).not.toContain('sk-secret-value');
    expect(localIds('garbage')).toEqual({ runId: '0', sessionId: '0-0' });
  });

  async function applied(target: Parameters<typeof applyPlan>[2], conclusion?: 'failure') {
    const dir = mkdtempSync(join(tmpdir(), 'patchloop-cli-host-'));
    const transcript = new TranscriptWriter(join(dir, 't.jsonl'), { redact });
    const plan = planOf(conclusion);
    const ends: string[] = [];
    let printed: { conclusion: string; error?: string; transcriptLocation?: string } | undefined;
    const warnings: string[] = [];
    const host = cliHost({
      plan,
      transcript,
      redact,
      summaryLine: (end) => {
        ends.push(end.conclusion);
        transcript.close();
      },
      ended: (input) => (printed = input),
      warn: (m) => warnings.push(m),
    });
    try {
      const result = await applyPlan(host, plan, target);
      return {
        result,
        ends,
        printed,
        warnings,
        host,
        events: parseTranscript(readFileSync(transcript.path)),
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('applies a plan with no target: the conclusion and code are the plan’s, the summary is handed back to print', async () => {
    const green = await applied(undefined);
    expect(green.host.github).toBeUndefined();
    expect(green.result).toMatchObject({ code: 0, conclusion: 'success' });
    expect(green.ends).toEqual(['success']);
    expect(green.printed).toMatchObject({
      conclusion: 'success',
      transcriptLocation: expect.stringMatching(/t\.jsonl$/),
    });
    expect(green.warnings).toEqual([]);
    const red = await applied(undefined, 'failure');
    expect(red.result).toMatchObject({ code: 1, conclusion: 'failure' });
  });

  it('has no GitHub: a plan applied with a target is not pushed, and the run fails saying why', async () => {
    const repo = { writeBack: () => Promise.resolve() } as unknown as GitRepo;
    const target = {
      target: {
        mode: 'new-branch' as const,
        branch: 'patchloop/fix-1',
        prBases: ['main'],
        openPr: false,
        followUp: false,
      },
      repo,
    };
    const r = await applied(target);
    expect(r.result).toMatchObject({ code: 1, conclusion: 'failure' });
    expect(r.result.delivery.push).toBeUndefined();
    expect(r.printed?.error).toMatch(/no repository on GitHub to push to; nothing was pushed/);
  });
});
