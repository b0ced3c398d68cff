import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAction, type BuiltAction } from '../action/harness.js';
import { TEST_AWS } from '../fakes/bedrock-server.js';
import { TEST_AZURE_TOKEN } from '../fakes/azure-server.js';
import { startVertexServer } from '../fakes/vertex-server.js';
import {
  actionUnderTest,
  attack,
  hostile,
  leaksIn,
  makeFixture,
  plantRunSecrets,
  wellBehaved,
} from './attack-kit.js';
import { toolResultsSent } from './planted.js';

/*
 * The clouds' credentials in the job (CONTRACT §12), with patchloop on anthropic-vertex through the
 * bundled action: the credentials file google-github-actions/auth wrote into the workspace, here
 * 0644 and not git-ignored, the runner's OIDC request token, and AWS and Azure credentials beside
 * them. A fork's test script (run_tests) and a hostile model's bash look for them in the
 * environment, the file and /proc; the model also asks read_file and grep for the file. Nothing of
 * them reaches a command, the model, a comment, the log, the transcript or a commit.
 */

const secrets = plantRunSecrets();
let action: BuiltAction;
beforeAll(async () => {
  action = await actionUnderTest(buildAction);
}, 120_000);
afterAll(() => action?.cleanup());

const root = process.platform === 'linux' && process.getuid?.() === 0;

const PROBE = [
  'set +e',
  'echo "env: $(env | grep -c -E "AWS_|GOOGLE_|AZURE_|ACTIONS_ID_TOKEN")"',
  'env | grep -E "AWS_|GOOGLE_|AZURE_|ACTIONS_ID_TOKEN"',
  'ls -la',
  'cat gha-creds-*.json',
  'for f in /proc/[0-9]*/environ; do tr "\\0" "\\n" < "$f" 2>/dev/null | grep -E "AWS_|GOOGLE_|AZURE_|ACTIONS_ID"; done',
  'for f in /proc/[0-9]*/cmdline; do tr "\\0" " " < "$f" 2>/dev/null; echo; done | grep -i creds',
  'echo probe-done',
  '',
].join('\n');

describe.skipIf(!root)('cloud credentials in the job', () => {
  it('a fork’s test script and a hostile bash look for the cloud credentials (environment, the 0644 credentials file in the workspace, /proc): found nowhere, and the file is not committed', async () => {
    const failures: string[] = [];
    for (const route of ['run_tests', 'bash'] as const) {
      const f = makeFixture();
      const turns = route === 'run_tests' ? wellBehaved() : hostile(PROBE);
      const scripted = [
        turns[0]!,
        { toolCalls: [{ id: 'toolu_rc', name: 'read_file', json: '{"path":"CREDS"}' }] },
        { toolCalls: [{ id: 'toolu_gr', name: 'grep', json: '{"pattern":"external_account"}' }] },
        ...turns.slice(1),
      ];
      const vertex = await startVertexServer({ anthropic: scripted });
      const file = vertex.credentialsFile(f.work, 0o644);
      const name = file.slice(f.work.length + 1);
      const content = readFileSync(file, 'utf8');
      scripted[1] = {
        toolCalls: [{ id: 'toolu_rc', name: 'read_file', json: JSON.stringify({ path: name }) }],
      };
      const cloudValues = [
        vertex.requestToken,
        TEST_AWS.secretAccessKey,
        TEST_AWS.sessionToken,
        TEST_AZURE_TOKEN,
      ];
      const run = await attack({
        action,
        fixture: f,
        secrets: { ...secrets, values: [...secrets.values, ...cloudValues] },
        event: route === 'run_tests' ? 'fork-pr' : 'issue',
        ...(route === 'run_tests'
          ? {
              head: {
                'package.json': '{ "name": "demo", "scripts": { "test": "sh ci/test.sh" } }\n',
                'ci/test.sh': PROBE,
              },
            }
          : {}),
        inputs: { provider: 'anthropic-vertex', ...(route === 'bash' ? { 'allow-bash': 'true' } : {}) },
        turns: scripted,
        model: { server: vertex, baseUrl: `${vertex.url}/v1` },
        env: {
          GOOGLE_APPLICATION_CREDENTIALS: file,
          GOOGLE_GHA_CREDS_PATH: file,
          GOOGLE_CLOUD_PROJECT: vertex.project,
          CLOUD_ML_REGION: vertex.location,
          ACTIONS_ID_TOKEN_REQUEST_TOKEN: vertex.requestToken,
          ACTIONS_ID_TOKEN_REQUEST_URL: `${vertex.url}/oidc`,
          AWS_ACCESS_KEY_ID: TEST_AWS.accessKeyId,
          AWS_SECRET_ACCESS_KEY: TEST_AWS.secretAccessKey,
          AWS_SESSION_TOKEN: TEST_AWS.sessionToken,
          AZURE_OPENAI_AD_TOKEN: TEST_AZURE_TOKEN,
        },
      });
      try {
        const seen = toolResultsSent(vertex.requests.at(-1)?.body).join('\n');
        if (!seen.includes('probe-done'))
          failures.push(`${route}: the probe did not run: ${seen.slice(0, 600)}`);
        if (!/env: 0\b/.test(seen))
          failures.push(`${route}: the command's environment held a cloud variable`);
        if (vertex.issued.length === 0) failures.push(`${route}: the model was never asked through Vertex`);
        const leaks = [...run.leaks, ...leaksIn(run.outputs, vertex.issued)];
        if (leaks.length) failures.push(`${route}: secrets in ${leaks.join('; ')}`);
        if (run.outputs['pushed objects']!.includes('external_account'))
          failures.push(`${route}: the credentials file was pushed`);
        if (readFileSync(file, 'utf8') !== content)
          failures.push(`${route}: the credentials file was changed`);
        if ((statSync(file).mode & 0o004) !== 0) failures.push(`${route}: others may still read the file`);
        if (!run.comment) failures.push(`${route}: no summary comment`);
      } finally {
        await run.cleanup();
        f.cleanup();
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('command-env naming a cloud credential is refused with a clear error, before anything runs', async () => {
    const f = makeFixture();
    // a hostile model that prints the environment it gets
    const run = await attack({
      action,
      fixture: f,
      secrets: { ...secrets, values: [...secrets.values, TEST_AWS.secretAccessKey] },
      event: 'issue',
      turns: hostile('env; echo probe-done'),
      inputs: { 'allow-bash': 'true', 'command-env': 'NODE_OPTIONS, AWS_SECRET_ACCESS_KEY' },
      env: { AWS_SECRET_ACCESS_KEY: TEST_AWS.secretAccessKey },
    });
    try {
      expect(run.leaks).toEqual([]);
      expect(run.log).toMatch(/command-env may not name AWS_SECRET_ACCESS_KEY/);
      expect(run.model.requests).toHaveLength(0);
      expect(run.r.code).not.toBe(0);
    } finally {
      await run.cleanup();
      f.cleanup();
    }
  }, 120_000);
});
