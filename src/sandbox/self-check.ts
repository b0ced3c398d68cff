import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join, relative, sep } from 'node:path';
import { isInside } from '../tools/safe-fs.js';
import { runCommand, type CommandSandbox } from '../tools/process.js';
import { shellQuote } from '../tools/shell-words.js';
import { SANDBOX_HOME, SCRATCH_DIRS } from './launch.js';

export interface SelfCheckPlan {
  uid: number;
  workspace: string;
  hasGit: boolean;
  privateDirs: string[];
  readOnlyDirs: string[];
  /** The process limit the probe must see; undefined when none is set. */
  processes?: number;
  env: NodeJS.ProcessEnv;
  /** The command has a network namespace of its own; `proxy`: with the bridge to the proxy. */
  network?: { proxy: boolean };
}

/** A listener on the host's loopback, which a command in its own network namespace must not reach. */
function hostListener(): Promise<{ port: number; server: Server }> {
  return new Promise((done, fail) => {
    const server = createServer((c) => c.destroy());
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      done({ port: typeof a === 'object' && a ? a.port : 0, server });
    });
  });
}

const SECRET_NAME = 'PATCHLOOP_SELF_CHECK_SECRET';

/**
 * One probe command through the real launcher, trying what an attacker would: everything must come
 * out as the sandbox promises. Returns what went wrong, or undefined.
 */
export async function selfCheck(sandbox: CommandSandbox, plan: SelfCheckPlan): Promise<string | undefined> {
  const tag = randomBytes(6).toString('hex');
  const secret = `s3cret-${tag}`;
  const q = shellQuote;
  // a file of patchloop's own in each private folder, which the probe must not see
  const planted: string[] = [];
  for (const dir of plan.privateDirs) {
    const file = join(dir, `.patchloop-probe-${tag}`);
    try {
      writeFileSync(file, secret, { mode: 0o644, flag: 'wx' });
      planted.push(file);
    } catch {
      // not writable by patchloop either: an empty listing is still checked
    }
  }
  const host = plan.network ? await hostListener() : undefined;
  const lines = [
    'echo "uid $(id -u)"',
    // a redirection that fails reports on the shell's stderr, hence the { } around each one
    `if h=$({ sha256sum < /proc/${process.pid}/environ; } 2>/dev/null); then echo "environ $h"; fi`,
    `f=.patchloop-probe-${tag}; if { : > "$f"; } 2>/dev/null && rm -f "$f"; then echo workspace-writable; fi`,
    plan.processes === undefined
      ? ':'
      : `[ "$(ulimit -u)" = ${plan.processes} ] || echo "nproc $(ulimit -u)"`,
    `if printenv ${SECRET_NAME} >/dev/null; then echo env-secret-visible; fi`,
  ];
  if (plan.hasGit)
    lines.push(
      `if mv .git .git-probe-${tag} 2>/dev/null; then mv .git-probe-${tag} .git; echo git-renamed; fi`,
      `if [ -d .git ] && { : > .git/probe-${tag}; } 2>/dev/null; then rm -f .git/probe-${tag}; echo git-written; fi`,
      `if [ -f .git ] && { : >> .git; } 2>/dev/null; then echo git-written; fi`,
    );
  // A folder above the workspace, or a private one, may show only the way down to the workspace,
  // the command's HOME, the fresh scratch folders and the read-only folders bound inside it (the
  // run's saved outputs), or nothing at all.
  const onlyWays = (dir: string, what: string) => {
    const ways = [plan.workspace, SANDBOX_HOME, ...SCRATCH_DIRS, ...plan.readOnlyDirs]
      .filter((d) => d !== dir && isInside(d, dir))
      .map((d) => relative(dir, d).split(sep)[0]!);
    const pattern = ["''", ...ways.map(q)].join('|');
    return `ls -A ${q(dir)} 2>/dev/null | while IFS= read -r n; do case "$n" in ${pattern}) ;; *) echo ${what} ${q(dir)}/"$n";; esac; done`;
  };
  if (host)
    lines.push(
      // only the namespace's own loopback: no other interface, the host's listener out of reach,
      // the namespace's loopback up (a refused connection, not an unreachable network)
      `while IFS=: read -r n _; do n=$(printf %s $n); case "$n" in lo|Inter-*|face*) ;; *) echo "interface-visible $n";; esac; done < /proc/net/dev`,
      `if (exec 3<>/dev/tcp/127.0.0.1/${host.port}) 2>/dev/null; then echo host-loopback-reachable; fi`,
      `case "$( (exec 3<>/dev/tcp/127.0.0.1/1) 2>&1)" in *refused*) ;; *) echo loopback-down;; esac`,
      plan.network?.proxy
        ? `case "\${HTTPS_PROXY:-}" in http://127.0.0.1:*) (exec 3<>/dev/tcp/127.0.0.1/"\${HTTPS_PROXY##*:}") 2>/dev/null || echo proxy-unreachable;; *) echo proxy-unset;; esac`
        : `[ -z "\${HTTPS_PROXY:-}" ] || echo proxy-set`,
    );
  for (let dir = dirname(plan.workspace); dir !== '/'; dir = dirname(dir))
    lines.push(onlyWays(dir, 'above-visible'));
  for (const dir of plan.privateDirs) lines.push(onlyWays(dir, 'private-visible'));
  for (const dir of plan.readOnlyDirs)
    lines.push(
      `ls ${q(dir)} >/dev/null 2>&1 || echo read-only-unreadable ${q(dir)}`,
      `if { : > ${q(join(dir, `probe-${tag}`))}; } 2>/dev/null; then echo read-only-writable ${q(dir)}; fi`,
    );
  try {
    const r = await runCommand({
      command: lines.join('\n'),
      cwd: plan.workspace,
      env: { ...plan.env, [SECRET_NAME]: secret },
      sandbox,
      timeoutMs: 30_000,
    });
    const out = r.text.trim().split('\n');
    if (r.exitCode !== 0 || r.spawnError)
      return `the probe command failed (${r.spawnError ?? `exit ${r.exitCode ?? r.signal}`}): ${out.slice(-3).join(' / ')}`;
    if (out[0] !== `uid ${plan.uid}`) return `the probe ran as ${out[0] ?? 'nobody'}, not uid ${plan.uid}`;
    const own = createHash('sha256').update(readFileSync('/proc/self/environ')).digest('hex');
    if (out.some((l) => l.startsWith('environ ') && l.includes(own)))
      return "the probe could read patchloop's /proc/<pid>/environ";
    if (!out.includes('workspace-writable')) return 'the probe could not write in the workspace';
    if (r.text.includes(secret)) return 'the probe saw a value it must not see';
    const problems = out.filter(
      (l) => !l.startsWith('uid ') && !l.startsWith('environ ') && l !== 'workspace-writable',
    );
    if (problems.length) return `the probe found: ${problems.join('; ')}`;
    return undefined;
  } finally {
    host?.server.close();
    for (const file of planted) rmSync(file, { force: true });
    for (const dir of plan.readOnlyDirs) {
      // only a broken read-only mount could have let the probe leave a file there
      for (const name of safeList(dir)) if (name === `probe-${tag}`) rmSync(join(dir, name), { force: true });
    }
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
