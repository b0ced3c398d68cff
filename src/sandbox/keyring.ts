import { spawnSync } from 'node:child_process';
import { run, systemBin } from './user.js';

// Each command joins a new, empty session keyring of its own, and the sandbox user's own keyrings
// (@u, @us), which outlive every command of that user, are emptied first (claims i4a and i4b).
// Two programs can do it, both run by absolute path from a system folder:
//
// - Perl, through its built-in `syscall` with the kernel's keyctl and add_key numbers. perl-base is
//   essential on Debian and Ubuntu, so it is there on the GitHub-hosted image, which does not ship
//   keyutils. The numbers differ by architecture, so only x86_64 and aarch64 are known here, and
//   the set-up's probe checks that the perl found is a 64-bit perl of that very architecture.
// - keyutils' `keyctl`, on other architectures or where there is no Perl.
//
// Perl is preferred when both are there: it is what runs on the platform most runs use, so the
// way the suite tests by default is the way most commands are started; and it is one program
// where keyctl takes five (a shell, two `keyctl clear`, `keyctl session`, a shell to hand stderr
// back). Measured on a 2-core machine under load, 200 starts each of `true` through setpriv as the
// sandbox user: 6-12 ms bare, the Perl step adding 4-9 ms and the keyctl step 10-24 ms. Through
// the whole launcher (namespaces, mounts), 50 and 100 commands each, interleaved: about 220 ms a
// command either way, each step adding 5-15 ms, within the noise.
//
// Perl starts with `-t -X`: taint mode makes it ignore PERL5OPT, PERL5LIB, PERLLIB and PERLIO,
// which the command's environment may hold (`command-env`) and which could otherwise load code of
// the workspace's before the new keyring is joined; -t only warns where -T would refuse to run a
// program with a world-writable folder on PATH, and -X silences those warnings. The scripts load
// no module and take every value as a positional argument, never pasted into their text.

/** What gives commands a keyring of their own, resolved once at set-up. */
export type KeyringTool =
  | { kind: 'perl'; perl: string; keyctl: number; addKey: number; arch: string }
  | { kind: 'keyctl'; keyctl: string };

/** Programs a test may take as not installed. */
export type KeyringProgram = 'perl' | 'keyctl';

/** The keyctl and add_key syscall numbers of the architectures the Perl step knows. */
const SYSCALLS: Readonly<Record<string, { keyctl: number; addKey: number; arch: string }>> = {
  x64: { keyctl: 250, addKey: 248, arch: 'x86_64' },
  arm64: { keyctl: 219, addKey: 217, arch: 'aarch64' },
};

const PERL_FLAGS = ['-t', '-X'] as const;

// As the sandbox user, just before the command: KEYCTL_CLEAR (7) on @u (-4) and @us (-5), then
// KEYCTL_JOIN_SESSION_KEYRING (1) with no name, which makes a new anonymous session keyring and
// installs it on this process; exec (with an explicit program: never a shell) keeps it for the
// command. Perl writes nothing on success, so the command's stderr is its own from the start.
const PERL_STEP = String.raw`my $nr = 0 + shift @ARGV;
for my $ring (-4, -5) {
  if (syscall($nr, 7, $ring) != 0) { print STDERR "patchloop sandbox: the sandbox user's keyrings cannot be emptied\n"; exit 125; }
}
if (syscall($nr, 1, undef) < 0) { print STDERR "patchloop sandbox: no session keyring of its own: $!\n"; exit 125; }
exec { $ARGV[0] } @ARGV;
print STDERR "patchloop sandbox: $ARGV[0]: $!\n";
exit 127;`;

// The same with keyutils' keyctl. keyctl says "Joined session keyring: N" on stderr, so its stderr
// goes to /dev/null and the command's is handed over on descriptor 3. (`keyctl new_session`, which
// installs the keyring on the calling shell, is refused when that shell's keyring belongs to
// another user, as the runner's does here.)
const KEYCTL_STEP = String.raw`k=$1 sh=$2; shift 2
{ "$k" clear @u && "$k" clear @us; } || { echo "patchloop sandbox: the sandbox user's keyrings cannot be emptied" >&2; exit 125; }
exec 3>&2
exec "$k" session - "$sh" -c 'exec 2>&3 3>&-; exec "$@"' patchloop-keyring "$@" 2>/dev/null`;

// The set-up's probe, as patchloop's own user: the perl is a 64-bit one of the expected
// architecture (else 3), and a new session keyring can be joined (else the errno, and 4).
const PERL_PROBE = String.raw`my ($nr, $arch) = @ARGV;
require Config;
exit 3 unless $Config::Config{archname} =~ /^\Q$arch\E-linux/ && $Config::Config{ptrsize} == 8;
if (syscall(0 + $nr, 1, undef) < 0) { print 0 + $!; exit 4; }
exit 0;`;

// add_key("user", name, payload from stdin, its length, @s = -3): a key in the caller's session
// keyring; prints its id. (syscall() takes strings as writable buffers: no literals.)
const PERL_ADD = String.raw`my ($nr, $name) = @ARGV;
local $/;
my $value = <STDIN>;
$value = '' unless defined $value;
my $type = 'user';
my $id = syscall(0 + $nr, $type, $name, $value, length($value), -3);
exit 1 if $id < 0;
print $id;`;

// Exit 0 when the key is reachable: KEYCTL_READ (11) of its id, or KEYCTL_SEARCH (10) of the
// session keyring (-3) for a "user" key of that name.
const PERL_LOOK = String.raw`my ($nr, $id, $name) = @ARGV;
$nr = 0 + $nr;
my $buf = "\0" x 4096;
exit 0 if syscall($nr, 11, 0 + $id, $buf, 4096) >= 0;
my $type = 'user';
exit 0 if syscall($nr, 10, -3, $type, $name, 0) > 0;
exit 1;`;

// KEYCTL_UNLINK (9) of a key from the session keyring (-3).
const PERL_UNLINK = String.raw`my ($nr, $id) = @ARGV;
exit(syscall(0 + $nr, 9, 0 + $id, -3) == 0 ? 0 : 1);`;

/** errnos with which a kernel refuses keyrings to everyone: seccomp (EPERM, ENOSYS), no support (ENOSYS). */
const REFUSED = new Set([1, 38]);

/**
 * The programs that can give commands a keyring, best first; a string says why none can. `hidden`
 * (tests only) are taken as not installed.
 */
export function findKeyringTools(hidden: readonly KeyringProgram[] = []): KeyringTool[] | string {
  const tools: KeyringTool[] = [];
  const perl = hidden.includes('perl') ? undefined : systemBin('perl');
  const numbers = SYSCALLS[process.arch];
  if (perl && numbers) tools.push({ kind: 'perl', perl, ...numbers });
  const keyctl = hidden.includes('keyctl') ? undefined : systemBin('keyctl');
  if (keyctl) tools.push({ kind: 'keyctl', keyctl });
  if (tools.length) return tools;
  return perl
    ? `keyctl is not installed (keyutils), and perl's syscall() is used only on x86_64 and aarch64, not ${process.arch}: each command gets a keyring of its own with one of them`
    : 'neither perl nor keyctl is installed (perl-base or keyutils): each command gets a keyring of its own with one of them';
}

/**
 * Whether the kernel lets this tool join a new session keyring: `works`, `refused` (keyrings are
 * refused to everyone here, as under Docker's default seccomp profile), or why the tool cannot be
 * used (a perl of another architecture).
 */
export async function probeKeyrings(tool: KeyringTool, sh: string): Promise<'works' | 'refused' | string> {
  if (tool.kind === 'keyctl') {
    const r = await run(tool.keyctl, ['session', '-', sh, '-c', 'exit 0']);
    return r.code === 0 ? 'works' : 'refused';
  }
  const r = await run(tool.perl, [...PERL_FLAGS, '-e', PERL_PROBE, '--', String(tool.keyctl), tool.arch]);
  if (r.code === 0) return 'works';
  if (r.code === 4 && REFUSED.has(Number(r.stdout.trim()))) return 'refused';
  if (r.code === 3) return `${tool.perl} is not a 64-bit ${tool.arch} perl`;
  return `${tool.perl} could not join a session keyring (exit ${r.code}${r.stdout.trim() ? `, errno ${r.stdout.trim()}` : ''})`;
}

/** The argv that empties the sandbox user's keyrings and joins a new session keyring, then runs what follows it. */
export function keyringStep(tool: KeyringTool, sh: string): string[] {
  return tool.kind === 'perl'
    ? [tool.perl, ...PERL_FLAGS, '-e', PERL_STEP, '--', String(tool.keyctl)]
    : [sh, '-c', KEYCTL_STEP, 'patchloop-keyring', tool.keyctl, sh];
}

const PATH_ONLY = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };

/** A "user" key in the session keyring of patchloop's processes, its value given on stdin; its id. */
export function plantKey(tool: KeyringTool, name: string, value: string): string | undefined {
  const [file, args] =
    tool.kind === 'perl'
      ? [tool.perl, [...PERL_FLAGS, '-e', PERL_ADD, '--', String(tool.addKey), name]]
      : [tool.keyctl, ['padd', 'user', name, '@s']];
  const r = spawnSync(file, args, { input: value, encoding: 'utf8', env: PATH_ONLY, timeout: 10_000 });
  const id = r.stdout?.trim();
  return r.status === 0 && /^\d+$/.test(id ?? '') ? id : undefined;
}

/** Removes a key plantKey made from the session keyring. */
export function unlinkKey(tool: KeyringTool, id: string): void {
  const [file, args] =
    tool.kind === 'perl'
      ? [tool.perl, [...PERL_FLAGS, '-e', PERL_UNLINK, '--', String(tool.keyctl), id]]
      : [tool.keyctl, ['unlink', id, '@s']];
  spawnSync(file, args, { stdio: 'ignore', env: PATH_ONLY, timeout: 10_000 });
}

/**
 * The words of a command that succeeds when the key `id` (a "user" key called `name`) can be read
 * or found from the session keyring of the process that runs it; for a shell line, each quoted.
 */
export function keyLookup(tool: KeyringTool, id: string, name: string): string[][] {
  return tool.kind === 'perl'
    ? [[tool.perl, ...PERL_FLAGS, '-e', PERL_LOOK, '--', String(tool.keyctl), id, name]]
    : [
        [tool.keyctl, 'print', id],
        [tool.keyctl, 'search', '@s', 'user', name],
      ];
}
