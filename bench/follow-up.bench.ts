// Start-up of a follow-up run against a first run: from spawning `node index.js` (as the runner
// does, on an issue_comment event) to the first request reaching the provider.
//   A   a first run: a new `/patchloop` comment on an issue with no earlier tracking comment;
//   B   a follow-up: a new comment on an issue where an earlier run (really run here once: it reads,
//       fixes, pushes, opens a PR and uploads its transcript) left its marked tracking comment, so
//       the action finds that comment, downloads the transcript artifact, continues the session and
//       its branch;
//   B'  the same after an earlier session of LONG_TURNS turns (a transcript of some hundred KB);
//   C   the download alone, from this process: the REST calls the action makes for the earlier
//       artifact (the artifact by the id its marker names, or the run's listing; the zip's 302;
//       the signed URL), then apart from it the unzip, digest check and parse;
// with a bare `node -e ''` beside them. The kinds alternate within each round (their order turns
// from round to round), and every figure is a median with its range over the rounds. The goal:
// B ≤ A + C, judged on the medians (the same difference taken round by round is printed beside
// it, as the machine's load drifts between rounds). The breakdown after it is the action's own start-up marks (`mark()`, written as
// `::debug::` lines, which the runner shows with ACTIONS_STEP_DEBUG) and the arrival of its GitHub
// requests at the fake, medians of each kind. GitHub, the artifact service and the provider are
// loopback fakes; every run gets a fresh clone of a bare origin, as actions/checkout gives it.
// BASELINE=path/to/index.js adds two kinds, A and B' run by that other build (an older commit's
// bundle), to each round, and prints the two builds' B' − A round by round: the comparison of two
// builds that the machine's drift between rounds does not colour.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundle } from '../scripts/bundle.mjs';
import { readZip } from '../src/github/follow-up/artifact-download.js';
import { TRANSCRIPT_JSONL } from '../src/github/delivery/artifact.js';
import { readSessionMarker, type SessionMarker } from '../src/github/comment.js';
import { parseTranscript } from '../src/protocol/transcript.js';
import { startAnthropicServer, type AnthropicTurn } from '../test/fakes/anthropic-server.js';
import { startFakeArtifactService, type FakeArtifactService } from '../test/fakes/artifact-service.js';
import {
  ACTIONS_BOT,
  startFakeGitHub,
  type FakeComment,
  type FakeGitHub,
} from '../test/fakes/github-server.js';
import { parseOutputFile } from '../test/action/harness.js';
import { issueComment } from '../test/github/payloads.js';

const ROOT = resolve(import.meta.dirname, '..');
/** Two turns of the six kinds' order, so each kind follows each other kind as often. */
const RUNS = Number(process.env.RUNS ?? 12);
const LONG_TURNS = Number(process.env.LONG_TURNS ?? 200);
const TOKEN = 'ghs_faketoken';
const API_KEY = 'sk-ant-bench-follow-up-0000000000000000';
const OWNER = 'octo';
const REPO = 'demo';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const range = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms`;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const between = (at: Map<string, number>, from: string, to: string) => {
  const [a, b] = [at.get(from), at.get(to)];
  return a === undefined || b === undefined ? undefined : b - a;
};

/** The action bundled from src/ (or PATCHLOOP_ACTION=path/to/index.js, another build, measured the same way). */
async function bundleAction(dir: string): Promise<string> {
  if (process.env.PATCHLOOP_ACTION) return resolve(process.env.PATCHLOOP_ACTION);
  const out = join(dir, 'index.js');
  await bundle(join(ROOT, 'src', 'index.ts'), out);
  return out;
}

const PARTS = 10;
/** A file of about 1.5 KB, one of those the long session reads over and over. */
const part = (n: number) =>
  Array.from(
    { length: 36 },
    (_, i) => `export const row${n}_${i} = (a, b) => div(a + ${i}, b - ${n}); // row ${i}\n`,
  ).join('');

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

/** A bare origin with a small package; each run clones it afresh. */
function makeOrigin(root: string): string {
  const origin = join(root, 'origin.git');
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  const seed = join(root, 'seed');
  git(root, 'clone', '-q', origin, seed);
  git(seed, 'checkout', '-q', '-B', 'main');
  mkdirSync(join(seed, 'src'));
  writeFileSync(join(seed, 'package.json'), '{ "name": "demo", "type": "module" }\n');
  writeFileSync(join(seed, 'README.md'), '# demo\n');
  writeFileSync(join(seed, 'src', 'math.js'), 'export const div = (a, b) => a / b;\n');
  for (let n = 0; n < PARTS; n++) writeFileSync(join(seed, 'src', `part-${n}.js`), part(n));
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'init');
  git(seed, 'push', '-q', 'origin', 'main');
  return origin;
}

/** The earlier session of the short follow-up: read, fix, report (as test/action/follow-up.test.ts). */
const SHORT_SESSION: AnthropicTurn[] = [
  {
    text: 'Looking at the code.',
    toolCalls: [{ id: 'toolu_first_read', name: 'read_file', json: '{"path":"src/math.js"}' }],
    usage: { input: 500, output: 20 },
  },
  {
    toolCalls: [
      {
        id: 'toolu_first_edit',
        name: 'edit_file',
        json: JSON.stringify({ path: 'src/math.js', oldText: 'a / b', newText: '(b === 0 ? 0 : a / b)' }),
      },
    ],
    usage: { input: 600, output: 40 },
  },
  { text: 'Guarded div() against a zero divisor.', usage: { input: 700, output: 20 } },
];

/** The earlier session of the long follow-up: `turns` turns, reading the parts, then the same fix. */
function longSession(turns: number): AnthropicTurn[] {
  const out: AnthropicTurn[] = [];
  for (let i = 0; i < turns - 2; i++) {
    out.push({
      text: `Step ${i + 1}: tracing where div() is called, in src/part-${i % PARTS}.js.`,
      toolCalls: [{ id: `toolu_long_${i}`, name: 'read_file', json: `{"path":"src/part-${i % PARTS}.js"}` }],
      usage: { input: 800 + 450 * i, output: 30 },
    });
  }
  out.push(SHORT_SESSION[1]!, { ...SHORT_SESSION[2]!, text: `Read ${turns - 2} files; guarded div().` });
  return out;
}

const tmp = mkdtempSync(join(tmpdir(), 'pl-bench-follow-up-'));
let gh: FakeGitHub | undefined;
let service: FakeArtifactService | undefined;
const closers: (() => Promise<void>)[] = [];
try {
  const script = await bundleAction(tmp);
  const origin = makeOrigin(tmp);
  gh = await startFakeGitHub();
  gh.setPermission('alice', 'write');
  service = await startFakeArtifactService();
  service.mountOn(gh);
  const github = gh;
  const artifacts = service;

  let nextRun = 8000;
  let nextDir = 0;

  /** One spawn of the action as the runner starts it: to its exit, or killed once `firstRequest` resolves. */
  const launch = async (o: {
    issue: { number: number; title: string; body: string | null };
    trigger: FakeComment;
    modelUrl: string;
    inputs?: Record<string, string>;
    firstRequest?: Promise<number>;
    /** another build of the action (BASELINE) */
    script?: string;
  }) => {
    const runId = nextRun++;
    const dir = join(tmp, `run-${nextDir++}`);
    mkdirSync(dir);
    git(dir, 'clone', '-q', origin, 'work');
    const workspace = join(dir, 'work');
    const runnerTemp = join(dir, 'runner');
    const files = join(runnerTemp, '_runner_file_commands');
    mkdirSync(files, { recursive: true });
    const eventPath = join(runnerTemp, 'event.json');
    writeFileSync(
      eventPath,
      JSON.stringify(
        issueComment({
          issue: o.issue,
          comment: {
            id: o.trigger.id,
            body: o.trigger.body,
            author: { login: 'alice', id: 4242 },
            createdAt: o.trigger.created_at,
          },
        }),
      ),
    );
    writeFileSync(join(files, 'set_output'), '');
    writeFileSync(join(files, 'step_summary'), '');
    const identity = artifacts.job({ runId, job: 'patchloop' });
    const inputs: Record<string, string> = {
      'github-token': TOKEN,
      'api-key': API_KEY,
      'base-url': o.modelUrl,
      ...o.inputs,
    };
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      LANG: 'C.UTF-8',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
      GITHUB_REPOSITORY_OWNER: OWNER,
      GITHUB_RUN_ID: String(runId),
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_JOB: 'patchloop',
      GITHUB_ACTOR: 'alice',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_API_URL: github.url,
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: join(files, 'set_output'),
      GITHUB_STEP_SUMMARY: join(files, 'step_summary'),
      RUNNER_TEMP: runnerTemp,
      RUNNER_OS: 'Linux',
      ACTIONS_RUNTIME_TOKEN: identity.token,
      ACTIONS_RESULTS_URL: artifacts.url,
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    };
    const wall = Date.now();
    const t0 = performance.now();
    const child = spawn(process.execPath, [o.script ?? script], {
      cwd: workspace,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    let firstMs: number | undefined;
    let code: number | null = null;
    if (o.firstRequest) {
      const at = await Promise.race([o.firstRequest, closed.then(() => -1)]);
      child.kill('SIGKILL');
      await closed;
      if (at < 0)
        throw new Error(`the action exited before asking the provider anything:\n${out.slice(-3000)}`);
      firstMs = at - t0;
    } else {
      const kill = setTimeout(() => child.kill('SIGKILL'), 300_000);
      code = await closed;
      clearTimeout(kill);
    }
    const marks = new Map<string, number>();
    for (const m of out.matchAll(/::debug::patchloop: (.+?) at (\d+) ms/g)) marks.set(m[1]!, Number(m[2]));
    return {
      runId,
      firstMs,
      code,
      out,
      marks,
      wall,
      outputs: readFileSync(join(files, 'set_output'), 'utf8'),
    };
  };

  /** Run 1, to the end: fixes the issue, pushes, opens the PR, uploads the transcript. */
  const earlierRun = async (title: string, turns: AnthropicTurn[]) => {
    const issue = github.addIssue({ title, body: 'div(1, 0) should be 0' });
    const trigger = github.addComment(issue.number, { body: '/patchloop please fix this', author: 'alice' });
    const model = await startAnthropicServer(turns);
    closers.push(() => model.close());
    const uploaded = artifacts.artifacts.filter((a) => a.finalized).length;
    const r = await launch({
      issue,
      trigger,
      modelUrl: model.url,
      inputs: { 'max-turns': String(turns.length + 5) },
    });
    if (r.code !== 0 || parseOutputFile(r.outputs).conclusion !== 'success')
      throw new Error(`the earlier run did not succeed (exit ${r.code}):\n${r.out.slice(-3000)}`);
    if (model.requests.length !== turns.length)
      throw new Error(`the earlier run made ${model.requests.length} model requests, not ${turns.length}`);
    const artifact = artifacts.artifacts.filter((a) => a.finalized)[uploaded];
    if (!artifact) throw new Error('the earlier run uploaded no transcript artifact');
    const tracking = github
      .commentsOn(issue.number)
      .find((c) => c.user.login === ACTIONS_BOT.login && readSessionMarker(c.body));
    const marker = tracking && readSessionMarker(tracking.body);
    if (!marker) throw new Error('the earlier run left no marked tracking comment');
    const zip = artifacts.zipOf(artifact.id);
    const jsonl = (await readZip(zip, { only: [TRANSCRIPT_JSONL], maxBytes: 1 << 30 })).get(
      TRANSCRIPT_JSONL,
    )!;
    const messages = parseTranscript(jsonl).messages.length;
    return { issue, marker, zipBytes: zip.length, jsonlBytes: jsonl.length, messages, turns: turns.length };
  };

  const short = await earlierRun('div by zero returns Infinity', SHORT_SESSION);
  const long = await earlierRun('div by zero, traced through every caller', longSession(LONG_TURNS));

  // The provider of the measured runs: each first request resolves the waiting run, which is then killed.
  let arrived: ((at: number) => void) | undefined;
  const model = await startAnthropicServer(() => {
    arrived?.(performance.now());
    return { text: 'done' };
  });
  closers.push(() => model.close());
  const firstRequest = () => new Promise<number>((r) => (arrived = r));

  // The artifact service logs its requests without a time; the signed URL's GET is stamped here.
  const blobGets: number[] = [];
  const log = artifacts.requests;
  const logged = log.push.bind(log);
  log.push = (...items) => {
    for (const r of items) if (r.kind === 'blob' && r.method === 'GET') blobGets.push(Date.now());
    return logged(...items);
  };

  type Start = Awaited<ReturnType<typeof launch>> & { requests: Map<string, number>; bodyBytes: number };
  /** When the action's GitHub requests arrived, in ms since its spawn (the first of each kind). */
  const requestsSince = (wall: number, issue: number): Map<string, number> => {
    const out = new Map<string, number>();
    const base = `/repos/${OWNER}/${REPO}`;
    const kinds: [string, string, RegExp][] = [
      ['permission asked', 'GET', /\/collaborators\/[^/]+\/permission$/],
      ['comment POSTed', 'POST', new RegExp(`^${base}/issues/${issue}/comments$`)],
      ['comments listed', 'GET', new RegExp(`^${base}/issues/${issue}/comments$`)],
      ['artifact asked', 'GET', /\/actions\/(artifacts\/\d+|runs\/\d+\/artifacts)$/],
      ['zip asked', 'GET', /\/actions\/artifacts\/\d+\/zip$/],
    ];
    for (const r of github.requests) {
      if (r.at < wall) continue;
      const kind = kinds.find(([, method, path]) => r.method === method && path.test(r.path));
      if (kind && !out.has(kind[0])) out.set(kind[0], r.at - wall);
    }
    const blob = blobGets.find((at) => at >= wall);
    if (blob !== undefined) out.set('signed URL fetched', blob - wall);
    return out;
  };

  const bodyBytes = (i: number) => Buffer.byteLength(model.requests[i]?.raw ?? '');

  /** A: a new issue, its first `/patchloop` comment. */
  const firstStart = async (round: number, build?: string): Promise<Start> => {
    const issue = github.addIssue({ title: `First run ${round}`, body: 'div(1, 0) should be 0' });
    const trigger = github.addComment(issue.number, { body: '/patchloop please fix this', author: 'alice' });
    const seen = model.requests.length;
    const r = await launch({
      issue,
      trigger,
      modelUrl: model.url,
      firstRequest: firstRequest(),
      ...(build ? { script: build } : {}),
    });
    const messages = (model.requests[seen]?.body as { messages?: unknown[] } | undefined)?.messages;
    if (messages?.length !== 1) throw new Error(`a first run sent ${messages?.length} messages, not 1`);
    return { ...r, requests: requestsSince(r.wall, issue.number), bodyBytes: bodyBytes(seen) };
  };

  /**
   * B: a new `/patchloop` comment where the earlier run left its tracking comment. What the killed
   * run posts (its own marked comment) is taken off again, so each round finds the issue as the
   * earlier run left it.
   */
  const followUpStart = async (earlier: typeof short, build?: string): Promise<Start> => {
    const before = new Set(github.issueComments.map((c) => c.id));
    const trigger = github.addComment(earlier.issue.number, {
      body: '/patchloop also handle NaN',
      author: 'alice',
    });
    const seen = model.requests.length;
    try {
      const r = await launch({
        issue: earlier.issue,
        trigger,
        modelUrl: model.url,
        firstRequest: firstRequest(),
        ...(build ? { script: build } : {}),
      });
      const messages = (model.requests[seen]?.body as { messages?: unknown[] } | undefined)?.messages;
      if (
        !r.marks.has('earlier session read') ||
        (messages?.length ?? 0) < 2 ||
        !r.out.includes('continuing the session')
      )
        throw new Error(`the follow-up did not continue the earlier session:\n${r.out.slice(-3000)}`);
      return { ...r, requests: requestsSince(r.wall, earlier.issue.number), bodyBytes: bodyBytes(seen) };
    } finally {
      for (let i = github.issueComments.length - 1; i >= 0; i--)
        if (!before.has(github.issueComments[i]!.id)) github.issueComments.splice(i, 1);
    }
  };

  /** C: the download the action makes of the earlier artifact, over the same REST routes. */
  const headers = {
    authorization: `token ${TOKEN}`,
    accept: 'application/vnd.github+json',
    'user-agent': 'patchloop-bench',
  };
  const getJson = async (path: string) => {
    const res = await fetch(`${github.url}${path}`, { headers });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    return res.json() as Promise<{ id: number; name: string; digest?: string } & Record<string, unknown>>;
  };
  const download = async (marker: SessionMarker) => {
    const t0 = performance.now();
    const base = `/repos/${OWNER}/${REPO}/actions`;
    let artifact: { id: number; name: string; digest?: string };
    if (marker.artifactId !== undefined) {
      artifact = await getJson(`${base}/artifacts/${marker.artifactId}`);
    } else {
      const q = new URLSearchParams({
        per_page: '100',
        ...(marker.artifactName ? { name: marker.artifactName } : {}),
      });
      const list = (await getJson(`${base}/runs/${marker.runId}/artifacts?${q}`)) as unknown as {
        artifacts: { id: number; name: string; digest?: string }[];
      };
      artifact = list.artifacts.sort((a, b) => b.id - a.id)[0]!;
    }
    const redirect = await fetch(`${github.url}${base}/artifacts/${artifact.id}/zip`, {
      headers,
      redirect: 'manual',
    });
    await redirect.arrayBuffer();
    const location = redirect.headers.get('location');
    if (redirect.status !== 302 || !location) throw new Error(`the zip route answered ${redirect.status}`);
    const res = await fetch(location);
    if (res.status !== 200) throw new Error(`the storage host answered ${res.status}`);
    const zip = Buffer.from(await res.arrayBuffer());
    const t1 = performance.now();
    if (artifact.digest && artifact.digest !== `sha256:${createHash('sha256').update(zip).digest('hex')}`)
      throw new Error('the zip does not match its digest');
    const jsonl = (await readZip(zip, { only: [TRANSCRIPT_JSONL], maxBytes: 1 << 30 })).get(
      TRANSCRIPT_JSONL,
    )!;
    parseTranscript(jsonl);
    return { ms: t1 - t0, unpackMs: performance.now() - t1 };
  };

  const bare = () =>
    new Promise<number>((done) => {
      const t0 = performance.now();
      // with the action's environment (see startup.bench.ts: NODE_EXTRA_CA_CERTS weighs on both or neither)
      spawn(process.execPath, ['-e', ''], {
        stdio: 'ignore',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
      }).on('close', () => done(performance.now() - t0));
    });

  const kinds = ['node', 'A', 'B', "B'", 'C', "C'"] as const;
  type Kind = (typeof kinds)[number];
  const baseline = process.env.BASELINE ? resolve(process.env.BASELINE) : undefined;
  const order: (Kind | 'base A' | "base B'")[] = [
    ...kinds,
    ...(baseline ? (['base A', "base B'"] as const) : []),
  ];
  const starts: Record<'A' | 'B' | "B'", Start[]> = { A: [], B: [], "B'": [] };
  const ms: Record<Kind, number[]> = { node: [], A: [], B: [], "B'": [], C: [], "C'": [] };
  const unpack: Record<'C' | "C'", number[]> = { C: [], "C'": [] };
  const base: Record<'A' | "B'", number[]> = { A: [], "B'": [] };
  for (let round = 0; round < RUNS; round++) {
    for (let k = 0; k < order.length; k++) {
      const kind = order[(k + round) % order.length]!;
      if (kind === 'base A') base.A.push((await firstStart(round, baseline)).firstMs!);
      else if (kind === "base B'") base["B'"].push((await followUpStart(long, baseline)).firstMs!);
      else if (kind === 'node') ms.node.push(await bare());
      else if (kind === 'C' || kind === "C'") {
        const d = await download((kind === 'C' ? short : long).marker);
        ms[kind].push(d.ms);
        unpack[kind].push(d.unpackMs);
      } else {
        const s = kind === 'A' ? await firstStart(round) : await followUpStart(kind === 'B' ? short : long);
        starts[kind].push(s);
        ms[kind].push(s.firstMs!);
      }
    }
  }

  const m = Object.fromEntries(kinds.map((k) => [k, median(ms[k])])) as Record<Kind, number>;
  const line = (label: string, xs: number[], extra = '') =>
    console.log(`${label.padEnd(58)} ${median(xs).toFixed(0).padStart(5)} ms  (${range(xs)})${extra}`);
  console.log(
    `earlier sessions: ${short.turns} turns (${short.messages} messages, transcript ${kb(short.jsonlBytes)}, zip ${kb(short.zipBytes)}); ` +
      `${long.turns} turns (${long.messages} messages, transcript ${kb(long.jsonlBytes)}, zip ${kb(long.zipBytes)})`,
  );
  console.log(
    `C's requests: ${short.marker.artifactId !== undefined ? 'the artifact by the id its marker names' : "the run's artifact listing"}, the zip's 302, the signed URL`,
  );
  console.log(
    `first request bodies: A ${kb(starts.A[0]!.bodyBytes)}, B ${kb(starts.B[0]!.bodyBytes)}, B' ${kb(starts["B'"][0]!.bodyBytes)}`,
  );
  console.log(`medians of ${RUNS} rounds, kinds alternating (range):`);
  line("node -e '' (start to exit)", ms.node);
  line('A  first run: spawn → first provider request', ms.A);
  line(`B  follow-up, ${short.turns}-turn earlier session: spawn → first request`, ms.B);
  line(`B' follow-up, ${long.turns}-turn earlier session: spawn → first request`, ms["B'"]);
  line(
    `C  download of the ${short.turns}-turn session's artifact`,
    ms.C,
    `; unzip + parse ${median(unpack.C).toFixed(1)} ms more`,
  );
  line(
    `C' download of the ${long.turns}-turn session's artifact`,
    ms["C'"],
    `; unzip + parse ${median(unpack["C'"]).toFixed(1)} ms more`,
  );
  const verdicts: boolean[] = [];
  for (const [b, c] of [
    ['B', 'C'],
    ["B'", "C'"],
  ] as const) {
    const over = m[b] - (m.A + m[c]);
    const perRound = ms[b].map((x, i) => x - (ms.A[i]! + ms[c][i]!));
    verdicts.push(over <= 0);
    console.log(
      `${`${b} − (A + ${c})`.padEnd(58)} ${over.toFixed(0).padStart(5)} ms  (per round: median ${median(perRound).toFixed(0)} ms, ${range(perRound)}; ${b} − A = ${(m[b] - m.A).toFixed(0)} ms)`,
    );
  }
  const yes = (ok: boolean) => (ok ? 'yes' : 'no');
  console.log(
    `follow-up start ≤ first start + download: ${yes(verdicts.every(Boolean))} (${short.turns}-turn earlier session: ${yes(verdicts[0]!)}, ${long.turns}-turn: ${yes(verdicts[1]!)})`,
  );

  // Where the time goes: the action's marks (ms since its process started) and its requests' arrival
  // at the fake GitHub (ms since the spawn), medians per kind, in the order the follow-up meets them.
  const rows = new Map<string, { label: string; of: (s: Start) => number | undefined }>();
  for (const s of [...starts.B, ...starts.A]) {
    for (const label of s.marks.keys()) rows.set(`mark ${label}`, { label, of: (x) => x.marks.get(label) });
    for (const label of s.requests.keys())
      rows.set(`request ${label}`, { label: `(request) ${label}`, of: (x) => x.requests.get(label) });
  }
  rows.set('first', { label: '(request) first to the provider', of: (x) => x.firstMs });
  const med = (xs: Start[], of: (s: Start) => number | undefined) => {
    const v = xs.map(of).filter((x): x is number => x !== undefined);
    return v.length === xs.length ? median(v) : undefined;
  };
  const cell = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(0)).padStart(7);
  const table = [...rows.values()]
    .map((r) => ({ ...r, a: med(starts.A, r.of), b: med(starts.B, r.of), l: med(starts["B'"], r.of) }))
    .sort((x, y) => (x.b ?? x.a ?? 0) - (y.b ?? y.a ?? 0));
  console.log('where the time goes (marks: ms since the action started; requests: ms since its spawn):');
  console.log(
    `${''.padEnd(40)}${'A'.padStart(7)}${'B'.padStart(7)}${"B'".padStart(7)}${'B−A'.padStart(7)}${"B'−A".padStart(7)}`,
  );
  for (const r of table) {
    const d = (x: number | undefined) => (x !== undefined && r.a !== undefined ? x - r.a : undefined);
    console.log(`  ${r.label.padEnd(38)}${cell(r.a)}${cell(r.b)}${cell(r.l)}${cell(d(r.b))}${cell(d(r.l))}`);
  }
  // A first run starts its branch once the listing shows no marker; a follow-up starts it once the
  // earlier session is read. The steps between, each measured within one run on one clock.
  const chain: [string, (s: Start) => number | undefined][] = [
    [
      'comments listed → tracking comment POSTed',
      (s) => between(s.requests, 'comments listed', 'comment POSTed'),
    ],
    ['comments listed → artifact asked', (s) => between(s.requests, 'comments listed', 'artifact asked')],
    [
      'artifact asked → signed URL fetched',
      (s) => between(s.requests, 'artifact asked', 'signed URL fetched'),
    ],
    ['earlier session read → branch ready', (s) => between(s.marks, 'earlier session read', 'branch ready')],
  ];
  console.log(`the follow-up's own steps, per run (B / B', medians and ranges; C: ${m.C.toFixed(0)} ms):`);
  for (const [label, of] of chain) {
    const [b, l] = [starts.B, starts["B'"]].map((xs) =>
      xs.map(of).filter((x): x is number => x !== undefined),
    );
    console.log(
      `  ${label.padEnd(44)} ${median(b!).toFixed(0).padStart(4)} / ${median(l!).toFixed(0).padStart(4)} ms  (${range(b!)} / ${range(l!)})`,
    );
  }
  // The last stretch: writing the earlier messages into the new transcript, building and sending the
  // request. A mark and an arrival, so the gap holds the process's own start too, alike for each kind.
  const tail = (xs: Start[]) => median(xs.map((s) => s.firstMs! - s.marks.get('tools and provider ready')!));
  console.log(
    `  tools and provider ready → first request      A ${tail(starts.A).toFixed(0)} / B ${tail(starts.B).toFixed(0)} / B' ${tail(starts["B'"]).toFixed(0)} ms (a mark to an arrival)`,
  );
  if (baseline) {
    const gaps = (a: number[], l: number[]) => l.map((x, i) => x - a[i]!);
    const [now, then] = [gaps(ms.A, ms["B'"]), gaps(base.A, base["B'"])];
    console.log(`this build against BASELINE (${baseline}), the same rounds:`);
    line('A  this build', ms.A);
    line('A  baseline', base.A);
    line("B' this build", ms["B'"]);
    line("B' baseline", base["B'"]);
    line("B' − A per round, this build", now);
    line("B' − A per round, baseline", then);
    line(
      "(B' − A) this build − baseline, per round",
      now.map((x, i) => x - then[i]!),
    );
  }
} finally {
  for (const close of closers) await close();
  await gh?.stop();
  await service?.stop();
  rmSync(tmp, { recursive: true, force: true });
}
