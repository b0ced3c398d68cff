import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { runCommand } from '../../src/tools/process.js';
import { shellQuote } from '../../src/tools/shell-words.js';

// Bundled and run by keyring.test.ts as root, in a session keyring of its own that the test made
// for it: a key put in the session keyring here is one every child of this process inherits, as
// a runner's job inherits the session keyring systemd gave it. The keys are made and looked for
// with Perl scripts of the test's own, not with the code under test.

interface Config {
  workspace: string;
  env: NodeJS.ProcessEnv;
  tag: string;
  /** keyctl and add_key syscall numbers of this machine. */
  nr: { keyctl: number; addKey: number };
  perl: string;
  options: Pick<SandboxOptions, 'hideBins' | 'weaken' | 'selfCheck'>;
  /**
   * Other test files run defended commands of the sandbox user meanwhile, and each empties its
   * keyrings: the user's key is planted again (up to this many times) when it is gone before the
   * command starts and, with `untilSeen`, when the command did not find it.
   */
  tries: number;
  untilSeen: boolean;
  /**
   * A Perl module in the workspace that reads the parent's key, loaded by every perl the command's
   * environment reaches (PERL5OPT, PERL5LIB through `command-env`): the keyring step's perl must
   * not load it, since it runs before the new keyring is joined.
   */
  workspaceModule: boolean;
}

export interface DriverResult {
  kind: 'isolated' | 'unavailable' | 'failed';
  reason: string;
  /**
   * The program that gives each command its keyring (or, without that defence, the command's own
   * init): what setpriv runs once it has dropped to the sandbox user, or the Perl view itself,
   * which does both.
   */
  launch?: string[];
  /** The parent's key could be read by a plain child of this process (the test's premise). */
  parentKeyInherited?: boolean;
  /** The sandbox user's key could be read by a plain process of that user (the test's premise). */
  userKeyPlanted?: boolean;
  /** What the commands printed, one entry per try. */
  outputs?: string[];
  parentValue?: string;
  userValue?: string;
}

const config = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Config;
const PATH_ONLY = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };

// add_key("user", name, value on stdin, its length, ring); prints the id
const ADD = String.raw`my ($nr, $name, $ring) = @ARGV; local $/; my $v = <STDIN>; my $t = 'user';
my $id = syscall(0 + $nr, $t, $name, $v, length($v), 0 + $ring); exit 1 if $id < 0; print $id;`;
// for each id: KEYCTL_READ (11); for each ring:name: KEYCTL_SEARCH (10), then read what it found;
// `join`: KEYCTL_JOIN_SESSION_KEYRING (1); `link`: KEYCTL_LINK (8) of @u (-4) into @s (-3), which
// makes what @u holds possessed, so readable (a key of a user keyring is not, by itself)
const LOOK = String.raw`my $nr = 0 + shift @ARGV;
sub value { my $b = "\0" x 4096; my $n = syscall($nr, 11, 0 + $_[0], $b, 4096); $n >= 0 ? substr($b, 0, $n) : undef }
for (@ARGV) {
  if ($_ eq 'join') { syscall($nr, 1, undef) }
  elsif ($_ eq 'link') { syscall($nr, 8, -4, -3) }
  elsif (/^(-?\d+):(.+)$/) { my ($r, $d, $t) = ($1, $2, 'user'); my $id = syscall($nr, 10, 0 + $r, $t, $d, 0);
    if ($id > 0) { my $v = value($id); print "found $d in $r: ", (defined $v ? $v : '(unreadable)'), "\n" } }
  else { my $v = value($_); print "read $_: $v\n" if defined $v }
}`;

function add(name: string, value: string, ring: number, asUser?: { uid: number; gid: number }): string {
  const perl = [config.perl, '-e', ADD, '--', String(config.nr.addKey), name, String(ring)];
  const argv = asUser
    ? [
        'setpriv',
        '--reuid',
        String(asUser.uid),
        '--regid',
        String(asUser.gid),
        '--clear-groups',
        '--',
        ...perl,
      ]
    : perl;
  const r = spawnSync(argv[0]!, argv.slice(1), { input: value, encoding: 'utf8', env: PATH_ONLY });
  if (r.status !== 0) throw new Error(`add_key ${name} failed: ${r.stderr}`);
  return r.stdout.trim();
}

function readable(what: string[], asUser?: { uid: number; gid: number }): string {
  const perl = [config.perl, '-e', LOOK, '--', String(config.nr.keyctl), ...what];
  const argv = asUser
    ? [
        'setpriv',
        '--reuid',
        String(asUser.uid),
        '--regid',
        String(asUser.gid),
        '--clear-groups',
        '--',
        ...perl,
      ]
    : perl;
  return spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', env: PATH_ONLY }).stdout ?? '';
}

function account(user: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`));
  const f = line?.split(':') ?? [];
  return { uid: Number(f[2]), gid: Number(f[3]) };
}

async function main(): Promise<DriverResult> {
  const parentValue = `parent-${config.tag}`;
  const parentName = `pl-parent-${config.tag}`;
  // in this process's session keyring (-3), which every child inherits
  const parentId = add(parentName, parentValue, -3);
  const parentKeyInherited = readable([parentId]).includes(parentValue);
  let env = config.env;
  let commandEnv: string[] | undefined;
  if (config.workspaceModule) {
    const lib = join(config.workspace, `.pl-lib-${config.tag}`);
    mkdirSync(lib, { mode: 0o755 });
    writeFileSync(
      join(lib, 'PlProbe.pm'),
      `package PlProbe; print "module loaded\\n"; my ($t, $d, $b) = ('user', '${parentName}', "\\0" x 4096);\n` +
        `my $id = syscall(${config.nr.keyctl}, 10, -3, $t, $d, 0);\n` +
        `if ($id > 0) { my $n = syscall(${config.nr.keyctl}, 11, $id, $b, 4096); print "module read: ", substr($b, 0, $n), "\\n" if $n >= 0 }\n1;\n`,
      { mode: 0o644 },
    );
    env = { ...env, PERL5OPT: '-MPlProbe', PERL5LIB: lib };
    commandEnv = ['PERL5OPT', 'PERL5LIB'];
  }
  let setup;
  try {
    setup = await createSandbox({ workspace: config.workspace, env, commandEnv, ...config.options });
  } catch (err) {
    return { kind: 'failed', reason: (err as Error).message, parentKeyInherited };
  }
  if (setup.kind !== 'isolated') return { kind: 'unavailable', reason: setup.reason };
  try {
    const launch = setup.sandbox.wrap({ command: 'true', cwd: config.workspace, env: {} });
    const argv = [launch.file, ...launch.args];
    const user = account('patchloop-sandbox');
    const outputs: string[] = [];
    let userKeyPlanted = false;
    const userValue = `user-${config.tag}`;
    const userName = `pl-user-${config.tag}`;
    for (let i = 0; i < config.tries; i++) {
      // in the sandbox user's own user keyring (-4), just before the command
      const userId = add(userName, userValue, -4, user);
      // as that user in a session keyring of its own, as a later command would find it
      const planted = readable(['join', 'link', `-3:${userName}`], user).includes(userValue);
      userKeyPlanted ||= planted;
      if (!planted) continue;
      const look = [
        config.perl,
        '-e',
        LOOK,
        '--',
        String(config.nr.keyctl),
        parentId,
        userId,
        `-3:${parentName}`,
        'link',
        `-3:${userName}`,
        `-4:${userName}`,
        `-5:${userName}`,
      ];
      const r = await runCommand({
        // /proc/keys lists what the reader may view: the parent's key only to a process that possesses
        // it (the user's key, being that user's, is listed until the kernel collects it once unlinked)
        command: `${look.map(shellQuote).join(' ')}; echo "proc-keys $(grep -c ${shellQuote(parentName)} /proc/keys)"`,
        cwd: config.workspace,
        env,
        sandbox: setup.sandbox,
        timeoutMs: 60_000,
      });
      outputs.push(`exit ${r.exitCode}\n${r.text}`);
      if (!config.untilSeen || r.text.includes(userValue)) break;
    }
    // the program setpriv runs as the sandbox user: perl or a shell with keyctl, or the command
    // itself; where the Perl view drops to the sandbox user itself, the view (when it joins the new
    // keyring: --fresh-keyring=1) or the command's init, which it execs
    const after = argv.indexOf('--bounding-set=-all');
    const init = argv.indexOf('patchloop-init');
    const viewPerl = argv[argv.indexOf('-t') - 1]!;
    const program =
      after >= 0
        ? argv.slice(after + 2, after + 9)
        : argv.includes('--fresh-keyring=1')
          ? [viewPerl, '--fresh-keyring=1']
          : argv.slice(init - 3, init + 4);
    return {
      kind: 'isolated',
      reason: setup.reason,
      launch: program,
      parentKeyInherited,
      userKeyPlanted,
      outputs,
      parentValue,
      userValue,
    };
  } finally {
    await setup.dispose();
  }
}

console.log(JSON.stringify(await main()));
