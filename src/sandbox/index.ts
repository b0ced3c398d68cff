import { chmodSync, lstatSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { commandPath, isVariableName, NEUTRAL_VARIABLES } from '../tools/env.js';
import type { CommandSandbox } from '../tools/process.js';
import type { SignalGroup } from '../tools/process-group.js';
import { isInside } from '../tools/safe-fs.js';
import { openWorkspace, type AccessMethod, type WorkspaceAccess } from './access.js';
import { SandboxSetupError } from './error.js';
import {
  launch,
  namespaceOptions,
  SANDBOX_HOME,
  SCRATCH_DIRS,
  type LaunchBins,
  type LaunchPlan,
} from './launch.js';
import { findKeyringTools, probeKeyrings, type KeyringProgram, type KeyringTool } from './keyring.js';
import { describeNetwork, networkNote, type CommandNetwork, type RefusedHost } from './network.js';
import { startNetworkProxy, type NetworkProxy, type ProxyOptions } from './proxy.js';
import { currentHardLimits, DEFAULT_COMMAND_LIMITS, limitKillNote, type CommandLimits } from './limits.js';
import {
  isPlainPath,
  openOverlay,
  overlaySyscalls,
  perlFits,
  tryOverlay,
  type OverlayBins,
  type OverlaySyscalls,
} from './overlay.js';
import { selfCheck } from './self-check.js';
import { findSharedDirs } from './shared-dirs.js';
import { makeRunCache } from './run-cache.js';
import { accountHomeInView, planView, viewPaths, type ViewPlan } from './view.js';
import { asRoot, ensureUser, findRootAccess, firstLine, SANDBOX_USER, systemBin } from './user.js';

// Commands the model chooses (run_tests, bash) run as a separate unprivileged user, each in a PID
// and mount namespace of its own (launch.ts): another uid may not open /proc/<pid>/environ of
// patchloop, the fresh /proc shows no other process, the file system is a new root holding only
// what an allowlist names (view.ts: the workspace, read-only system and toolchain folders, fresh
// scratch folders), `.git` is mounted read-only, and when the command ends its namespace ends,
// taking every process it started with it.

export { SandboxSetupError } from './error.js';
export { DEFAULT_COMMAND_LIMITS, type CommandLimits } from './limits.js';
export { SANDBOX_USER } from './user.js';
export type { CommandNetwork, RefusedHost } from './network.js';

/** Defences a test may switch off, to show that each one is what stops its attack. */
export type Defence =
  | 'hide-above'
  | 'read-only-git'
  | 'private-dirs'
  | 'limits'
  | 'network'
  | 'keyring'
  | 'ipc-uts'
  | 'bounding-set'
  | 'view'
  | 'cover-private'
  | 'overlay-in-place'
  | 'apply-follows-links'
  | 'apply-replaces-private';

export interface SandboxOptions {
  workspace: string;
  /** 'off' is the user's explicit choice (CLI `--sandbox off`): no isolation is attempted. */
  mode?: 'auto' | 'off';
  /** patchloop's own folders commands must not see (RUNNER_TEMP, the run's folder). Default: RUNNER_TEMP. */
  privateDirs?: string[];
  /** Folders bound read-only at their real path, e.g. where run_tests and bash save full output. */
  readOnlyDirs?: string[];
  /** The job's environment (for RUNNER_TEMP). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** Names passed on to commands besides the neutral variables (`command-env`). */
  commandEnv?: string[];
  limits?: Partial<CommandLimits>;
  user?: string;
  /**
   * Default: the overlay where this machine can make it (overlay.ts), else ACLs when setfacl is
   * installed, else (as root) the user's group. An explicit method that cannot be had here makes
   * commands unavailable.
   */
  access?: AccessMethod;
  /** What commands may reach (`command-network`). Default: none, their own loopback only. */
  network?: CommandNetwork;
  /** Tests only: where the proxy connects for a name, and which addresses it may (a loopback upstream). */
  proxyOverride?: Pick<ProxyOptions, 'resolve' | 'addressAllowed'>;
  /** Tests only: defences left out. */
  weaken?: Defence[];
  /** Tests only: false skips the self-check (to show an attack with a defence left out). */
  selfCheck?: boolean;
  /** Tests only: programs taken as not installed, to set the sandbox up as where they are missing. */
  hideBins?: KeyringProgram[];
  /**
   * Tests only: the overlay covers the private paths a walk found, as where the reader's overlay
   * cannot be had (its probe file opened) or the workspace's top folder is closed to others.
   */
  overlayCovers?: boolean;
}

export type SandboxSetup =
  | {
      kind: 'isolated';
      sandbox: CommandSandbox;
      /** One sentence for the log: what protects the run. */
      reason: string;
      /**
       * Settles when the workspace is open to the sandbox user and the self-check has passed;
       * rejects (SandboxSetupError) when either failed. No command may run before it resolves.
       * From createSandbox it has resolved already; from startSandbox it may still be under way.
       */
      ready: Promise<void>;
      /** Undoes what the set-up changed (after waiting for it); call it on success, failure and cancel. */
      dispose(): Promise<void>;
      /** The network policy commands run under, and what the proxy refused so far. */
      network: { policy: CommandNetwork; refused(): RefusedHost[] };
    }
  | { kind: 'unavailable'; reason: string };

const unavailable = (reason: string): SandboxSetup => ({ kind: 'unavailable', reason });

// Where the binds that must survive the hiding are parked for a moment: an existing folder outside
// the hidden one, covered by a private tmpfs while it is used (nothing is created on the real one).
const STASH_CANDIDATES = ['/media', '/srv', '/mnt', '/opt', '/run', '/var'];

function realDir(path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return lstatSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

function resolveBins(): Omit<LaunchBins, 'keyring'> | string {
  const names = [
    'unshare',
    'setpriv',
    'mount',
    'umount',
    'mkdir',
    'chown',
    'chmod',
    'find',
    'prlimit',
    'bash',
    'sh',
    'env',
    'kill',
    'pivot_root',
    'findmnt',
    'ln',
  ] as const;
  const bins: Partial<Record<(typeof names)[number], string>> = {};
  for (const name of names) {
    const bin = systemBin(name);
    if (!bin)
      return `${name} is not installed (${name === 'find' ? 'findutils' : name === 'bash' || name === 'sh' ? 'a shell' : 'util-linux / coreutils'})`;
    bins[name] = bin;
  }
  return bins as Omit<LaunchBins, 'keyring'>;
}

/**
 * The keyring tool commands get their keyring with, and whether the kernel gives keyrings at all;
 * or why no tool can be used here. A perl of another architecture leaves the choice to keyctl.
 */
async function findKeyring(
  sh: string,
  hidden: readonly KeyringProgram[],
): Promise<{ tool: KeyringTool; works: boolean } | string> {
  const tools = findKeyringTools(hidden);
  if (typeof tools === 'string') return tools;
  let why = '';
  for (const tool of tools) {
    const r = await probeKeyrings(tool, sh);
    if (r === 'works' || r === 'refused') return { tool, works: r === 'works' };
    why = r;
  }
  return why;
}

async function retryOnce<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!(err instanceof SandboxSetupError)) throw err;
    return step();
  }
}

function makeSandbox(plan: LaunchPlan, pass: string[], privateDirs: string[]): CommandSandbox {
  const { account, root } = plan;
  const allowed = new Set<string>([...NEUTRAL_VARIABLES, ...pass]);
  return {
    outputFileMode: 0o644,
    toolGroup: () => (plan.groupAccess ? account.gid : undefined),
    limitNote: (ended, timeoutMs) => (plan.limits ? limitKillNote(plan.limits, timeoutMs, ended) : undefined),
    envOptions: { pass, privateDirs },
    wrap(spec) {
      // the second lock on the same door: whatever the caller built, only allow-listed names pass
      const env: Record<string, string> = {};
      for (const [name, value] of Object.entries(spec.env)) if (allowed.has(name)) env[name] = value;
      env.PATH = commandPath(env.PATH, privateDirs);
      env.HOME = SANDBOX_HOME;
      // Go's build cache in the run's cache folder: kept from one command to the next
      if (plan.cache && !pass.includes('GOCACHE')) env.GOCACHE = `${SANDBOX_HOME}/.cache/go-build`;
      // the home's tool caches shown at their place (PLAYWRIGHT_BROWSERS_PATH, COREPACK_HOME)
      for (const [name, value] of Object.entries(plan.view.env)) if (!pass.includes(name)) env[name] = value;
      // without a network, corepack says so at once instead of retrying its download for a minute
      if (plan.network && !plan.network.bridge && !pass.includes('COREPACK_ENABLE_NETWORK'))
        env.COREPACK_ENABLE_NETWORK = '0';
      env.TMPDIR = '/tmp';
      env.USER = account.user;
      env.LOGNAME = account.user;
      // git refuses a repository owned by another user unless told it is safe
      const n = Number(env.GIT_CONFIG_COUNT ?? 0) || 0;
      env[`GIT_CONFIG_KEY_${n}`] = 'safe.directory';
      env[`GIT_CONFIG_VALUE_${n}`] = '*';
      env.GIT_CONFIG_COUNT = String(n + 1);
      // given to this one command by its caller (an MCP server's own env), never to any other
      Object.assign(env, spec.ownEnv);
      const overlay = plan.overlay?.access;
      if (!overlay) return launch(plan, spec.command, spec.cwd, env, spec.timeoutMs);
      if (spec.readOnlyWorkspace)
        return launch(plan, spec.command, spec.cwd, env, spec.timeoutMs, { readOnly: true });
      // a covered path that moved is not covered: no command runs (fail closed)
      overlay.verify();
      const layer = overlay.next++;
      return {
        ...launch(plan, spec.command, spec.cwd, env, spec.timeoutMs, { layer }),
        settle: () => overlay.apply(layer),
      };
    },
    signal: ((pgid, sig) => {
      if (!root.viaSudo) {
        try {
          process.kill(-pgid, sig);
        } catch {
          // the group is gone
        }
        return;
      }
      // members run as root and as the sandbox user; only root may signal them all
      spawnSync(
        root.prefix[0]!,
        [...root.prefix.slice(1), plan.bins.kill, '-s', sig.replace(/^SIG/, ''), '--', `-${pgid}`],
        { stdio: 'ignore', timeout: 10_000 },
      );
    }) satisfies SignalGroup,
  };
}

interface Machine {
  root: Exclude<Awaited<ReturnType<typeof findRootAccess>>, string>;
  bins: LaunchBins;
  /** `ip`, when a network namespace with its loopback up can be made here; else why not. */
  network: { ip: string } | string;
  /**
   * Whether this kernel lets anyone use keyrings. Docker's default seccomp profile refuses the
   * keyctl calls (keyrings are not namespaced), and so does a kernel built without them: then no
   * command can read a key either, and there is no keyring of its own to give it.
   */
  keyrings: boolean;
}

const probes = new Map<string, Promise<Machine | string>>();
const accounts = new Map<string, ReturnType<typeof ensureUser>>();

/** The sandbox user, created when missing: once per process, and retried once when that fails. */
function accountOf(machine: Machine, user: string): ReturnType<typeof ensureUser> {
  let account = accounts.get(user);
  if (!account) {
    account = retryOnce(() => ensureUser(machine.root, user));
    // a failure is reported where createSandbox awaits it
    account.catch(() => undefined);
    accounts.set(user, account);
  }
  return account;
}

/**
 * What this machine offers, asked once per process: root or passwordless sudo, the programs, a
 * PID and mount namespace. None of it touches the workspace, so the entry points start it early,
 * beside their git work, and createSandbox only waits for the answer. A string says why not.
 */
export function probeMachine(
  user: string = SANDBOX_USER,
  hideBins: readonly KeyringProgram[] = [],
): Promise<Machine | string> {
  const cacheKey = [user, ...[...hideBins].sort()].join('\0');
  let probe = probes.get(cacheKey);
  if (!probe) {
    probe = (async () => {
      if (process.platform !== 'linux')
        return `commands cannot be isolated on ${process.platform}; only Linux is supported`;
      const root = await findRootAccess();
      if (typeof root === 'string') return `commands cannot run as another user: ${root}`;
      const found = resolveBins();
      if (typeof found === 'string') return `commands cannot be isolated: ${found}`;
      const [r, network, keyring] = await Promise.all([
        asRoot(root, found.unshare, [
          ...namespaceOptions(false),
          '--',
          found.mount,
          '-t',
          'tmpfs',
          'patchloop-probe',
          '/tmp',
        ]),
        probeNetwork(root, found),
        findKeyring(found.sh, hideBins),
      ]);
      if (r.code !== 0)
        return `no PID and mount namespace for commands here (${firstLine(r.stderr) || `exit ${r.code}`})`;
      // fail closed: without a program to give each command its keyring, no commands
      if (typeof keyring === 'string') return `commands cannot be isolated: ${keyring}`;
      const bins: LaunchBins = { ...found, keyring: keyring.tool };
      const machine: Machine = { root, bins, network, keyrings: keyring.works };
      void accountOf(machine, user);
      return machine;
    })();
    // started early and maybe never awaited (a run that ends first): a failure must not go unhandled
    probe.catch(() => undefined);
    probes.set(cacheKey, probe);
  }
  return probe;
}

// The network namespace is asked for apart, with the launch's very options and its step that
// brings the loopback up: a machine without it can still run commands with `command-network: all`.
async function probeNetwork(
  root: Machine['root'],
  bins: Pick<LaunchBins, 'unshare'>,
): Promise<Machine['network']> {
  const ip = systemBin('ip');
  if (!ip) return 'ip (iproute2) is not installed, so a command network namespace cannot get its loopback';
  const r = await asRoot(root, bins.unshare, [
    ...namespaceOptions(true),
    '--',
    ip,
    'link',
    'set',
    'lo',
    'up',
  ]);
  if (r.code !== 0)
    return `no network namespace for commands here (${firstLine(r.stderr) || `exit ${r.code}`})`;
  return { ip };
}

/** The proxy of a host list, on a unix socket in a folder of its own (short: a socket path has ~100 bytes). */
async function startProxy(
  hosts: string[],
  override: SandboxOptions['proxyOverride'],
): Promise<{ proxy: NetworkProxy; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'patchloop-net-'));
  // the bridge, as the sandbox user, enters the folder (x) to reach the socket; nobody may list it
  chmodSync(dir, 0o711);
  try {
    const proxy = await startNetworkProxy({ hosts, socketPath: join(dir, 'proxy.sock'), ...override });
    return { proxy, dir };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw new SandboxSetupError(`the network proxy could not be started: ${(err as Error).message}`);
  }
}

/**
 * Prepares command isolation for a run. `unavailable` when this machine cannot isolate commands
 * (the caller then offers run_tests and bash only with `allow-unisolated-commands`); throws
 * SandboxSetupError when it could, but the set-up failed: never "not isolated, carrying on".
 */
export async function createSandbox(opts: SandboxOptions): Promise<SandboxSetup> {
  const setup = await startSandbox(opts);
  if (setup.kind === 'isolated') await setup.ready;
  return setup;
}

/**
 * createSandbox in two steps, for the entry points: it answers "isolated" or "unavailable" as soon
 * as the machine's probe and the sandbox user say so (which tools to offer, what the first model
 * request carries), while the workspace's access and the self-check go on behind `ready`. The
 * caller lets nothing run in the workspace before `ready` resolves, and stops the run, rather
 * than carrying on unisolated, when it rejects. A set-up that fails before that point throws.
 */
export async function startSandbox(opts: SandboxOptions): Promise<SandboxSetup> {
  if (opts.mode === 'off') return unavailable('turned off');
  if (process.platform !== 'linux')
    return unavailable(`commands cannot be isolated on ${process.platform}; only Linux is supported`);
  const env = opts.env ?? process.env;
  const weak = new Set(opts.weaken ?? []);
  const workspace = realDir(opts.workspace);
  if (!workspace) throw new SandboxSetupError(`the workspace ${opts.workspace} is not a folder`);
  // the command's HOME lives on the fresh /tmp; a workspace that is /tmp (or /) leaves none
  if (workspace === '/' || workspace === '/tmp')
    throw new SandboxSetupError(`the workspace cannot be ${workspace} itself`);

  const machine = await probeMachine(opts.user, opts.hideBins);
  if (typeof machine === 'string') return unavailable(machine);
  const { root, bins } = machine;
  const policy: CommandNetwork = opts.network ?? { kind: 'none' };
  const ownNetwork = policy.kind !== 'all' && !weak.has('network');
  // fail closed: a policy that needs the namespace makes commands unavailable where it cannot be had
  if (ownNetwork && typeof machine.network === 'string') return unavailable(machine.network);
  const walkMethod = systemBin('setfacl') ? 'acl' : 'group';
  let method: AccessMethod = opts.access ?? 'overlay';

  const privateDirs = [
    ...new Set((opts.privateDirs ?? (env.RUNNER_TEMP ? [env.RUNNER_TEMP] : [])).map(realDir)),
  ].filter((d): d is string => d !== undefined && d !== '/');
  let view: ViewPlan;
  try {
    view = planView({ workspace, home: env.HOME, commandHome: SANDBOX_HOME, privateDirs, env });
  } catch (err) {
    throw new SandboxSetupError((err as Error).message);
  }
  // test switches: what the allowlist keeps out, put back in (bound read-only)
  const parts = workspace.split('/').filter(Boolean);
  const top = weak.has('hide-above') && parts.length > 1 ? `/${parts[0]}` : undefined;
  if (top) {
    // the machine's own top folder in place of everything the view would make there
    view.trees = view.trees.filter((t) => !isInside(t, top));
    view.binds = [...view.binds.filter(([, dst]) => !isInside(dst, top)), [top, top]];
    view.covers = view.covers.filter((c) => !isInside(c, top));
  }
  if (weak.has('private-dirs')) for (const d of privateDirs) view.binds.unshift([d, d]);
  if (weak.has('view')) view.trees.push(...['/run'].filter((d) => realDir(d) === d));
  const sources = [...view.trees, ...view.binds.map(([src]) => src), ...view.files.map(([src]) => src)];
  const stash = STASH_CANDIDATES.map(realDir).find(
    (d): d is string =>
      d !== undefined &&
      !isInside(workspace, d) &&
      !isInside(d, workspace) &&
      !sources.some((src) => isInside(src, d) || isInside(d, src)),
  );
  if (!stash)
    throw new SandboxSetupError(`none of ${STASH_CANDIDATES.join(', ')} can hold the command's new root`);
  const perl = opts.hideBins?.includes('perl') ? undefined : systemBin('perl');
  const rm = systemBin('rm');
  const syscalls = overlaySyscalls();
  // the syscall numbers are those of a 64-bit program of this architecture
  const perlFitting = perl && syscalls ? await perlFits(perl) : false;
  const overlay: { bins: OverlayBins; syscalls: OverlaySyscalls } | string =
    !perl || !rm
      ? 'perl is not installed'
      : !syscalls
        ? `Perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}`
        : !perlFitting
          ? `${perl} is not a 64-bit ${process.arch} perl`
          : {
              bins: {
                find: bins.find,
                perl,
                unshare: bins.unshare,
                mount: bins.mount,
                mkdir: bins.mkdir,
                rm,
              },
              syscalls,
            };
  if (method === 'overlay' && typeof overlay === 'string') {
    if (opts.access === 'overlay') return unavailable(overlay);
    method = walkMethod;
  }
  // The very mounts of a command are tried once on this workspace (constant cost, no walk) in
  // `ready`, after the first model request has gone out; only where the answer decides whether
  // commands can be offered at all (no walks to fall back on: sudo without setfacl) is it asked now.
  const tryMounts = () =>
    typeof overlay === 'string'
      ? Promise.resolve(overlay)
      : tryOverlay(root, workspace, overlay.bins, overlay.syscalls).catch(
          (e: unknown) => `the overlay could not be tried: ${(e as Error).message}`,
        );
  const askNow = method === 'overlay' && walkMethod === 'group' && root.viaSudo;
  const trial = askNow ? tryMounts() : undefined;
  // each command gets fresh ones in its view (the workspace may lie in one)
  const scratch = SCRATCH_DIRS.filter((d) => !top || !isInside(d, top));
  const git = join(workspace, '.git');
  // a folder, or the `gitdir:` file of a worktree or submodule checkout; never a symbolic link
  const hasGit = (() => {
    try {
      const st = lstatSync(git);
      return st.isDirectory() || st.isFile();
    } catch {
      return false;
    }
  })();
  const readOnlyDirs = [...new Set((opts.readOnlyDirs ?? []).map(realDir))].filter(
    (d): d is string => d !== undefined && d !== '/',
  );
  const readOnly = [...(hasGit && !weak.has('read-only-git') ? [git] : []), ...readOnlyDirs];
  const limits: CommandLimits = { ...DEFAULT_COMMAND_LIMITS, ...opts.limits };
  const processes = Math.min(limits.processes, currentHardLimits().processes ?? Infinity);
  const pass = (opts.commandEnv ?? []).filter(isVariableName);

  const [account, asked] = await Promise.all([accountOf(machine, opts.user ?? SANDBOX_USER), trial]);
  if (typeof asked === 'string') {
    if (opts.access === 'overlay') return unavailable(asked);
    method = walkMethod;
  }
  if (method === 'overlay' && !isPlainPath(stash))
    throw new SandboxSetupError(`${stash} cannot be named in the overlay's options`);
  if (method === 'acl' && !systemBin('setfacl')) return unavailable('setfacl (package acl) is not installed');
  if (method === 'group' && root.viaSudo)
    return unavailable('setfacl (package acl) is needed to share the workspace when not running as root');
  const net =
    ownNetwork && policy.kind === 'hosts' ? await startProxy(policy.hosts, opts.proxyOverride) : undefined;
  const closeProxy = async () => {
    if (!net) return;
    await net.proxy.close();
    rmSync(net.dir, { recursive: true, force: true });
  };
  const runCache = await makeRunCache(root, account, bins.chown).catch(async (err: unknown) => {
    await closeProxy();
    throw err;
  });
  const cache = runCache.dir;
  const plan: LaunchPlan = {
    root,
    account,
    bins,
    workspace,
    stash,
    view,
    scratch,
    cache: top && isInside(SANDBOX_HOME, top) ? undefined : cache,
    // the home's cache folders, writable through layers of the run's own (named in the overlay's options)
    ...(isPlainPath(runCache.layers) && !(top && isInside(SANDBOX_HOME, top))
      ? { homeLayers: runCache.layers }
      : {}),
    accountHome: accountHomeInView(account.home, view, workspace, SANDBOX_HOME, scratch),
    freshKeyring: machine.keyrings && !weak.has('keyring'),
    keepIpcUts: weak.has('ipc-uts'),
    keepBoundingSet: weak.has('bounding-set'),
    readOnly,
    limits: weak.has('limits') ? undefined : limits,
    groupAccess: method === 'group',
    // the view by one Perl process where there is Perl of a known architecture; else by bash
    ...(perl && syscalls && perlFitting ? { perl: { perl, syscalls } } : {}),
    ...(ownNetwork && typeof machine.network !== 'string'
      ? {
          network: {
            ip: machine.network.ip,
            ...(net ? { bridge: { node: process.execPath, socketDir: net.dir } } : {}),
          },
        }
      : {}),
  };
  const checked: CommandSandbox = {
    ...makeSandbox(plan, pass, privateDirs),
    network: {
      mark: () => net?.proxy.refusals() ?? 0,
      note: (mark, output) => networkNote(policy, net ? net.proxy.refusedSince(mark) : [], output),
    },
  };
  // What the caller gets refuses to launch anything until the self-check has passed: the gate
  // callers keep (nothing runs before `ready`) is held here a second time.
  let passed = false;
  const sandbox: CommandSandbox = {
    ...checked,
    wrap(spec) {
      if (!passed) throw new SandboxSetupError('no command runs before the sandbox self-check has passed');
      return checked.wrap(spec);
    },
  };
  let access: WorkspaceAccess | undefined;
  let opening: Promise<unknown> | undefined;
  const ready = (async () => {
    // after the caller has had its answer (the first model request goes out on it): the walk's
    // process start would otherwise stand in its way
    await new Promise((resolve) => setImmediate(resolve));
    // the workspace is touched from here on only: after patchloop's own git work. Whatever else
    // fails, what was opened is known to the clean-up (which waits for the opening to settle).
    const openWalks = (m: 'acl' | 'group') => {
      method = m;
      plan.groupAccess = m === 'group';
      return openWorkspace(root, account, workspace, m).then((a) => (access = a));
    };
    // the overlay where its mounts can be made (and, where its private paths must be covered rather
    // than shut by the reader's overlay, there are not too many: umask 077); else the walks
    const openOverlayOrWalks = async () => {
      if (typeof overlay === 'string') throw new SandboxSetupError(overlay);
      // asked already when askNow (and it answered yes)
      const how = asked ?? (await tryMounts());
      const o =
        typeof how === 'string'
          ? how
          : await openOverlay(
              root,
              workspace,
              { ...overlay.bins, chown: bins.chown },
              overlay.syscalls,
              account,
              how.filter && !opts.overlayCovers,
            );
      if (typeof o !== 'string') {
        if (weak.has('cover-private')) {
          delete o.reader;
          o.hidden = { folders: [], files: [] };
        }
        if (weak.has('apply-follows-links')) o.followLinks = true;
        if (weak.has('apply-replaces-private')) o.replacesPrivate = true;
        plan.overlay = {
          perl: overlay.bins.perl,
          syscalls: overlay.syscalls,
          access: o,
          inPlace: weak.has('overlay-in-place'),
        };
        access = { method: 'overlay', revoke: () => o.dispose() };
        return;
      }
      if (opts.access === 'overlay') throw new SandboxSetupError(o);
      if (walkMethod === 'group' && root.viaSudo)
        throw new SandboxSetupError(
          `${o}, and setfacl (package acl) is needed to share it when not running as root`,
        );
      return openWalks(walkMethod);
    };
    opening = method === 'overlay' ? openOverlayOrWalks() : openWalks(method as 'acl' | 'group');
    const [, shared] = await Promise.all([
      opening,
      findSharedDirs(bins.find, [workspace, ...privateDirs, ...readOnlyDirs]),
    ]);
    // a world-writable folder in the view is read-only there; one outside it is not there at all
    const found = [...shared.scratch, ...shared.other].filter(
      (d) => !isInside(workspace, d) && !isInside(d, workspace) && !SCRATCH_DIRS.some((t) => isInside(d, t)),
    );
    const shown = viewPaths(view);
    const outside = found.filter((d) => !shown.some((p) => isInside(d, p)));
    const inside = found.filter((d) => shown.some((p) => isInside(d, p)));
    if (opts.selfCheck !== false) {
      const check = () =>
        selfCheck(checked, {
          uid: account.uid,
          workspace,
          hasGit,
          privateDirs,
          readOnlyDirs,
          processes: weak.has('limits') ? undefined : processes,
          env,
          network: plan.network ? { proxy: net !== undefined } : undefined,
          // checked whatever the test switches say: without its defence, the set-up must fail
          keyring: machine.keyrings ? bins.keyring : undefined,
          ipcUts: true,
          shared: outside,
          sharedReadOnly: inside,
          view: [...shown, ...(plan.accountHome ? [plan.accountHome] : [])],
        });
      const failed = (await check()) && (await check());
      if (failed) throw new SandboxSetupError(`the sandbox self-check failed: ${failed}`);
    }
    passed = true;
  })();
  // A failed set-up takes back what it granted before it is reported (no dispose() needed).
  const settled = ready.catch(async (err: unknown) => {
    // an opening still under way (another step failed first) is waited for, then taken back; an
    // opening that failed has taken back what it did itself
    await opening?.catch(() => undefined);
    const opened = access;
    access = undefined;
    await Promise.all([opened?.revoke(), closeProxy(), runCache.remove()]).catch((e: unknown) => {
      throw new SandboxSetupError(`${(err as Error).message}; and then: ${(e as Error).message}`);
    });
    throw err;
  });
  // awaited by whoever runs commands; until then a failure must not count as unhandled
  settled.catch(() => undefined);
  const describe = () =>
    [
      `commands run as user ${account.user} (uid ${account.uid}) in their own PID and mount namespace`,
      plan.keepIpcUts ? '' : 'with their own System V IPC and host name',
      plan.freshKeyring ? 'a session keyring of their own' : '',
      plan.homeLayers && plan.overlay?.access.reader !== undefined && view.layered?.length
        ? "seeing only the workspace, the system folders and the toolchain folders of the home (read-only; its cache folders written to a layer of the run's own)"
        : 'seeing only the workspace, the system folders and the toolchain folders of the home (read-only)',
      privateDirs.length ? `${privateDirs.join(', ')} hidden` : '',
      hasGit ? '.git read-only' : '',
      method === 'overlay'
        ? 'the workspace as an overlay whose writes patchloop moves in after each command'
        : `${method === 'acl' ? 'ACL' : 'group'} access to the workspace`,
      `network: ${plan.network ? describeNetwork(policy) : describeNetwork({ kind: 'all' })}`,
      weak.has('limits')
        ? ''
        : `limits of ${processes} processes and ${Math.round(limits.fileBytes / 1024 ** 2)} MiB per file`,
    ]
      .filter(Boolean)
      .join(', ');
  let disposed: Promise<void> | undefined;
  return {
    kind: 'isolated',
    sandbox,
    // the method may change while `ready` is under way (a workspace the overlay cannot take)
    get reason() {
      return describe();
    },
    ready: settled,
    // Outside the workspace the set-up changed nothing but the sandbox user's account (kept for
    // the next run); inside it, the access granted is taken back, once the set-up has settled.
    // A revoke that could not put everything back rejects (the caller says so in its log).
    dispose: () =>
      (disposed ??= settled.then(
        () => {
          const opened = access;
          access = undefined;
          return Promise.all([opened?.revoke(), closeProxy(), runCache.remove()]).then(() => undefined);
        },
        () => undefined,
      )),
    network: {
      policy: plan.network ? policy : { kind: 'all' },
      refused: () => net?.proxy.refused() ?? [],
    },
  };
}
