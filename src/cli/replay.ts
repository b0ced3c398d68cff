import { execFile } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ToolRegistry } from '../protocol/execute.js';
import { normalizeForComparison } from '../report/compare.js';
import { cut, oneLine, safeJson, shortArgs } from '../report/format.js';
import { terminalSafe } from '../report/inspect.js';
import {
  recordedBaseCommit,
  recordedTempDirs,
  recordedWorkspace,
  replayRun,
  toolOptionsFromSession,
  type ReplayCallReport,
} from '../report/replay.js';
import { sideBySide } from '../report/side-by-side.js';
import { createWorkspaceTools } from '../tools/index.js';
import { createRedactor } from '../protocol/redact.js';
import { mcpSecrets } from '../tools/mcp/config.js';
import { readMcpFlag, startCliMcp } from './mcp.js';
import { parseFlags } from './args.js';
import { loadFromArgs } from './inspect.js';
import { watchInterrupts } from './interrupt.js';
import { terminalWidth, UsageError, type CliCommand, type CliIO } from './io.js';

export const REPLAY_USAGE = `Usage: patchloop replay FILE.jsonl [--repo DIR] [--mcp-config FILE|JSON]

Runs the recorded tool calls again, in order, on a checkout (best at the run's base commit), with no
model calls, and compares each result with the recorded one after normalising timings, durations,
temp paths, the workspace path and process ids. Stops at the first call whose result differs.
The calls change the checkout as they did in the run (edits, writes, commands).
  --repo DIR   the checkout to replay on (default: the current folder)
  --mcp-config FILE|JSON   MCP servers whose tools the recorded calls used (the .mcp.json shape);
               without it, calls of MCP tools are skipped as not replayable
Exit status: 0 when every call matches, 1 at the first divergence, 2 for a usage error.`;

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
  if (c.status === 'skipped') return `  - ${head}  skipped: ${c.reason}`;
  if (c.status === 'differ') return `  ✗ ${head}  DIFFERS`;
  return `  ✓ ${head}  ${c.comparison === 'exact' ? 'match' : 'match (after normalising)'}`;
}

export const replayCommand: CliCommand = async (argv, io: CliIO) => {
  const { flags, positionals } = parseFlags(argv, {
    repo: 'string',
    'mcp-config': 'string',
    help: 'boolean',
  });
  if (flags.help) {
    io.stdout.write(`${REPLAY_USAGE}\n`);
    return 0;
  }
  const { path, view } = await loadFromArgs('replay', positionals, io);
  const root = resolve(io.cwd, flags.repo ?? '.');
  if (!isDirectory(root)) throw new UsageError(`replay: --repo ${root} is not a folder`);
  const out = (text: string) => io.stdout.write(`${terminalSafe(text)}\n`);
  const width = terminalWidth(io.stdout as { columns?: number }, 160);

  const total = view.turns.reduce((n, t) => n + t.calls.length, 0);
  out(`Replaying ${total} recorded tool call(s) from ${path} on ${root} (no model calls).`);
  for (const w of view.warnings) out(`note: ${w}`);
  const base = recordedBaseCommit(view.session);
  if (base) {
    const head = await gitHead(root);
    if (head && !head.startsWith(base) && !base.startsWith(head)) {
      out(
        `note: the run started at commit ${base.slice(0, 12)}, the checkout is at ${head.slice(0, 12)}; results may differ.`,
      );
    }
  }

  const artifactsDir = mkdtempSync(join(tmpdir(), 'patchloop-replay-'));
  const session = toolOptionsFromSession(view.session);
  const mcpServers = flags['mcp-config'] !== undefined ? readMcpFlag(flags['mcp-config'], io.cwd) : undefined;
  const redact = createRedactor(mcpServers ? mcpSecrets(mcpServers) : []);
  const mcp = mcpServers
    ? await startCliMcp(mcpServers, { root, env: io.env, redact, artifactsDir, io })
    : undefined;
  const registry = new ToolRegistry([
    ...createWorkspaceTools({ root, env: io.env, artifactsDir, ...session }),
    ...(mcp?.tools ?? []),
  ]);
  const tmp = tmpdir();
  const recordedRoot = recordedWorkspace(view.session);
  const normalize = {
    workspaces: [realpathOr(root), ...(recordedRoot ? [recordedRoot] : [])],
    tmpdirs: [tmp, realpathOr(tmp), '/tmp', ...recordedTempDirs(view.session)],
  };
  const interrupt = watchInterrupts();
  try {
    const report = await replayRun(view, {
      registry,
      workspace: root,
      normalize,
      signal: interrupt.signal,
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
      out(`${report.matched} call(s) matched before it; ${report.skipped} skipped.`);
      return 1;
    }
    const exact = report.calls.filter((c) => c.comparison === 'exact').length;
    out('');
    out(
      `All ${report.matched} replayed call(s) match (${exact} exactly, ${report.matched - exact} after normalising)` +
        (report.skipped ? `; ${report.skipped} skipped.` : '.'),
    );
    return 0;
  } finally {
    interrupt.dispose();
    await mcp?.close();
    rmSync(artifactsDir, { recursive: true, force: true });
  }
};
