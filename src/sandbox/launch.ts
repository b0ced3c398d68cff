import { keyringStep, type KeyringTool } from './keyring.js';
import { join } from 'node:path';
import type { CommandLimits } from './limits.js';
import { prlimitArgs } from './limits.js';
import type { Account, RootAccess } from './user.js';
import { PREP_STEP, prepArgs, type OverlayAccess, type OverlaySyscalls } from './overlay.js';

/** Programs the launch runs, each resolved once to an absolute path in a system folder. */
export interface LaunchBins {
  unshare: string;
  setpriv: string;
  mount: string;
  umount: string;
  mkdir: string;
  chown: string;
  chmod: string;
  find: string;
  prlimit: string;
  bash: string;
  sh: string;
  env: string;
  kill: string;
  /** Perl or keyctl, for the session keyring each command gets of its own (keyring.ts). */
  keyring: KeyringTool;
}

/** Everything the launch of one command needs, fixed when the sandbox is set up. */
export interface LaunchPlan {
  root: RootAccess;
  account: Account;
  bins: LaunchBins;
  /** Real path of the workspace. */
  workspace: string;
  /** The workspace's top-level folder (`/home`, `/tmp`, `/work`), covered by an empty tmpfs; undefined when the workspace is itself at the top. */
  hide?: string;
  /** The mode of that tmpfs: 1777 when it is a scratch folder everyone writes to (/tmp), else 0755. */
  hideMode: string;
  /** An existing folder outside `hide`, briefly covered by a tmpfs that holds the binds being moved. */
  stash: string;
  /** Scratch folders inside `hide` on the way down to the workspace: remade world-writable (1777). */
  sticky: string[];
  /** World-writable scratch folders (/tmp, /var/tmp, /dev/shm) given a fresh tmpfs, unless hidden already. */
  scratch: string[];
  /** Private folders outside `hide` and /tmp, each covered by an empty tmpfs. */
  covered: string[];
  /** The machine's other world-writable scratch folders (sticky: /run/lock, /var/crash), each given a fresh tmpfs. */
  shared: string[];
  /** World-writable folders that are not scratch (a tool cache made 0777), bound read-only in place. */
  sharedReadOnly: string[];
  /** Each command gets a session keyring of its own, and the sandbox user's own keyrings are emptied. */
  freshKeyring: boolean;
  /** Tests only: the command shares the machine's System V IPC and host name (no --ipc, --uts). */
  keepIpcUts?: boolean;
  /** Bound read-only at their real path: the workspace's `.git` (a folder, or a worktree's file), the saved outputs. */
  readOnly: string[];
  /** undefined: no limits of patchloop's own (tests that show what the limits stop). */
  limits?: CommandLimits;
  /**
   * Group access (access.ts): what the file tools make joins the sandbox group as they make it
   * (CommandSandbox.toolGroup); what commands make does by the folders' setgid bit and umask 002.
   */
  groupAccess: boolean;
  /** A network namespace of the command's own (`command-network` none or hosts); undefined: the runner's network. */
  network?: NetworkPlan;
  /** The overlay access method (overlay.ts); undefined: the workspace is shared by access.ts's walks. */
  overlay?: OverlayPlan;
}

export interface OverlayPlan {
  perl: string;
  syscalls: OverlaySyscalls;
  access: OverlayAccess;
  /** Tests only: the idmapped workspace itself, no overlay (commands write the checkout's inodes). */
  inPlace?: boolean;
}

/** How one command sees the workspace. */
export interface WorkspaceView {
  /** The overlay's layer number (its upper layer is `<state>/<n>/up`). */
  layer?: number;
  /** Bound read-only: an MCP stdio server, whose writes could not be moved in while it runs. */
  readOnly?: boolean;
}

/** How a command's network namespace is made: `ip` brings its loopback up; `bridge` reaches the proxy. */
export interface NetworkPlan {
  ip: string;
  /** hosts: Node and the folder of the proxy's socket, for the bridge from a loopback port to it. */
  bridge?: { node: string; socketDir: string };
}

/** The HOME of sandboxed commands: on the command's own /tmp, so nothing outlives the command. */
export const SANDBOX_HOME = '/tmp/home';

/** Folders every user may write to; each command gets empty ones, so nothing passes between commands. */
export const SCRATCH_DIRS = ['/tmp', '/var/tmp', '/dev/shm'];

// Runs as root inside the command's new mount and PID namespace, before privileges are dropped.
// Every path and program arrives as a positional parameter; nothing is pasted into the script.
// The mounts are private to the namespace (unshare makes propagation private), so they vanish with
// it and nothing outside changes.
//  1. Binds that must survive the hiding are parked under a tmpfs on $stash. With the overlay
//     method, PREP_STEP (overlay.ts) then mounts the command's overlay on the workspace and covers
//     its private paths (before the hiding, which carries those mounts with the workspace); an MCP
//     server's read-only view is bound after it.
//  2. The workspace's top-level folder is covered by an empty tmpfs, and the workspace path is
//     rebuilt inside it and bound back: what is above the workspace (a private HOME with its
//     .netrc, RUNNER_TEMP next to the checkout) is simply not there, while absolute paths into the
//     workspace (virtualenvs, node_modules/.bin) keep working.
//  3. /tmp, /var/tmp, /dev/shm and the private folders outside the hidden one get empty tmpfs of
//     their own: a command finds nothing there, and what it leaves there goes with it. A scratch
//     folder on the way down to the workspace (a checkout under /var/tmp) is made 1777 again.
//  4. The read-only folders are bound back at their real paths. A mount point cannot be renamed
//     or removed (EBUSY), so `.git` can be neither written nor replaced.
//  5. (Before step 4's binds.) The machine's other world-writable folders, found at set-up: a
//     scratch one (sticky, like /run/lock) gets an empty tmpfs as /tmp does, so what a command
//     leaves there is gone with it and it finds nothing an earlier run left; one that is not
//     scratch (a tool cache made 0777, which commands must still run programs from) is bound
//     read-only in place, with the mounts below it, so no command can change what a later step or
//     run will use. One removed since the set-up is passed over (the folder above it is not one
//     the sandbox user may write to).
//  6. The working folder is entered again through the new mounts: the cwd inherited from the
//     parent still points into the covered tree, where `..` would lead past the hiding.
const PRELUDE = String.raw`set -eu
umask 022
mount=$1 umount=$2 mkdir=$3 chown=$4 chmod=$5; shift 5
ws=$1 hide=$2 hide_mode=$3 stash=$4 owner=$5 home=$6 cwd=$7; shift 7
view=$1 perl=$2 prep=$3 nr=$4 mnr=$5 layer=$6; shift 6
fail() { echo "patchloop sandbox: $*" >&2; exit 125; }
n=$1; shift
"$mount" -t tmpfs -o mode=0700,size=64k patchloop-stash "$stash"
i=0
for d do
  [ "$i" -lt "$n" ] || break
  if [ -h "$d" ]; then fail "$d is a symbolic link"
  elif [ -d "$d" ]; then "$mkdir" "$stash/$i"
  elif [ -f "$d" ]; then : > "$stash/$i"
  else fail "$d is neither a folder nor a file"; fi
  "$mount" --bind "$d" "$stash/$i"
  i=$((i+1))
done
shift "$n"
c=$1; shift
if [ "$view" = overlay ] || [ "$view" = in-place ]; then
  "$perl" -t -X -e "$prep" -- "$view" "$nr" "$mnr" "$ws" "$stash" "$layer" "$@"
fi
shift "$c"
if [ -n "$hide" ]; then
  "$mkdir" "$stash/ws"
  "$mount" --rbind "$ws" "$stash/ws"
  "$mount" -t tmpfs -o "mode=$hide_mode" patchloop-hidden "$hide"
  "$mkdir" -p "$ws"
  "$mount" --rbind "$stash/ws" "$ws"
fi
if [ "$view" = read-only ]; then
  "$mount" --rbind "$ws" "$ws"
  "$mount" -o remount,bind,ro "$ws"
fi
t=$1; shift
while [ "$t" -gt 0 ]; do
  "$chmod" 1777 "$1"
  shift; t=$((t-1))
done
t=$1; shift
while [ "$t" -gt 0 ]; do
  [ -d "$1" ] || "$mkdir" -p "$1"
  "$mount" -t tmpfs -o mode=1777 patchloop-scratch "$1"
  shift; t=$((t-1))
done
p=$1; shift
while [ "$p" -gt 0 ]; do
  "$mount" -t tmpfs -o mode=0755,size=64k patchloop-private "$1"
  shift; p=$((p-1))
done
w=$1; shift
while [ "$w" -gt 0 ]; do
  if [ -h "$1" ] || { [ -e "$1" ] && [ ! -d "$1" ]; }; then fail "$1 is no longer a folder"; fi
  [ ! -d "$1" ] || "$mount" -t tmpfs -o mode=1777 patchloop-shared "$1"
  shift; w=$((w-1))
done
r=$1; shift
while [ "$r" -gt 0 ]; do
  if [ -h "$1" ] || { [ -e "$1" ] && [ ! -d "$1" ]; }; then fail "$1 is no longer a folder"; fi
  if [ -d "$1" ]; then
    "$mount" --rbind "$1" "$1"
    "$mount" -o remount,bind,ro "$1"
  fi
  shift; r=$((r-1))
done
"$mkdir" -p -m 0700 "$home"
"$chown" "$owner" "$home"
i=0
while [ "$i" -lt "$n" ]; do
  [ -e "$1" ] || "$mkdir" -p "$1"
  "$mount" --bind "$stash/$i" "$1"
  "$mount" -o remount,bind,ro "$1"
  shift; i=$((i+1))
done
"$umount" -l "$stash"
cd "$cwd" || fail "cannot enter $cwd"
exec "$@"`;

// PID 1 of the command's namespace. The kernel delivers to a namespace's init only the signals it
// has handlers for, so this small init traps them and passes them on to the command (running as
// its own job, so a Ctrl-C reaches it too); when the command ends, init ends, and the kernel kills
// everything left in the namespace, daemons that ignore SIGTERM or left with setsid included.
// Its own job notices ("[1]+ Done") go to /dev/null; the command keeps the real stderr.
// umask 002: under the workspace's default ACLs a new file's ACL mask is its group bits, so with
// 022 patchloop's own user (named in those ACLs when it is not root) could read but not edit what
// a command created; the file's group is the sandbox user's own, so nobody else gains anything.
// First it closes every descriptor above 2: one the runner (or anything that started patchloop)
// left open without close-on-exec reaches every process patchloop starts, and a command must
// not write into the runner's pipes or files through it.
const NAMESPACE_INIT = [
  'for f in /proc/self/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && exec {n}>&-; done',
  'umask 002',
  'exec 3>&2 2>/dev/null',
  'set -m',
  'trap \'kill -TERM -- -"$c"\' TERM INT HUP',
  '"$2" -c "$1" 0<&0 2>&3 3>&- &',
  'c=$!',
  'while :; do wait "$c"; s=$?; kill -0 "$c" 2>/dev/null || exit "$s"; done',
].join('\n');

/**
 * unshare's options for a command's namespaces: its own PIDs (init's exit kills the rest), its
 * own mounts with a fresh /proc, none of them propagated back; its own System V IPC (message
 * queues, semaphores, shared memory an earlier run or the runner made are not there, and what it
 * makes goes with it) and host name. The set-up's probe asks for exactly these, so a machine that
 * passes the probe can launch commands.
 */
export const NAMESPACE_OPTIONS = [
  '--pid',
  '--fork',
  '--kill-child',
  '--mount',
  '--mount-proc',
  '--propagation',
  'private',
  '--ipc',
  '--uts',
] as const;

/** Added to NAMESPACE_OPTIONS when the command gets a network namespace of its own. */
export const NETWORK_OPTION = '--net';

/** unshare's options for a command; the set-up's probe asks for exactly these. */
export function namespaceOptions(network: boolean): string[] {
  return network ? [...NAMESPACE_OPTIONS, NETWORK_OPTION] : [...NAMESPACE_OPTIONS];
}

// The bridge from a loopback port inside the command's network namespace to the proxy's unix
// socket outside it (proxy.ts). Started as root by NETWORK_STEP with its working folder in the
// socket's folder: it connects to `proxy.sock` relative to that folder, which keeps working after
// the PRELUDE has covered the folder with an empty tmpfs, so nothing of patchloop's is shown to
// the command. It drops to the sandbox user at once, listens on a port of the kernel's choosing,
// prints it (the reader then goes: nothing more is written), and only copies bytes (the proxy
// does the deciding).
const BRIDGE = String.raw`const net = require('net'), fs = require('fs');
process.setgroups([]); process.setgid(Number(process.argv[2])); process.setuid(Number(process.argv[1]));
const server = net.createServer((c) => {
  const u = net.connect('proxy.sock');
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
  c.pipe(u); u.pipe(c);
});
server.listen(0, '127.0.0.1', () => fs.writeSync(1, server.address().port + '\n'));`;

// Runs as root first thing in the command's new namespaces (before the PRELUDE), with bash: brings
// the namespace's loopback up and, with a host list, starts the bridge and points the proxy
// variables at it. The bridge lives in the namespace and ends with it.
const NETWORK_STEP = String.raw`set -eu
ip=$1 env=$2 node=$3 dir=$4 uid=$5 gid=$6 bridge=$7; shift 7
"$ip" link set lo up || { echo "patchloop sandbox: the command's loopback could not be brought up" >&2; exit 125; }
if [ -n "$node" ]; then
  exec {b}< <(cd "$dir" && exec "$env" -i "$node" -e "$bridge" "$uid" "$gid" </dev/null 2>/dev/null)
  read -r port <&"$b" || port=
  exec {b}<&-
  case $port in ''|*[!0-9]*) echo "patchloop sandbox: the network proxy's bridge did not start" >&2; exit 125;; esac
  p=http://127.0.0.1:$port
  export HTTP_PROXY=$p HTTPS_PROXY=$p http_proxy=$p https_proxy=$p ALL_PROXY=$p all_proxy=$p
  export NO_PROXY=localhost,127.0.0.1,::1 no_proxy=localhost,127.0.0.1,::1 NODE_USE_ENV_PROXY=1
fi
exec "$@"`;

function networkStep(plan: LaunchPlan): string[] {
  const net = plan.network;
  if (!net) return [];
  const { bins, account } = plan;
  return [
    bins.bash,
    '-c',
    NETWORK_STEP,
    'patchloop-network',
    net.ip,
    bins.env,
    net.bridge?.node ?? '',
    net.bridge?.socketDir ?? '/',
    String(account.uid),
    String(account.gid),
    BRIDGE,
  ];
}

/** The argv that runs `command` in `cwd` as the sandbox user, as root would start it (no sudo). */
export function commandArgv(
  plan: LaunchPlan,
  command: string,
  cwd: string,
  timeoutMs?: number,
  view: WorkspaceView = {},
): string[] {
  const { bins, account } = plan;
  const ovl = plan.overlay;
  const overlay = ovl !== undefined && view.layer !== undefined && !view.readOnly;
  const prep = overlay
    ? prepArgs(ovl.syscalls, ovl.access.owner, account, ovl.access.reader, ovl.access.hidden)
    : [];
  const argv = [
    // if patchloop (or sudo) dies, unshare dies, and with it the whole namespace (--kill-child)
    bins.setpriv,
    '--pdeathsig',
    'KILL',
    '--',
    bins.unshare,
    ...namespaceOptions(plan.network !== undefined).filter(
      (o) => !plan.keepIpcUts || (o !== '--ipc' && o !== '--uts'),
    ),
    '--',
    ...networkStep(plan),
    bins.sh,
    '-c',
    PRELUDE,
    'patchloop-prelude',
    bins.mount,
    bins.umount,
    bins.mkdir,
    bins.chown,
    bins.chmod,
    plan.workspace,
    plan.hide ?? '',
    plan.hideMode,
    plan.stash,
    `${account.uid}:${account.gid}`,
    SANDBOX_HOME,
    cwd,
    overlay ? (ovl.inPlace ? 'in-place' : 'overlay') : view.readOnly ? 'read-only' : 'shared',
    ovl?.perl ?? '',
    PREP_STEP,
    String(ovl?.syscalls.unshare ?? 0),
    String(ovl?.syscalls.mount ?? 0),
    overlay ? join(ovl.access.state, String(view.layer)) : '',
    String(plan.readOnly.length),
    ...plan.readOnly,
    String(prep.length),
    ...prep,
    String(plan.sticky.length),
    ...plan.sticky,
    String(plan.scratch.length),
    ...plan.scratch,
    String(plan.covered.length),
    ...plan.covered,
    String(plan.shared.length),
    ...plan.shared,
    String(plan.sharedReadOnly.length),
    ...plan.sharedReadOnly,
    ...plan.readOnly,
  ];
  if (plan.limits) argv.push(bins.prlimit, ...prlimitArgs(plan.limits, timeoutMs), '--');
  argv.push(
    bins.setpriv,
    '--reuid',
    String(account.uid),
    '--regid',
    String(account.gid),
    '--clear-groups',
    '--no-new-privs',
    '--inh-caps=-all',
    '--bounding-set=-all',
    '--',
  );
  // as the sandbox user, just before the command: its own session keyring, @u and @us emptied
  if (plan.freshKeyring) argv.push(...keyringStep(bins.keyring, bins.sh));
  argv.push(bins.bash, '-c', NAMESPACE_INIT, 'patchloop-init', command, bins.bash);
  return argv;
}

/** The program, arguments and environment to spawn, through sudo when patchloop is not root. */
export function launch(
  plan: LaunchPlan,
  command: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs?: number,
  view: WorkspaceView = {},
): { file: string; args: string[]; env: Record<string, string> } {
  const argv = commandArgv(plan, command, cwd, timeoutMs, view);
  if (!plan.root.viaSudo) return { file: argv[0]!, args: argv.slice(1), env };
  // sudo resets the environment, so the command's (neutral) one is handed over explicitly
  const pairs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return {
    file: plan.root.prefix[0]!,
    args: [...plan.root.prefix.slice(1), plan.bins.env, '-i', ...pairs, ...argv],
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
  };
}
