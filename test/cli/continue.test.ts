// `patchloop run --continue FILE.jsonl "next request"` through the real CLI bundle, with the
// loopback Anthropic server as the model and a real git checkout: the earlier conversation comes
// first, the work goes on the earlier branch, and the new transcript stands on its own.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseTranscript } from '../../src/protocol/transcript.js';
import { startAnthropicServer, type AnthropicTurn } from '../fakes/anthropic-server.js';
import { BUGGY_PROJECT, DIVIDE_FIX, tempRepo, type TempRepo } from '../agent/helpers.js';
import { buildCli, type BuiltCli } from './build-cli.js';

const API_KEY = 'sk-ant-api03-continue-test-key-0123456789abcdef';
/** Not the provider's default: a continued session must keep it without being told. */
const MODEL = 'claude-sonnet-4-5';

let cli: BuiltCli;
let processTmp: string;
const repos: TempRepo[] = [];

beforeAll(async () => {
  cli = await buildCli();
  processTmp = mkdtempSync(join(tmpdir(), 'patchloop-continue-tmp-'));
});
afterAll(() => {
  cli.cleanup();
  rmSync(processTmp, { recursive: true, force: true });
});
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, TMPDIR: processTmp, ANTHROPIC_API_KEY: API_KEY };
  for (const k of ['OPENAI_API_KEY', 'GEMINI_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL']) delete e[k];
  return e;
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli.path, ...args], {
      env: env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function transcriptPathOf(stdout: string): string {
  const m = /^Transcript: (.+)$/m.exec(stdout);
  if (!m) throw new Error(`no transcript path in:\n${stdout}`);
  return m[1]!.trim();
}

const FIRST: AnthropicTurn[] = [
  {
    text: 'Reading the code.',
    toolCalls: [{ id: 'toolu_first_read', name: 'read_file', json: '{"path":"src/math.js"}' }],
  },
  {
    toolCalls: [
      {
        id: 'toolu_first_edit',
        name: 'edit_file',
        json: JSON.stringify({ path: 'src/math.js', ...DIVIDE_FIX }),
      },
    ],
  },
  { text: 'divide() now throws a RangeError for zero.' },
];

const NAN_FIX = {
  oldText: "  if (b === 0) throw new RangeError('division by zero');",
  newText:
    "  if (b === 0) throw new RangeError('division by zero');\n  if (Number.isNaN(b)) throw new RangeError('not a number');",
};

const SECOND: AnthropicTurn[] = [
  {
    toolCalls: [
      {
        id: 'toolu_second_edit',
        name: 'edit_file',
        json: JSON.stringify({ path: 'src/math.js', ...NAN_FIX }),
      },
    ],
  },
  { text: 'NaN is refused as well.' },
];

type Wire = {
  role: string;
  content: string | { type: string; text?: string; id?: string; tool_use_id?: string }[];
};

describe('patchloop run --continue', () => {
  it('continues the recorded session on its branch; the new transcript holds both sessions and replays alone', async () => {
    const repo = tempRepo(BUGGY_PROJECT);
    repos.push(repo);
    const first = await startAnthropicServer(FIRST);
    const second = await startAnthropicServer(SECOND);
    try {
      const r1 = await runCli([
        'run',
        '--repo',
        repo.root,
        '--model',
        MODEL,
        '--base-url',
        first.url,
        'Fix the divide-by-zero in src/math.js',
      ]);
      expect(r1.code, `${r1.stderr}\n${r1.stdout}`).toBe(0);
      const t1Path = transcriptPathOf(r1.stdout);
      const t1 = parseTranscript(readFileSync(t1Path, 'utf8'));
      const branch = t1.summary!.branch as string;
      const firstCommit = t1.summary!.commitSha as string;
      expect(branch).toMatch(/^patchloop\//);
      // The user moves back to main in between: --continue goes back to the session's branch.
      repo.git('checkout', '-q', 'main');

      const r2 = await runCli([
        'run',
        '--continue',
        t1Path,
        '--repo',
        repo.root,
        '--base-url',
        second.url,
        'Also refuse NaN',
      ]);
      expect(r2.code, r2.stderr).toBe(0);
      expect(r2.stdout).toMatch(/^Outcome: success$/m);

      // The same model, and the earlier conversation first, every call with its result, then the request.
      const req = second.requests[0]!.body as { model: string; messages: Wire[] };
      expect(req.model).toBe(MODEL);
      const wire = JSON.stringify(req.messages);
      expect(wire).toContain('Fix the divide-by-zero in src/math.js');
      for (const id of ['toolu_first_read', 'toolu_first_edit']) {
        expect(wire).toContain(`"id":"${id}"`);
        expect(wire).toContain(`"tool_use_id":"${id}"`);
      }
      expect(wire).toContain('divide() now throws a RangeError for zero.');
      const lastUser = req.messages[req.messages.length - 1]!;
      expect(lastUser.role).toBe('user');
      expect(JSON.stringify(lastUser.content)).toContain('Also refuse NaN');
      expect(wire.indexOf('Fix the divide-by-zero')).toBeLessThan(wire.indexOf('Also refuse NaN'));

      // The commit went on the earlier branch, on top of the earlier commit; the checkout is on it.
      expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe(branch);
      expect(repo.git('rev-parse', `${branch}^`).trim()).toBe(firstCommit);
      expect(readFileSync(join(repo.root, 'src/math.js'), 'utf8')).toContain('Number.isNaN(b)');
      expect(repo.git('status', '--porcelain').trim()).toBe('');

      // The transcript: continues on the session line, run 1's messages unchanged, the boundary, the request.
      const t2Path = transcriptPathOf(r2.stdout);
      const t2 = parseTranscript(readFileSync(t2Path, 'utf8'));
      expect(t2.session!.continues).toEqual({ sessionId: t1.session!.id });
      expect(t2.session!.model).toBe(MODEL);
      const lines = t2.lines;
      const n = t1.messages.length;
      expect(lines.slice(1, 1 + n).map((l) => (l.type === 'message' ? l.message : l))).toEqual(t1.messages);
      expect(lines[1 + n]).toMatchObject({
        type: 'event',
        event: 'continue',
        sessionId: t1.session!.id,
        earlierMessages: n,
      });
      expect(lines[2 + n]).toMatchObject({ type: 'message', message: { role: 'user' } });
      expect(JSON.stringify(lines[2 + n])).toContain('Also refuse NaN');
      expect(t2.summary).toMatchObject({ conclusion: 'success', branch });
      expect(readFileSync(t2Path, 'utf8')).not.toContain(API_KEY);

      // inspect, export and replay on the continued file alone.
      const inspected = await runCli(['inspect', t2Path, '--json']);
      expect(inspected.code, inspected.stderr).toBe(0);
      const view = JSON.parse(inspected.stdout) as {
        turns: unknown[];
        tools: Record<string, { calls: number }>;
      };
      expect(view.turns).toHaveLength(5);
      expect(view.tools.edit_file!.calls).toBe(2);
      const htmlPath = join(processTmp, 'continued.html');
      const exported = await runCli(['export', t2Path, '-o', htmlPath]);
      expect(exported.code, exported.stderr).toBe(0);
      const html = readFileSync(htmlPath, 'utf8');
      expect(html).toContain('id="earlier-session-end"');
      expect(html.indexOf('divide() now throws a RangeError for zero.')).toBeLessThan(
        html.indexOf('id="earlier-session-end"'),
      );
      expect(html.indexOf('id="earlier-session-end"')).toBeLessThan(
        html.lastIndexOf('NaN is refused as well.'),
      );

      // A fresh checkout of where the whole session started: every recorded call matches.
      const fresh = tempRepo(BUGGY_PROJECT);
      repos.push(fresh);
      const replayed = await runCli(['replay', t2Path, '--repo', fresh.root]);
      expect(replayed.code, replayed.stdout + replayed.stderr).toBe(0);
      expect(replayed.stdout).toMatch(/3 recorded tool call/);
    } finally {
      await first.close();
      await second.close();
    }
  });

  // Seen once to end its first run with exit 1 during a whole-suite run under Node 24 on a loaded
  // machine, and not since in many runs alone and side by side; one retry, and the failure message
  // carries the run's stdout (its summary says why) should it happen again.
  it(
    'works on a new branch when the earlier one is gone, and refuses a file that is not a transcript',
    { retry: 1 },
    async () => {
      const repo = tempRepo(BUGGY_PROJECT);
      repos.push(repo);
      const first = await startAnthropicServer(FIRST);
      const second = await startAnthropicServer(SECOND);
      try {
        const r1 = await runCli([
          'run',
          '--repo',
          repo.root,
          '--model',
          MODEL,
          '--base-url',
          first.url,
          'Fix the divide-by-zero',
        ]);
        expect(r1.code, `${r1.stderr}\n${r1.stdout}`).toBe(0);
        const t1Path = transcriptPathOf(r1.stdout);
        const branch = parseTranscript(readFileSync(t1Path, 'utf8')).summary!.branch as string;
        repo.git('checkout', '-q', 'main');
        repo.git('branch', '-q', '-D', branch);
        // main lacks the first fix: the second edit's oldText is not there, and the model is told so.
        const r2 = await runCli([
          'run',
          '--continue',
          t1Path,
          '--repo',
          repo.root,
          '--base-url',
          second.url,
          'Also refuse NaN',
        ]);
        expect(r2.stderr).toContain(`the branch ${branch} of the earlier session no longer exists`);
        expect(r2.code, r2.stderr).toBe(0);
        expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
        expect(JSON.stringify(second.requests[0]!.body)).toContain('toolu_first_edit');

        const notTranscript = join(processTmp, 'not-a-transcript.jsonl');
        const bad = await runCli(['run', '--continue', notTranscript, '--repo', repo.root, 'x']);
        expect(existsSync(notTranscript)).toBe(false);
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain('--continue: cannot read');
      } finally {
        await first.close();
        await second.close();
      }
    },
  );
});
