// The delivery plan: everything a run's ending would write to GitHub, as one value (issue 37).
// `stage: agent` uploads it as the delivery artifact's manifest; `stage: deliver` reads it back
// through the JSON Schema below, every field typed and bounded, before anything of it is used. A
// compromised agent job writes this file: nothing here is trusted for where the work goes (the
// deliver job derives the branch itself, target.ts), and every text is bounded.
import { Ajv, type ErrorObject } from 'ajv';
import type { RunSummaryInput } from '../report/summary.js';
import type { DraftComment } from '../tools/add-review-comment.js';

export const PLAN_SCHEMA_VERSION = 2;

/** The contract's conclusions (CONTRACT §3); a plan naming any other word is refused. */
export const CONCLUSIONS = [
  'success',
  'no-changes',
  'failure',
  'cancelled',
  'skipped',
  'unauthorized',
  'budget-exceeded',
  'planned',
] as const;

/** A review written down instead of posted: what the review body is made of and the inline drafts. */
export interface ReviewDraft {
  /** the model's final message: the review body's text */
  finalText: string;
  /** what was checked (the tests' last run), one sentence */
  checked: string;
  /** the model, turns, tokens and cost, one line */
  usage: string;
  /** the comments the model drafted with add_review_comment (placed again by the deliver job) */
  comments: DraftComment[];
}

export interface DeliveryPlan {
  schema: typeof PLAN_SCHEMA_VERSION;
  repository: string;
  runId: string;
  runAttempt: string;
  workflowRef: string;
  /** the commit the work started from; the bundle's one prerequisite (absent: the run stopped before its branch was ready) */
  baseCommit?: string;
  /** the commit to push; absent when the run made none */
  headCommit?: string;
  /** sha256 of the bundle file */
  bundleSha256?: string;
  /** where the agent job put the work: a claim, compared with what the deliver job derives */
  branch?: string;
  /** true: the branch is the PR's own head branch */
  prHead: boolean;
  prBase?: string;
  openPr: boolean;
  draft: boolean;
  pullNumber?: number;
  prTitle: string;
  prBody: string;
  /** a review run's review, posted by whoever applies the plan */
  review?: ReviewDraft;
  /** the valid answer to `output-schema`, as JSON text */
  answer?: string;
  /** the tracking comment the agent stage posted, to be edited into the summary */
  commentId?: number;
  /** the summary comment as the agent stage rendered it */
  commentText: string;
  /** what renders the summary once the push and the PR are known (RunSummaryInput) */
  summary: Record<string, unknown>;
  outputs: {
    conclusion: (typeof CONCLUSIONS)[number];
    model: string;
    turns: number;
    usage: Record<string, number>;
    transcriptPath?: string;
    artifactUrl?: string;
  };
  /** the follow-up marker's session fields: the agent stage's session and transcript artifact */
  marker: { sessionId: string; artifactName?: string; artifactId?: number };
  /** the transcript's name in the artifact */
  transcript?: 'transcript.jsonl';
}

const TEXT = 65_536;
const str = (maxLength: number, extra: Record<string, unknown> = {}) => ({
  type: 'string',
  maxLength,
  ...extra,
});
/** One line: no control character (a title, a model id, a path). */
const line = (maxLength: number) => str(maxLength, { pattern: '^[^\\u0000-\\u001f\\u007f]*$' });
const SHA = { type: 'string', pattern: '^[0-9a-f]{40}([0-9a-f]{24})?$' };
/** A branch name git accepts (check-ref-format's rules, without the ones no name here can break). */
const BRANCH = str(255, {
  pattern: '^(?![/.-])(?!.*(\\.\\.|//|@\\{|\\.lock$|[/.]$))[^\\u0000-\\u0020\\u007f~^:?*\\[\\\\]+$',
});
const count = (maximum: number) => ({ type: 'integer', minimum: 0, maximum });
const positive = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
const URL = str(2048, { pattern: '^https?://[^\\s<>"]+$' });
const object = (properties: Record<string, unknown>, required: string[] = [], more: unknown = false) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: more,
});

const USAGE = object(
  {
    inputTokens: count(1e12),
    outputTokens: count(1e12),
    cacheReadTokens: count(1e12),
    cacheWriteTokens: count(1e12),
    costUsd: { type: 'number', minimum: 0, maximum: 1e9 },
  },
  [],
);

const DRAFT_COMMENT = object(
  {
    path: line(4096),
    line: count(1e8),
    startLine: count(1e8),
    body: str(TEXT),
    suggestion: str(TEXT),
    inDiff: { type: 'boolean' },
    reason: str(2000),
  },
  ['path', 'line', 'body', 'inDiff'],
);

/**
 * The summary's known fields are typed; fields a newer renderer adds are bounded JSON values, so a
 * new field flows through without a schema change and still cannot carry an unbounded value.
 */
const SUMMARY = object(
  {
    conclusion: { enum: CONCLUSIONS },
    models: { type: 'array', maxItems: 20, items: line(500) },
    turns: count(1e6),
    durationMs: count(1e12),
    usage: USAGE,
    branch: BRANCH,
    commitSha: SHA,
    prUrl: URL,
    prNumber: positive,
    compareUrl: URL,
    changedFiles: {
      type: 'array',
      maxItems: 10_000,
      items: object(
        { path: str(4096), added: count(1e9), removed: count(1e9), binary: { type: 'boolean' } },
        ['path', 'added', 'removed'],
      ),
    },
    finalMessage: str(TEXT * 4),
    error: str(TEXT),
    toolLog: {
      type: 'array',
      maxItems: 10_000,
      items: object({ name: line(200), args: str(4096), ok: { type: 'boolean' }, output: str(TEXT) }, [
        'name',
        'args',
        'ok',
        'output',
      ]),
    },
    transcriptLocation: str(4096),
    runUrl: URL,
    notices: { type: 'array', maxItems: 200, items: str(8192) },
    serverUrl: URL,
    repository: line(200),
    pushed: { type: 'boolean' },
    requester: line(100),
    artifactUrl: URL,
    artifactName: line(300),
    diff: str(TEXT * 4),
    related: {
      type: 'array',
      maxItems: 20,
      items: object({ label: line(200), url: URL }, ['label', 'url']),
    },
    commandNetwork: str(8192),
    structuredOutput: str(1 << 20),
    reviewUrl: URL,
    request: str(TEXT),
  },
  ['conclusion', 'models', 'turns', 'usage', 'changedFiles', 'toolLog'],
  { $ref: '#/$defs/json' },
);

export const DELIVERY_PLAN_SCHEMA = {
  $defs: {
    // any JSON value, every string and collection bounded
    json: {
      anyOf: [
        { type: ['null', 'boolean', 'number'] },
        str(TEXT),
        { type: 'array', maxItems: 1000, items: { $ref: '#/$defs/json' } },
        {
          type: 'object',
          maxProperties: 100,
          propertyNames: { maxLength: 100 },
          additionalProperties: { $ref: '#/$defs/json' },
        },
      ],
    },
  },
  ...object(
    {
      schema: { const: PLAN_SCHEMA_VERSION },
      repository: str(200, { pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$' }),
      runId: str(20, { pattern: '^[0-9]+$' }),
      runAttempt: str(10, { pattern: '^[0-9]+$' }),
      workflowRef: line(1024),
      baseCommit: SHA,
      headCommit: SHA,
      bundleSha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      branch: BRANCH,
      prHead: { type: 'boolean' },
      prBase: line(255),
      openPr: { type: 'boolean' },
      draft: { type: 'boolean' },
      pullNumber: positive,
      prTitle: line(256),
      prBody: str(TEXT),
      review: object(
        {
          finalText: str(TEXT),
          checked: str(1000),
          usage: line(1000),
          comments: { type: 'array', maxItems: 200, items: DRAFT_COMMENT },
        },
        ['finalText', 'checked', 'usage', 'comments'],
      ),
      answer: str(1 << 20),
      commentId: positive,
      commentText: str(TEXT),
      summary: SUMMARY,
      outputs: object(
        {
          conclusion: { enum: CONCLUSIONS },
          model: line(1000),
          turns: count(1e6),
          usage: USAGE,
          transcriptPath: line(4096),
          artifactUrl: URL,
        },
        ['conclusion', 'model', 'turns', 'usage'],
      ),
      marker: object(
        {
          sessionId: str(60, { pattern: '^[0-9]+-[0-9]+(-[0-9]+)?$' }),
          artifactName: str(300, { pattern: '^patchloop-transcript[-A-Za-z0-9_.]*$' }),
          artifactId: positive,
        },
        ['sessionId'],
      ),
      transcript: { const: 'transcript.jsonl' },
    },
    [
      'schema',
      'repository',
      'runId',
      'runAttempt',
      'workflowRef',
      'prHead',
      'openPr',
      'draft',
      'prTitle',
      'prBody',
      'commentText',
      'summary',
      'outputs',
      'marker',
    ],
  ),
  // commits need the base they apply on and the branch they go to
  dependencies: { headCommit: ['baseCommit', 'branch', 'prBase'] },
} as const;

let compiled: ReturnType<Ajv['compile']> | undefined;

/** Why `value` is not a delivery plan (ajv's errors, each with its place), or undefined when it is one. */
export function planErrors(value: unknown): string | undefined {
  compiled ??= new Ajv({ allErrors: false, strict: false, logger: false }).compile(DELIVERY_PLAN_SCHEMA);
  if (compiled(value)) return undefined;
  return (compiled.errors ?? []).map(describe).join('; ') || 'not a delivery plan';
}

function describe(e: ErrorObject): string {
  const at = e.instancePath || '(root)';
  if (e.keyword === 'additionalProperties')
    return `${at} has an unknown field ${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)}`;
  if (e.keyword === 'enum')
    return `${at} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
  return `${at} ${e.message ?? 'is wrong'}`;
}

/**
 * The summary cut to the schema's bounds, for a plan this process builds: a long final message, a
 * long tool log or many notices make a plan that is still valid (the rendering cuts them further).
 */
export function fitSummary<T extends object>(summary: T): T {
  const s = { ...summary } as Record<string, unknown>;
  const clip = (v: unknown, n: number) =>
    typeof v === 'string' && v.length > n ? `${v.slice(0, n - 1)}…` : v;
  const oneLine = (v: unknown, n: number) =>
    // eslint-disable-next-line no-control-regex -- a line field may hold no control character
    typeof v === 'string' ? clip(v.replace(/[\u0000-\u001f\u007f]+/g, ' '), n) : v;
  const list = (v: unknown, n: number, each: (x: unknown) => unknown) =>
    Array.isArray(v) ? v.slice(-n).map(each) : v;
  const fields: [string, number][] = [
    ['finalMessage', TEXT * 4],
    ['diff', TEXT * 4],
    ['error', TEXT],
    ['request', TEXT],
    ['transcriptLocation', 4096],
    ['structuredOutput', 1 << 20],
    ['commandNetwork', 8192],
  ];
  for (const [k, n] of fields) if (k in s) s[k] = clip(s[k], n);
  if ('models' in s) s.models = list(s.models, 20, (m) => oneLine(m, 500));
  if ('notices' in s) s.notices = list(s.notices, 200, (x) => clip(x, 8192));
  if ('changedFiles' in s)
    s.changedFiles = list(s.changedFiles, 10_000, (f) => ({
      ...(f as object),
      path: clip((f as { path: unknown }).path, 4096),
    }));
  if ('toolLog' in s)
    s.toolLog = list(s.toolLog, 10_000, (e) => {
      const x = e as Record<string, unknown>;
      return { ...x, name: oneLine(x.name, 200), args: clip(x.args, 4096), output: clip(x.output, TEXT) };
    });
  return s as T;
}

/**
 * The plan's summary, from the summary as the run knows it before any write: redacted as JSON text
 * (every string in it), then fitted to the schema's bounds. The action's plan and the CLI's are
 * made with it.
 */
export function planSummary(input: RunSummaryInput, redact: (text: string) => string): RunSummaryInput {
  return fitSummary(JSON.parse(redact(JSON.stringify(input))) as RunSummaryInput);
}

/** The plan's outputs: the conclusion, the model, the turns and the usage of `summary`. */
export function planOutputs(
  summary: RunSummaryInput,
  conclusion: DeliveryPlan['outputs']['conclusion'],
  more: { transcriptPath?: string; artifactUrl?: string } = {},
): DeliveryPlan['outputs'] {
  return {
    conclusion,
    model: summary.models.join(','),
    turns: summary.turns,
    usage: { ...summary.usage } as unknown as Record<string, number>,
    ...(more.transcriptPath !== undefined ? { transcriptPath: more.transcriptPath } : {}),
    ...(more.artifactUrl !== undefined ? { artifactUrl: more.artifactUrl } : {}),
  };
}
