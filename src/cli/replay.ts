import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ToolRegistry } from '../protocol/execute.js';
import { normalizeForComparison } from '../report/compare.js';
import { cut, oneLine, safeJson, shortArgs } from '../report/format.js';
import { terminalSafe } from '../report/inspect.js';
import {
  recordedBaseCommit,
  recordedTempDirs,
  recordedWorkspace,
  replayRun,
  COMMAND_TOOLS,
  toolOptionsFromSession,
  type ReplayCallReport,
} from '../report/replay.js';
import { sideBySide } from '../report/side-by-side.js';
import { createWorkspaceTools } from '../tools/index.js';
import { isInside } from '../tools/safe-fs.js';
import { DEFAULT_PROTECTED_PATHS } from '../tools/workspace.js';
import { createSandbox, type SandboxSetup } from '../sandbox/index.js';
import { parseCommandNetwork, type CommandNetwork } from '../sandbox/network.js';
import { createRedactor } from '../protocol/redact.js';
import { mcpSecrets } from '../tools/mcp/config.js';
import { readMcpFlag, startCliMcp } from './mcp.js';
import { commandEnvFlag, parseFlags } from './args.js';
import { loadFromArgs } from './inspect.js';
import { watchInterrupts } from './interrupt.js';
import { terminalWidth, UsageError, type CliCommand, type CliIO } from './io.js';

export const REPLAY_USAGE = `Usage: patchloop replay FILE.jsonl [--repo DIR] [--run-commands [--test-command C] [--allow-bash]
                        [--command-env NAMES] [--command-network N]] [--mcp-config FILE|JSON]

Makes the recorded tool calls again, in order, on a checkout (best at the run's base commit), with
no model calls, and compares each result with the recorded one after normalising timings,
durations, temp paths, the workspace path and process ids. Stops at the first call whose result
differs. File edits and writes change the checkout as they did in the run (never .git/ nor
.github/workflows/).

A transcript is untrusted input: a model steered by a hostile issue or repository records whatever
it was steered to run. So by default no command is run: run_tests and bash calls are listed as
"not run" and do not count as divergences (later calls that read what a command made may then
differ). The exit status says only what was compared.
  --repo DIR              the checkout to replay on (default: the current folder)
  --run-commands          also run the recorded run_tests and bash calls, only in the command
                          sandbox \`patchloop run\` uses (refused where it cannot be had); the test
                          command and bash come from these flags, never from the transcript:
  --test-command C        what run_tests runs (default: detected in the checkout)
  --allow-bash            offer bash (without it, bash calls are skipped)
  --command-env NAMES     variables passed on to those commands (comma-separated)
  --command-network N     what they reach: none (the default), all, or host names
  --mcp-config FILE|JSON  MCP servers whose tools the recorded calls used (the .mcp.json shape);
                          their calls are made again (a stdio server runs in the command sandbox);
                          without it, MCP calls are listed as not run. Servers are never taken
                          from the transcript.
Exit status: 0 when every compared call matches, 1 at the first divergence (or when the sandbox
cannot be set up), 2 for a usage error, 130 when interrupted.`;

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function gitHead(cwd: string): Promise<string | undefined> {
  return new Promise((done) => {
    execFile('git', ['rev-parse', 'HEAD'], { cwd, timeout: 10_000 }, (err, stdout) =>
      done(err ? undefined : stdout.trim()),
    );
  });
}

function callLine(c: ReplayCallReport): string {
  const args = shortArgs(c.input, 70);
  const head = `turn ${c.turn} ${c.name}${args ? ` ${args}` : ''}`;
  if (c.status === 'not-run') return `  - ${head}  not run: ${c.reason}`;
  if (c.status === 'skipped') return `  - ${head}  skipped: ${c.reason}`;
  if (c.status === 'differ') return `  ✗ ${head}  DIFFERS`;
  return `  ✓ ${head}  ${c.comparison === 'exact' ? 'match' : 'match (after normalising)'}`;
}

/** What comes after the matches in the closing line: calls skipped, and calls not run. */
function leftOut(report: { skipped: number; notRun: number }): string {
  const parts = [
    report.notRun ? `${report.notRun} not run (commands need --run-commands, MCP calls --mcp-config)` : '',
    report.skipped ? `${report.skipped} skipped` : '',
  ].filter(Boolean);
  return parts.length ? `; ${parts.join('; ')}.` : '.';
}

export const replayCommand: CliCommand = async (argv, io: CliIO) => {
  const { flags, positionals } = parseFlags(argv, {
    repo: 'string',
    'mcp-config': 'string',
    'run-commands': 'boolean',
    'test-command': 'string',
    'allow-bash': 'boolean',
    'command-env': 'string',
    'command-network': 'string',
    help: 'boolean',
  });
  if (flags.help) {
    io.stdout.write(`${REPLAY_USAGE}\n`);
    return 0;
  }
  // Commands are run again only when the user asks, and then only in the sandbox (below).
  const runCommands = flags['run-commands'] === true;
  const commandFlags = ['test-command', 'allow-bash', 'command-env', 'command-network'] as const;
  const stray = commandFlags.find((f) => flags[f] !== undefined);
  if (!runCommands && stray) throw new UsageError(`--${stray} applies only with --run-commands`);
  const pass = commandEnvFlag(flags['command-env']);
  let network: CommandNetwork;
  try {
    network = parseCommandNetwork(flags['command-network'] ?? 'none');
  } catch (err) {
    throw new UsageError(`--${(err as Error).message}`);
  }
  const { path, view } = await loadFromArgs('replay', positionals, io);
  const root = resolve(io.cwd, flags.repo ?? '.');
  if (!isDirectory(root)) throw new UsageError(`replay: --repo ${root} is not a folder`);
  const mcpServers = flags['mcp-config'] !== undefined ? readMcpFlag(flags['mcp-config'], io.cwd) : undefined;
  const out = (text: string) => io.stdout.write(`${terminalSafe(text)}\n`);
  const width = terminalWidth(io.stdout as { columns?: number }, 160);

  const total = view.turns.reduce((n, t) => n + t.calls.length, 0);
  out(`Replaying ${total} recorded tool call(s) from ${path} on ${root} (no model calls).`);
  for (const w of view.warnings) out(`note: ${w}`);
  const commandCalls = view.turns.reduce(
    (n, t) => n + t.calls.filter((c) => COMMAND_TOOLS.includes(c.name)).length,
    0,
  );
  const recorded = toolOptionsFromSession(view.session);
  if (commandCalls > 0 && !runCommands)
    out(
      `note: ${commandCalls} command call(s) are not run: a transcript is untrusted input. --run-commands runs them in the command sandbox.`,
    );
  if (runCommands && recorded.testCommand && recorded.testCommand !== flags['test-command'])
    out(
      `note: the run's test command is not taken from the transcript; run_tests runs ${flags['test-command'] ? 'the --test-command' : 'the one detected in the checkout'}.`,
    );
  const base = recordedBaseCommit(view.session);
  if (base) {
    const head = await gitHead(root);
    if (head && !head.startsWith(base) && !base.startsWith(head)) {
      out(
        `note: the run started at commit ${base.slice(0, 12)}, the checkout is at ${head.slice(0, 12)}; results may differ.`,
      );
    }
  }

  const interrupt = watchInterrupts(() => void disposeThenExit());
  let sandbox: SandboxSetup | undefined;
  let mcp: Awaited<ReturnType<typeof startCliMcp>> | undefined;
  // Full outputs go to a folder commands may read (read-only), as in `patchloop run`.
  const artifactsDir = mkdtempSync(join(tmpdir(), 'patchloop-replay-'));
  chmodSync(artifactsDir, 0o755);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await mcp?.close().catch(() => undefined);
      if (sandbox?.kind === 'isolated')
        await sandbox
          .dispose()
          .catch(
            (err: Error) =>
              void io.stderr.write(`patchloop replay: the sandbox was not taken down: ${err.message}\n`),
          );
      rmSync(artifactsDir, { recursive: true, force: true });
    })());
  async function disposeThenExit(): Promise<never> {
    await close();
    process.exit(130);
  }
  try {
    const stdio = mcpServers?.some((s) => s.kind === 'stdio') ?? false;
    if (runCommands || stdio) {
      sandbox = await createSandbox({
        workspace: root,
        mode: 'auto',
        env: io.env,
        commandEnv: pass,
        network,
        readOnlyDirs: [artifactsDir],
        privateDirs: [
          ...(io.env.RUNNER_TEMP ? [io.env.RUNNER_TEMP] : []),
          ...[dirname(resolve(path))].filter((d) => !isInside(root, d)),
        ],
      });
      if (sandbox.kind !== 'isolated')
        throw new Error(
          `replay runs recorded commands and MCP servers only in the command sandbox, which cannot be had here (${sandbox.reason}); nothing was replayed. Replay without --run-commands and --mcp-config compares the other calls.`,
        );
    }
    const isolated = sandbox?.kind === 'isolated' ? sandbox.sandbox : undefined;
    const redact = createRedactor(mcpServers ? mcpSecrets(mcpServers) : []);
    mcp = mcpServers
      ? await startCliMcp(mcpServers, {
          root,
          env: io.env,
          redact,
          artifactsDir,
          io,
          // a stdio server is a command: only in the sandbox (set up above whenever there is one)
          commands: isolated !== undefined,
          ...(isolated ? { sandbox: isolated } : {}),
        })
      : undefined;
    const registry = new ToolRegistry([
      ...createWorkspaceTools({
        root,
        env: io.env,
        artifactsDir,
        // never fewer than the default: a transcript may add protected paths, not remove any
        protectedPaths: [...DEFAULT_PROTECTED_PATHS, ...(recorded.protectedPaths ?? [])],
        commands: runCommands && isolated !== undefined,
        testCommand: flags['test-command'],
        allowBash: flags['allow-bash'] === true,
        commandEnv: { pass },
        ...(isolated ? { sandbox: isolated } : {}),
      }),
      ...(mcp?.tools ?? []),
    ]);
    const tmp = tmpdir();
    const recordedRoot = recordedWorkspace(view.session);
    const normalize = {
      workspaces: [realpathOr(root), ...(recordedRoot ? [recordedRoot] : [])],
      tmpdirs: [tmp, realpathOr(tmp), '/tmp', ...recordedTempDirs(view.session)],
    };
    const report = await replayRun(view, {
      registry,
      workspace: root,
      normalize,
      signal: interrupt.signal,
      runCommands: runCommands && isolated !== undefined,
      callMcp: mcp !== undefined,
      onCall: (c) => out(callLine(c)),
    });
    if (report.aborted) {
      out(`Interrupted after ${report.calls.length} of ${total} call(s).`);
      return 130;
    }
    const d = report.divergence;
    if (d) {
      out('');
      out(`First divergence: call ${d.index} of ${total}, turn ${d.turn}, tool ${d.name}, id ${d.id}`);
      out(`  arguments: ${cut(oneLine(typeof d.input === 'string' ? d.input : safeJson(d.input)), 2000)}`);
      out(
        `  recorded: ${d.recorded!.isError ? 'error' : 'ok'}   replayed: ${d.replayed!.isError ? 'error' : 'ok'}`,
      );
      const key = (line: string) =>
        normalizeForComparison(line, { ...normalize, workspaces: [...normalize.workspaces, root] });
      out(sideBySide(d.recorded!.text, d.replayed!.text, { width, key }));
      out('');
      if (report.notRun)
        out(`note: ${report.notRun} earlier call(s) were not run; what they changed is missing here.`);
      out(`${report.matched} call(s) matched before it${leftOut(report)}`);
      return 1;
    }
    const exact = report.calls.filter((c) => c.comparison === 'exact').length;
    out('');
    out(
      `All ${report.matched} compared call(s) match (${exact} exactly, ${report.matched - exact} after normalising)` +
        leftOut(report),
    );
    return 0;
  } finally {
    await close();
    interrupt.dispose();
  }
};
