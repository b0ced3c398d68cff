import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { commentBody } from '../../src/github/comment.js';
import { createActionsLog } from '../../src/action/log.js';
import { renderSummaryMarkdown, STEP_SUMMARY_MAX_BYTES } from '../../src/report/summary.js';
import { emptyUsage } from '../../src/protocol/types.js';
import {
  MIN_SECRET_LENGTH,
  REDACTED,
  base64Alignments,
  createRedactor,
  isSecretName,
  secretForms,
  secretsFromEnv,
} from '../../src/protocol/redact.js';
import { parseTranscript, TranscriptWriter } from '../../src/protocol/transcript.js';
import { record } from './figures.js';

const SECRET = 'pl-Secret/Value+42=ok';

describe('createRedactor: known values', () => {
  const redact = createRedactor([SECRET]);

  it('removes the plain value wherever it appears, every time', () => {
    const out = redact(`a ${SECRET} b ${SECRET}${SECRET}`);
    expect(out).toBe(`a ${REDACTED} b ${REDACTED}${REDACTED}`);
  });

  it('removes the base64 and base64url forms at each of the three alignments', () => {
    for (const prefix of ['', 'x', 'xy', 'xyz', 'x-access-token:']) {
      const b64 = Buffer.from(`${prefix}${SECRET}!`).toString('base64');
      const url = Buffer.from(`${prefix}${SECRET}?`).toString('base64url');
      for (const text of [b64, url]) {
        const out = redact(`header ${text} end`);
        expect(out).toContain(REDACTED);
        // what is left cannot be decoded back into the secret
        for (const word of out.split(/\s|\[REDACTED\]/)) {
          expect(Buffer.from(word, 'base64').toString('latin1')).not.toContain(SECRET.slice(2, -2));
        }
      }
    }
  });

  it('removes URL-encoded and JSON-escaped forms', () => {
    const secret = 'p@ss w/rd"quote\\back\nline';
    const r = createRedactor([secret]);
    const inUrl = `https://user:${encodeURIComponent(secret)}@example.com/`;
    expect(r(inUrl)).toBe(`https://user:${REDACTED}@example.com/`);
    const lowerHex = encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
    expect(r(`?password=${lowerHex}&x=1`)).toBe(`?password=${REDACTED}&x=1`);
    const json = JSON.stringify({ value: secret });
    expect(r(json)).toBe(`{"value":"${REDACTED}"}`);
    const twice = JSON.stringify({ line: json });
    expect(r(twice)).not.toContain('p@ss');
  });

  it('removes each line of a multi-line secret on its own', () => {
    const pem = 'line-one-of-the-key\nline-two-of-the-key\n';
    const r = createRedactor([pem]);
    expect(r('log: line-two-of-the-key and more')).toBe(`log: ${REDACTED} and more`);
  });

  it('ignores values shorter than the minimum and leaves ordinary text alone', () => {
    expect(MIN_SECRET_LENGTH).toBe(4);
    const r = createRedactor(['abc', '', '      ', '  xy  ']);
    const text = 'abc xy nothing here is secret';
    expect(r(text)).toBe(text);
  });

  it('treats regular-expression characters in a secret literally', () => {
    const secret = 'a.b*c+d?(e)[f]{g}|h^$';
    const r = createRedactor([secret]);
    expect(r(`x ${secret} y`)).toBe(`x ${REDACTED} y`);
    expect(r('x aXb*c+d?(e)[f]{g}|h^$ y')).toBe('x aXb*c+d?(e)[f]{g}|h^$ y');
  });

  it('prefers the longest form so no fragment of a value is left behind', () => {
    const r = createRedactor(['abcdefgh', 'abcdefghijklmnop']);
    expect(r('abcdefghijklmnop')).toBe(REDACTED);
  });
});

describe('every secret the run knows, however short, everywhere (issue 23)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pl-redact-short-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // 4 characters: registered with the runner's log masking, and so redacted everywhere else too
  const SHORT = 'Qz7w';

  it('a 4-character secret is redacted in the comment, the step summary, the transcript and the log', () => {
    const redact = createRedactor([SHORT]);
    const said = `the password is ${SHORT}; ${SHORT}!`;
    const summary = {
      conclusion: 'success',
      models: ['m'],
      turns: 1,
      usage: emptyUsage(),
      changedFiles: [{ path: `conf/${SHORT}.txt`, added: 1, removed: 0 }],
      finalMessage: said,
      error: said,
      request: said,
      toolLog: [{ name: 'bash', args: `echo ${SHORT}`, ok: true, output: said }],
    };
    const comment = commentBody(renderSummaryMarkdown(summary, { redact }), redact);
    const step = renderSummaryMarkdown(summary, { redact, maxBytes: STEP_SUMMARY_MAX_BYTES });
    const path = join(dir, 'short.jsonl');
    const w = new TranscriptWriter(path, { redact });
    w.message({ role: 'user', content: said, timestamp: 1 });
    w.event('error', { message: said });
    w.close();
    const lines: string[] = [];
    const log = createActionsLog({ redact, sink: { write: (l) => lines.push(l) }, now: () => 0 });
    log.outcome({ conclusion: 'failure', turns: 1, usage: emptyUsage(), error: said });
    for (const [where, text] of Object.entries({
      comment,
      'step summary': step,
      transcript: readFileSync(path, 'utf8'),
      log: lines.join('\n'),
    })) {
      expect(text, where).not.toContain(SHORT);
      expect(text, where).toContain(REDACTED);
    }
    expect(parseTranscript(readFileSync(path, 'utf8')).invalid).toEqual([]);
    // the environment's credentials of that length are known secrets too
    expect(secretsFromEnv({ DEPLOY_PASSWORD: SHORT, DEPLOY_USER: 'someone' })).toEqual([SHORT]);
  });

  it('a private key split across two string values: each part redacted, neither string cut', () => {
    const redact = createRedactor([]);
    const first = 'header\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE';
    const second = 'AAAAC3NzaC1lZDI1\n-----END OPENSSH PRIVATE KEY-----\nfooter';
    expect(redact(first)).toBe(`header\n${REDACTED}`);
    expect(redact(second)).toBe(`${REDACTED}\nfooter`);
    // a whole key and the start of another in one string; an end after a whole key
    const whole = '-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----';
    expect(redact(`a ${whole} b -----BEGIN EC PRIVATE KEY-----\nBBBB`)).toBe(`a ${REDACTED} b ${REDACTED}`);
    expect(redact(`a ${whole} CCCC\n-----END EC PRIVATE KEY----- d`)).toBe(`a ${REDACTED}${REDACTED} d`);
  });
});

describe('createRedactor: token shapes', () => {
  const redact = createRedactor([]);
  const shapes = {
    github: `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`,
    installation: `ghs_${'Zz9'.repeat(12)}`,
    fineGrained: `github_pat_11ABCDEFG0${'x'.repeat(22)}_${'y9'.repeat(30)}`,
    openai: `sk-proj-${'Ab3'.repeat(20)}`,
    anthropic: `sk-ant-api03-${'Q7_w'.repeat(20)}`,
    aws: 'AKIAIOSFODNN7EXAMPLE',
    awsTemp: 'ASIAY34FZKBOKMUTVV7A',
    google: `AIza${'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'.slice(0, 35)}`,
    npm: `npm_${'Ab1'.repeat(12)}`,
    jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  };

  for (const [name, token] of Object.entries(shapes)) {
    it(`removes a ${name} token that nobody declared`, () => {
      expect(redact(`token=${token};`)).toBe(`token=${REDACTED};`);
      expect(redact(`"${token}"`)).toBe(`"${REDACTED}"`);
    });
  }

  it('keeps the header name of an Authorization header and removes its credential', () => {
    const header = `AUTHORIZATION: basic ${Buffer.from('x-access-token:abc123def456').toString('base64')}`;
    expect(redact(`http.https://github.com/.extraheader=${header}`)).toBe(
      `http.https://github.com/.extraheader=AUTHORIZATION: basic ${REDACTED}`,
    );
    expect(redact('Authorization: Bearer abcdefghijkl')).toBe(`Authorization: Bearer ${REDACTED}`);
  });

  it('removes a PEM private key block', () => {
    const pem =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\nAAAA\n-----END OPENSSH PRIVATE KEY-----';
    expect(redact(`key:\n${pem}\nafter`)).toBe(`key:\n${REDACTED}\nafter`);
  });

  it('leaves look-alike prose alone', () => {
    const prose =
      'task-force-alpha-bravo-charlie-delta, disk-usage-report-for-everyone, sk-learn-estimator-guide, ' +
      'AKIA is a prefix, ghp_short, eyJ alone, Authorization: none, github_pat_ too short';
    expect(redact(prose)).toBe(prose);
  });

  it('can be told to skip the shapes', () => {
    const r = createRedactor([], { tokenShapes: false });
    expect(r(shapes.github)).toBe(shapes.github);
  });
});

describe('secret forms', () => {
  it('base64Alignments gives exactly the characters fixed by the value, for every alignment', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 3, maxLength: 64 }),
        fc.uint8Array({ maxLength: 5 }),
        (value, before) => {
          const bytes = Buffer.from(value);
          const whole = Buffer.concat([Buffer.from(before), bytes, Buffer.from([0xff, 0x00])]).toString(
            'base64',
          );
          const forms = base64Alignments(bytes);
          expect(forms.some((f) => whole.includes(f))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
    record('redact', { fuzzCases: 300 });
  });

  it('every form of a secret is redacted inside arbitrary surrounding text', () => {
    let cases = 0;
    fc.assert(
      fc.property(
        fc.string({ minLength: 6, maxLength: 40 }).filter((s) => s.trim().length >= 6),
        fc.string({ maxLength: 30 }),
        fc.string({ maxLength: 30 }),
        (secret, before, after) => {
          cases++;
          const r = createRedactor([secret], { tokenShapes: false });
          for (const form of secretForms(secret).filter((f) => f.length >= 6)) {
            expect(r(`${before}${form}${after}`)).not.toContain(form);
          }
        },
      ),
      { numRuns: 300 },
    );
    record('redact', { fuzzCases: cases });
  });

  it('redaction output never contains the secret, whatever the text around it', () => {
    const secret = 'Zq8-planted-value-77';
    const r = createRedactor([secret]);
    let cases = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constant(secret)), { maxLength: 20 }), (pieces) => {
        cases++;
        expect(r(pieces.join(''))).not.toContain(secret);
      }),
      { numRuns: 500 },
    );
    record('redact', { fuzzCases: cases });
  });
});

describe('secretsFromEnv', () => {
  it('lists the values of credential variables and nothing else', () => {
    const env = {
      GITHUB_TOKEN: 'ghs_tokenvalue1',
      'INPUT_GITHUB-TOKEN': 'input-token-value',
      'INPUT_API-KEY': 'input-api-key-value',
      ANTHROPIC_API_KEY: 'anthropic-key-value',
      OPENAI_API_KEY: 'openai-key-value',
      GEMINI_API_KEY: 'gemini-key-value',
      ACTIONS_RUNTIME_TOKEN: 'runtime-token-value',
      ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.example/',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-value',
      NODE_AUTH_TOKEN: 'npm-auth-value',
      DB_PASSWORD: 'db-password-value',
      SHORT_TOKEN: 'abc',
      PATH: '/usr/bin:/bin',
      HOME: '/home/runner',
      'INPUT_MAX-TOKENS': '100000',
      GIT_AUTHOR_NAME: 'someone',
      RUNNER_TEMP: '/home/runner/work/_temp',
    };
    expect(secretsFromEnv(env).sort()).toEqual(
      [
        'ghs_tokenvalue1',
        'input-token-value',
        'input-api-key-value',
        'anthropic-key-value',
        'openai-key-value',
        'gemini-key-value',
        'runtime-token-value',
        'aws-secret-value',
        'npm-auth-value',
        'db-password-value',
      ].sort(),
    );
    expect(isSecretName('ACTIONS_ID_TOKEN_REQUEST_TOKEN')).toBe(true);
    expect(isSecretName('TOKENIZER')).toBe(false);
  });

  it('does not repeat a value held by two variables', () => {
    expect(secretsFromEnv({ GITHUB_TOKEN: 'same-value-1', GH_TOKEN: 'same-value-1' })).toEqual([
      'same-value-1',
    ]);
  });
});

describe('the redactor on a real transcript file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pl-redact-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('no planted secret reaches the JSONL file, in any encoding a tool output may carry', () => {
    const token = 'ghs_' + 'R4nd0m'.repeat(6);
    const key = 'sk-ant-api03-planted-' + 'k3y'.repeat(10);
    const redact = createRedactor([token, key]);
    const path = join(dir, 'run.jsonl');
    const writer = new TranscriptWriter(path, { redact });
    // the output of `git config --list` with checkout's credential, of `env`, and a base64 dump
    const extraheader = Buffer.from(`x-access-token:${token}`).toString('base64');
    const output =
      `http.https://github.com/.extraheader=AUTHORIZATION: basic ${extraheader}\n` +
      `ANTHROPIC_API_KEY=${key}\n` +
      `encoded=${Buffer.from(key).toString('base64')}\n`;
    writer.message({
      role: 'toolResult',
      toolCallId: 'call_1',
      toolName: 'bash',
      content: [{ type: 'text', text: output }],
      isError: false,
      timestamp: 1,
    });
    writer.close();
    const text = readFileSync(path, 'utf8');
    const leaks = [token, key, extraheader].filter((s) => text.includes(s));
    // `cat` reads the file back through a real process, as an artifact reader would
    const viaCat = spawnSync('cat', [path], { encoding: 'utf8' }).stdout;
    const catLeaks = [token, key].filter((s) => viaCat.includes(s));
    record('redact', { secretsFound: leaks.length + catLeaks.length, secretChecks: 2 });
    expect(leaks).toEqual([]);
    expect(catLeaks).toEqual([]);
    expect(text).toContain(REDACTED);
  });
});
