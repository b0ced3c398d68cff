import { keyringStep, type KeyringTool } from './keyring.js';
import type { ViewPlan } from './view.js';
import { join } from 'node:path';
import type { CommandLimits } from './limits.js';
import { limitSteps, rlimits } from './limits.js';
import type { Account, RootAccess } from './user.js';
import {
  archArgs,
  PERL_FLAGS,
  PREP_STEP,
  prepArgs,
  VIEW_CALLS,
  type OverlayAccess,
  type OverlaySyscalls,
} from './overlay.js';
import { VIEW_STEP } from './perl/scripts.js';

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
  pivot_root: string;
  findmnt: string;
  ln: string;
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
  /** An existing folder outside the view's sources, covered by a private tmpfs that holds the parked binds and the new root. */
  stash: string;
  /** What the command sees besides the workspace (view.ts): read-only system folders, home folders, files. */
  view: ViewPlan;
  /** Folders every user may write to (/tmp, /var/tmp, /dev/shm): each command gets fresh ones. */
  scratch: string[];
  /** A folder of this run's own, the sandbox user's, bound writable at the command's HOME/.cache (GOCACHE and other build caches); undefined: none. */
  cache?: string;
  /**
   * The run's folder of the home's writable layers (run-cache.ts), for the view's `layered` folders:
   * used where the overlay access method opens the workspace with the reader's rights (the layers'
   * lower layer is opened the same way) and the view is built by Perl; else those folders are read-only.
   */
  homeLayers?: string;
  /** The sandbox account's home in /etc/passwd (the JVM's user.home): a link to the command's HOME in the view. */
  accountHome?: string;
  /** Each command gets a session keyring of its own, and the sandbox user's own keyrings are emptied. */
  freshKeyring: boolean;
  /** Tests only: the command keeps root's capability bounding set (no --bounding-set=-all). */
  keepBoundingSet?: boolean;
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
  /**
   * Perl and this architecture's syscall numbers: the view is built by perl/view.pl, one process
   * (about 10 ms); undefined (no Perl, or an architecture whose numbers are not known): by the
   * PRELUDE below, which starts some seventy programs (about 600 ms).
   */
  perl?: { perl: string; syscalls: OverlaySyscalls };
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

// The view a command gets is built by perl/view.pl (one Perl process, direct system calls: about
// 10 ms), which also sets the limits, drops to the sandbox user and joins the new keyring. Where
// there is no Perl of a known architecture it is built by this script and the programs it starts
// (some seventy: about 600 ms a command), then prlimit, setpriv and the keyring step; both do the
// same steps in the same order, and the tests run both (test/sandbox/setup.test.ts).
//
// Runs as root (bash) inside the command's new mount and PID namespace, before privileges are
// dropped. Every path and program arrives as a positional parameter; nothing is pasted into the
// script. The mounts are private to the namespace (unshare makes propagation private), so they
// vanish with it and nothing outside changes.
//  1. Binds that must be taken before the overlay is mounted (the checkout's own `.git`, the saved
//     outputs) are parked under a tmpfs on $stash. With the overlay method, PREP_STEP (overlay.ts)
//     then mounts the command's overlay on the workspace and covers its private paths; an MCP
//     server's read-only view is bound after it.
//  2. A new root is built on a tmpfs from an allowlist (view.ts): the system folders, bound
//     read-only with every mount below them; fresh /tmp, /var/tmp and /dev/shm; empty tmpfs over
//     the private folders inside those trees and over the way down to a workspace that lies in
//     one; the command's HOME with the run's cache folder and the runner's toolchain folders
//     (read-only; a credential file in one covered by an empty file, Maven's settings by an empty
//     <settings/>; view.pl alone gives the cache folders a writable layer of the run's own);
//     single files /etc links to; the workspace; the parked binds, read-only; /proc
//     of the command's PID namespace, /sys read-only (without the cgroups below it) and a few
//     device nodes with a pseudo-terminal instance of its own. Links come last, so nothing is made through one.
//  3. pivot_root moves the namespace into it, and the old root is detached: whatever the machine
//     holds beyond the allowlist (/run and its sockets, /home, /root, /srv, /mnt, RUNNER_TEMP) is
//     not in the command's namespace at all.
//  4. The working folder is entered again in the new root.
// (`%{` stands for the shell's `${`, which the template literal would take for its own.)
const PRELUDE = String.raw`set -euo pipefail
umask 022
mount=$1 umount=$2 mkdir=$3 chown=$4 chmod=$5 pivot=$6 findmnt=$7 ln=$8; shift 8
ws=$1 stash=$2 owner=$3 home=$4 cwd=$5; shift 5
view=$1 perl=$2 prep=$3 nr=$4 mnr=$5 layer=$6; shift 6
cache=$1 uhome=$2; shift 2
fail() { echo "patchloop sandbox: $*" >&2; exit 125; }
# read-only: every mount in the new root that is, or lies below, one of the paths given
ro() {
  local list m p
  list=$("$findmnt" -R -n -r -o TARGET -- "$r") || fail "cannot list the mounts of the new root"
  while IFS= read -r m; do
    m=$(printf '%b' "$m")
    for p do
      case $m in "$r$p" | "$r$p"/*)
        "$mount" -o remount,bind,ro "$m" || fail "cannot make $m read-only"
        break ;;
      esac
    done
  done <<< "$list"
}
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
  "$perl" -t -X -e "$prep" -- "--view=$view" "--sys-unshare=$nr" "--sys-mount=$mnr" "--workspace=$ws" "--stash=$stash" "--layer=$layer" "$@"
fi
shift "$c"
r=$stash/root
"$mkdir" "$r"
"$mount" -t tmpfs -o mode=0755,nosuid,nodev,size=1m patchloop-root "$r"
t=$1; shift
trees=()
while [ "$t" -gt 0 ]; do
  if [ -d "$1" ] && [ ! -h "$1" ]; then trees+=("$1"); fi
  shift; t=$((t-1))
done
"$mkdir" -p "%{trees[@]/#/$r}" "$r/sys"
for src in "%{trees[@]}"; do "$mount" --rbind "$src" "$r$src"; done
# /sys without what is mounted below it (cgroups)
if [ -d /sys ]; then "$mount" --bind /sys "$r/sys"; fi
ro "%{trees[@]}" /sys
t=$1; shift
while [ "$t" -gt 0 ]; do
  "$mkdir" -p "$r$1"
  "$mount" -t tmpfs -o mode=1777,nosuid,nodev patchloop-scratch "$r$1"
  shift; t=$((t-1))
done
t=$1; shift
while [ "$t" -gt 0 ]; do
  if [ -h "$r$1" ]; then fail "$1 is a symbolic link"; fi
  [ ! -d "$r$1" ] || "$mount" -t tmpfs -o mode=0755,size=64k patchloop-private "$r$1"
  shift; t=$((t-1))
done
"$mkdir" -p -m 0700 "$r$home"
"$chown" "$owner" "$r$home"
if [ -n "$cache" ]; then
  "$mkdir" "$r$home/.cache"
  "$mount" --bind "$cache" "$r$home/.cache"
fi
: > "$stash/blank"
echo '<settings/>' > "$stash/blank-settings"
echo '<settingsSecurity/>' > "$stash/blank-security"
"$mkdir" "$stash/blankd"
"$chmod" 0444 "$stash/blank" "$stash/blank-settings" "$stash/blank-security"
"$chmod" 0555 "$stash/blankd"
t=$1; shift
srcs=() dsts=() mine=()
while [ "$t" -gt 0 ]; do
  if [ -d "$1" ] && [ ! -h "$1" ]; then
    srcs+=("$1") dsts+=("$2")
    # the folders made on the way down inside HOME are the command's own (a fresh tmpfs: no links)
    p=%{2%/*}
    while [ "%{p#"$home"/}" != "$p" ]; do mine+=("$r$p"); p=%{p%/*}; done
  fi
  shift 2; t=$((t-1))
done
if [ "%{#dsts[@]}" -gt 0 ]; then
  "$mkdir" -p "%{dsts[@]/#/$r}"
  if [ "%{#mine[@]}" -gt 0 ]; then "$chown" -h "$owner" "%{mine[@]}"; fi
  for i in "%{!srcs[@]}"; do "$mount" --rbind "%{srcs[$i]}" "$r%{dsts[$i]}"; done
  ro "%{dsts[@]}"
fi
t=$1; shift
while [ "$t" -gt 0 ]; do
  src=$1 dst=$2; shift 2; t=$((t-1))
  [ -f "$src" ] && [ ! -h "$src" ] || continue
  "$mkdir" -p "$r%{dst%/*}"
  : > "$r$dst"
  "$mount" --bind "$src" "$r$dst"
  "$mount" -o remount,bind,ro "$r$dst"
done
t=$1; shift
while [ "$t" -gt 0 ]; do
  d=$r$1; shift; t=$((t-1))
  case %{d##*/} in
    settings.xml) b=$stash/blank-settings ;;
    settings-security.xml) b=$stash/blank-security ;;
    *) b=$stash/blank ;;
  esac
  if [ -h "$d" ]; then continue
  elif [ -f "$d" ]; then "$mount" --bind "$b" "$d"
  elif [ -d "$d" ]; then "$mount" --bind "$stash/blankd" "$d"
  else continue; fi
  "$mount" -o remount,bind,ro "$d"
done
"$mkdir" -p "$r$ws"
"$mount" --rbind "$ws" "$r$ws"
if [ "$view" = read-only ]; then "$mount" -o remount,bind,ro "$r$ws"; fi
i=0
while [ "$i" -lt "$n" ]; do
  d=$r$1
  if [ -d "$stash/$i" ]; then [ -d "$d" ] || "$mkdir" -p "$d"; else [ -e "$d" ] || : > "$d"; fi
  "$mount" --bind "$stash/$i" "$d"
  "$mount" -o remount,bind,ro "$d"
  shift; i=$((i+1))
done
"$mkdir" -p "$r/proc" "$r/dev/pts"
"$mount" --rbind /proc "$r/proc"
for d in null zero full random urandom tty; do
  [ -c "/dev/$d" ] || continue
  : > "$r/dev/$d"
  "$mount" --bind "/dev/$d" "$r/dev/$d"
done
"$ln" -s /proc/self/fd "$r/dev/fd"
"$ln" -s /proc/self/fd/0 "$r/dev/stdin"
"$ln" -s /proc/self/fd/1 "$r/dev/stdout"
"$ln" -s /proc/self/fd/2 "$r/dev/stderr"
if "$mount" -t devpts -o newinstance,ptmxmode=0666,mode=0620 patchloop-pts "$r/dev/pts" 2>/dev/null; then
  "$ln" -s pts/ptmx "$r/dev/ptmx"
fi
if [ -n "$uhome" ] && [ ! -e "$r$uhome" ] && [ ! -h "$r$uhome" ]; then
  "$mkdir" -p "$r%{uhome%/*}"
  "$ln" -s "$home" "$r$uhome"
fi
t=$1; shift
while [ "$t" -gt 0 ]; do
  [ -e "$r$1" ] || [ -h "$r$1" ] || "$ln" -s "$2" "$r$1"
  shift 2; t=$((t-1))
done
cd "$r"
"$pivot" . .
"$umount" -l .
cd "$cwd" || fail "cannot enter $cwd"
exec "$@"`.replaceAll('%{', '${');

// PID 1 of the command's namespace. The kernel delivers to a namespace's init only the signals it
// has handlers for, so this small init traps them and passes them on to the command (running as
// its own job, so a Ctrl-C reaches it too); when the command ends, init ends, and the kernel kills
// everything left in the namespace, daemons that ignore SIGTERM or left with setsid included.
// Its own job notices ("[1]+ Done") go to /dev/null; the command keeps the real stderr.
// Its umask ($3) is the user's usual 022 (a command's files 0644, folders 0755), except under group
// access (access.ts's fallback without setfacl), where what a command makes joins the workspace's
// group by the folders' setgid bit and must be writable by it: 002 there. (Under the ACL walks the
// folders' default ACLs decide a new file's mode, whatever the umask.)
// First it closes every descriptor above 2: one the runner (or anything that started patchloop)
// left open without close-on-exec reaches every process patchloop starts, and a command must
// not write into the runner's pipes or files through it.
const NAMESPACE_INIT = [
  'for f in /proc/self/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && exec {n}>&-; done',
  'umask "$3"',
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

const counted = (items: readonly string[]) => [String(items.length), ...items];
const pairs = (items: readonly [string, string][]) => [String(items.length), ...items.flat()];

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
  const mode = overlay ? (ovl.inPlace ? 'in-place' : 'overlay') : view.readOnly ? 'read-only' : 'shared';
  const layer = overlay ? join(ovl.access.state, String(view.layer)) : '';
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
  ];
  if (plan.perl) {
    // the view, the limits, the sandbox user's ids and its keyring: one Perl process
    argv.push(...perlView(plan, plan.perl, cwd, mode, layer, overlay, timeoutMs));
  } else {
    argv.push(
      ...bashView(plan, cwd, mode, layer, overlay, timeoutMs),
      bins.setpriv,
      '--reuid',
      String(account.uid),
      '--regid',
      String(account.gid),
      '--clear-groups',
      '--no-new-privs',
      '--inh-caps=-all',
      ...(plan.keepBoundingSet ? [] : ['--bounding-set=-all']),
      '--',
    );
    // as the sandbox user, just before the command: its own session keyring, @u and @us emptied
    if (plan.freshKeyring) argv.push(...keyringStep(bins.keyring, bins.sh));
  }
  argv.push(
    bins.bash,
    '-c',
    NAMESPACE_INIT,
    'patchloop-init',
    command,
    bins.bash,
    plan.groupAccess ? '002' : '022',
  );
  return argv;
}

/** prep.pl's arguments for this command's overlay, `--end` last. */
function prepFor(plan: LaunchPlan, mode: string, layer: string): string[] {
  const ovl = plan.overlay!;
  const { access, syscalls } = ovl;
  return [
    `--view=${mode}`,
    `--sys-unshare=${syscalls.unshare}`,
    `--sys-mount=${syscalls.mount}`,
    `--workspace=${plan.workspace}`,
    `--stash=${plan.stash}`,
    `--layer=${layer}`,
    ...prepArgs(syscalls, access.owner, plan.account, access.reader, access.hidden),
  ];
}

/**
 * The steps up to the exec of setpriv, by perl/view.pl in one process: the network namespace's
 * loopback and bridge, the parked binds, the overlay (prep.pl), the new root, pivot_root, the
 * limits. Every path is an argument of its own, named; nothing is pasted into the program.
 */
function perlView(
  plan: LaunchPlan,
  perl: NonNullable<LaunchPlan['perl']>,
  cwd: string,
  mode: string,
  layer: string,
  overlay: boolean,
  timeoutMs: number | undefined,
): string[] {
  const v = plan.view;
  const { account } = plan;
  const net = plan.network;
  const named = (name: string, items: readonly string[]) => items.map((p) => `--${name}=${p}`);
  const reader = plan.overlay?.access.reader;
  const layers =
    plan.homeLayers !== undefined && reader !== undefined && v.layered?.length
      ? [`--layers=${plan.homeLayers}`, `--layer-reader=${reader}`, ...named('layered', v.layered)]
      : [];
  const paired = (name: string, second: string, items: readonly [string, string][]) =>
    items.flatMap(([a, b]) => [`--${name}=${a}`, `--${second}=${b}`]);
  return [
    perl.perl,
    ...PERL_FLAGS,
    '-e',
    VIEW_STEP,
    '--',
    ...archArgs(perl.syscalls, VIEW_CALLS),
    `--workspace=${plan.workspace}`,
    `--stash=${plan.stash}`,
    `--cwd=${cwd}`,
    `--owner=${account.uid}:${account.gid}`,
    `--home=${SANDBOX_HOME}`,
    `--view=${mode}`,
    `--cache=${plan.cache ?? ''}`,
    `--account-home=${plan.accountHome ?? ''}`,
    ...named('read-only', plan.readOnly),
    ...named('tree', v.trees),
    ...named('scratch', plan.scratch),
    ...named('cover', v.covers),
    ...paired('bind', 'at', v.binds),
    ...layers,
    ...paired('file', 'at', v.files),
    ...named('blank', v.blanks),
    ...paired('link', 'to', v.links),
    ...(plan.limits
      ? [
          ...rlimits(plan.limits, timeoutMs).map(([name, soft, hard]) => `--rlimit=${name}:${soft}:${hard}`),
          '--oom-first=1',
        ]
      : []),
    ...(net ? ['--net-lo=1'] : []),
    ...(net?.bridge
      ? [
          `--bridge-node=${net.bridge.node}`,
          `--bridge-dir=${net.bridge.socketDir}`,
          `--bridge-uid=${account.uid}`,
          `--bridge-gid=${account.gid}`,
          `--bridge-code=${BRIDGE}`,
        ]
      : []),
    ...(plan.freshKeyring ? ['--fresh-keyring=1'] : []),
    ...(plan.keepBoundingSet ? ['--keep-bounding-set=1'] : []),
    ...(overlay ? ['--prep', ...prepFor(plan, mode, layer)] : []),
    '--',
  ];
}

/** The same steps by bash and some seventy programs (the PRELUDE): where there is no Perl. */
function bashView(
  plan: LaunchPlan,
  cwd: string,
  mode: string,
  layer: string,
  overlay: boolean,
  timeoutMs: number | undefined,
): string[] {
  const { bins, account } = plan;
  const v = plan.view;
  const ovl = plan.overlay;
  const prep = overlay
    ? prepArgs(ovl!.syscalls, ovl!.access.owner, account, ovl!.access.reader, ovl!.access.hidden)
    : [];
  return [
    ...networkStep(plan),
    bins.bash,
    '-c',
    PRELUDE,
    'patchloop-prelude',
    bins.mount,
    bins.umount,
    bins.mkdir,
    bins.chown,
    bins.chmod,
    bins.pivot_root,
    bins.findmnt,
    bins.ln,
    plan.workspace,
    plan.stash,
    `${account.uid}:${account.gid}`,
    SANDBOX_HOME,
    cwd,
    mode,
    ovl?.perl ?? '',
    PREP_STEP,
    String(ovl?.syscalls.unshare ?? 0),
    String(ovl?.syscalls.mount ?? 0),
    layer,
    plan.cache ?? '',
    plan.accountHome ?? '',
    ...counted(plan.readOnly),
    ...counted(prep),
    ...counted(v.trees),
    ...counted(plan.scratch),
    ...counted(v.covers),
    ...pairs(v.binds),
    ...pairs(v.files),
    ...counted(v.blanks),
    ...plan.readOnly,
    ...pairs(v.links),
    ...(plan.limits ? limitSteps(bins, plan.limits, timeoutMs) : []),
  ];
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
