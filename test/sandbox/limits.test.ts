// The resource limits of sandboxed commands as real projects meet them (issue 38 items 3-5):
// multi-threaded builds are not killed by the CPU-time limit, AddressSanitizer runs, what a command
// makes gets the user's umask, and a command a limit ends is told which limit it was.
import { spawnSync } from 'node:child_process';
import { lstatSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type SandboxSetup } from '../../src/sandbox/index.js';
import {
  cpuSecondsFor,
  limitKillNote,
  prlimitArgs,
  DEFAULT_COMMAND_LIMITS,
} from '../../src/sandbox/limits.js';
import { ToolRegistry } from '../../src/protocol/execute.js';
import { textOf } from '../../src/protocol/types.js';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { createFixture, missingForSandbox, type Fixture } from './fixture.js';

const missing = missingForSandbox({ keyctl: false });
const hasAsan =
  spawnSync('sh', ['-c', 'echo "int main(void){return 0;}" | gcc -fsanitize=address -x c - -o /dev/null'])
    .status === 0;

function isolated(setup: SandboxSetup): Extract<SandboxSetup, { kind: 'isolated' }> {
  if (setup.kind !== 'isolated') throw new Error(`not isolated: ${setup.reason}`);
  return setup;
}

/** One bash call through the same tools the agent uses; the text the model would read. */
async function bash(
  setup: Extract<SandboxSetup, { kind: 'isolated' }>,
  f: Fixture,
  command: string,
  timeout = 120,
) {
  const registry = new ToolRegistry(
    createWorkspaceTools({ root: f.workspace, allowBash: true, env: f.env, sandbox: setup.sandbox }),
  );
  const r = await registry.execute(
    { type: 'toolCall', id: 't1', name: 'bash', input: { command, timeout } },
    new AbortController().signal,
  );
  return {
    text: textOf(r.content),
    isError: r.isError,
    details: r.details as { exitCode: number | null; timedOut: boolean },
  };
}

describe('the CPU-time limit', () => {
  it('is the time limit times the cores, soft below hard, and no data-segment limit by default', () => {
    expect(cpuSecondsFor(8_000, 2)).toBe(21);
    expect(cpuSecondsFor(8_000, 16)).toBeGreaterThanOrEqual(8 * 16);
    const args = prlimitArgs(DEFAULT_COMMAND_LIMITS, 8_000, {});
    const cpu = /^--cpu=(\d+):(\d+)$/.exec(args.find((a) => a.startsWith('--cpu='))!)!;
    expect(Number(cpu[1])).toBe(cpuSecondsFor(8_000));
    expect(Number(cpu[2])).toBeGreaterThan(Number(cpu[1]));
    expect(args.some((a) => a.startsWith('--data='))).toBe(false);
  });

  it('names the limit that ended a command, and nothing when patchloop stopped it', () => {
    const base = { signal: null, timedOut: false, aborted: false };
    const limits = { ...DEFAULT_COMMAND_LIMITS, cpuSeconds: 30 };
    expect(limitKillNote(limits, 1000, { ...base, exitCode: 152 })).toMatch(
      /SIGXCPU .*CPU-time limit of 30 CPU-seconds/,
    );
    expect(limitKillNote(limits, 1000, { ...base, exitCode: 153 })).toMatch(
      /SIGXFSZ .*file-size limit of 2 GiB/,
    );
    expect(limitKillNote(limits, 1000, { ...base, exitCode: 137 })).toMatch(/SIGKILL .*out-of-memory killer/);
    expect(limitKillNote(limits, 1000, { ...base, exitCode: 137, timedOut: true })).toBeUndefined();
    expect(limitKillNote(limits, 1000, { ...base, exitCode: 1 })).toBeUndefined();
  });
});

describe.skipIf(missing !== undefined)('limits through the real sandbox', () => {
  let f: Fixture;
  let setup: Extract<SandboxSetup, { kind: 'isolated' }>;
  beforeAll(async () => {
    f = createFixture();
    setup = isolated(
      await createSandbox({ workspace: f.workspace, env: f.env, access: 'overlay' }).catch(() =>
        createSandbox({ workspace: f.workspace, env: f.env }),
      ),
    );
  }, 120_000);
  afterAll(async () => {
    await setup?.dispose();
    f?.cleanup();
  });

  it('lets a command burn CPU on 2 threads for longer than half its time limit', async () => {
    // 2 threads spinning for 5 s of an 8 s limit: up to 10 CPU-seconds, more than the 8 a limit
    // equal to the time limit allowed (it killed such a command with exit 137 and no output)
    writeFileSync(
      join(f.workspace, 'burn.js'),
      [
        "const { Worker, isMainThread } = require('node:worker_threads');",
        'const spin = () => { const end = Date.now() + 5000; while (Date.now() < end); };',
        'if (isMainThread) { new Worker(__filename); spin(); setTimeout(() => {',
        "  const u = process.cpuUsage(); console.log('cpu ' + ((u.user + u.system) / 1e6).toFixed(1)); }, 300); }",
        'else spin();',
      ].join('\n'),
    );
    const r = await bash(setup, f, 'grep "Max cpu time" /proc/self/limits; node burn.js', 8);
    expect(r.details.timedOut, r.text).toBe(false);
    expect(r.details.exitCode, r.text).toBe(0);
    expect(r.text).toMatch(/^cpu \d/m);
    const soft = Number(/Max cpu time\s+(\d+)/.exec(r.text)?.[1]);
    expect(soft).toBeGreaterThanOrEqual(8 * cpus().length);
  }, 120_000);

  it.skipIf(!hasAsan)(
    'runs an AddressSanitizer build, which reports a real heap overflow',
    async () => {
      writeFileSync(
        join(f.workspace, 'overflow.c'),
        '#include <stdlib.h>\nint main(int c, char **v) { char *p = malloc(8); p[c + 7] = 1; int r = p[0]; free(p); return r; }\n',
      );
      const r = await bash(setup, f, 'gcc -fsanitize=address -g overflow.c -o overflow && ./overflow');
      expect(r.text).not.toMatch(/ReserveShadowMemoryRange failed/);
      expect(r.text).toMatch(/ERROR: AddressSanitizer: heap-buffer-overflow/);
      expect(r.text).toMatch(/WRITE of size 1/);
      expect(r.isError).toBe(true);
    },
    180_000,
  );

  it('makes a command the out-of-memory killer’s first choice, never protected from it', async () => {
    // (a command may lower its own score back to 0, the machine's default, but no further)
    const r = await bash(
      setup,
      f,
      'cat /proc/self/oom_score_adj; (echo -500 > /proc/self/oom_score_adj) 2>/dev/null && echo protected || echo refused',
    );
    expect(r.text).toMatch(/^1000\nrefused$/m);
  });

  it('gives what a command makes the user’s umask: files 0644, folders 0755', async () => {
    expect(setup.reason).toMatch(/overlay/);
    const r = await bash(setup, f, 'mkdir -p made/dir && echo x > made/file && umask');
    expect(r.text).toMatch(/^0022$/m);
    expect(lstatSync(join(f.workspace, 'made', 'file')).mode & 0o7777).toBe(0o644);
    expect(lstatSync(join(f.workspace, 'made', 'dir')).mode & 0o7777).toBe(0o755);
  });

  it('tells the model which limit ended a command', async () => {
    const small = isolated(
      await createSandbox({
        workspace: f.workspace,
        env: f.env,
        limits: { cpuSeconds: 1, fileBytes: 1024 * 1024 },
      }),
    );
    try {
      const cpu = await bash(small, f, 'while :; do :; done');
      expect(cpu.details.exitCode).toBe(152);
      expect(cpu.text).toMatch(
        /\[The command was ended by SIGXCPU \(exit 152\): .*CPU-time limit of 1 CPU-seconds per process/,
      );
      const big = await bash(small, f, 'head -c 3000000 /dev/zero > big.bin');
      expect(big.text).toMatch(
        /\[The command was ended by SIGXFSZ \(exit 153\): it wrote past the file-size limit of 1 MiB per file/,
      );
      const efbig = await bash(
        small,
        f,
        `node -e "process.on('SIGXFSZ', () => {}); require('fs').writeFileSync('big2.bin', Buffer.alloc(3e6))"`,
      );
      expect(efbig.text, efbig.text).toMatch(
        /\[A write failed with EFBIG \("File too large"\): the file-size limit is 1 MiB per file/,
      );
    } finally {
      await small.dispose();
    }
  }, 180_000);
});
