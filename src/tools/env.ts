import { delimiter, isAbsolute } from 'node:path';
import { isInside } from './safe-fs.js';

// The environment a model-chosen command gets is an allow-list: the neutral variables patchloop
// sets itself, and the names the workflow lists in `command-env`. A deny-list of secret-looking
// names let DATABASE_URL with its password, webhook URLs and *_PASS variables through; here a
// variable nobody named never arrives.

/** Variables patchloop sets for every command; none of them carries anything of the job's. */
export const NEUTRAL_VARIABLES = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'TERM',
  'TZ',
  'TMPDIR',
  'CI',
  'USER',
  'LOGNAME',
  'GIT_TERMINAL_PROMPT',
  'PAGER',
  'GIT_PAGER',
  'npm_config_update_notifier',
] as const;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `name` can be an environment variable's name (what `command-env` may list). */
export function isVariableName(name: string): boolean {
  return NAME.test(name);
}

export interface CommandEnvOptions {
  /** Names passed through from the job's environment (`command-env`). */
  pass?: readonly string[];
  /** HOME for the command; default: the job's HOME. */
  home?: string;
  /** USER and LOGNAME; default: the job's USER. */
  user?: string;
  /** TMPDIR; default: the job's TMPDIR, else /tmp. */
  tmpdir?: string;
  /** Folders of patchloop's own (RUNNER_TEMP, the run's folder): PATH entries inside them are dropped. */
  privateDirs?: readonly string[];
}

/** The job's PATH, without entries that are relative or lie in patchloop's own folders. */
export function commandPath(path: string | undefined, privateDirs: readonly string[] = []): string {
  const kept = (path ?? '')
    .split(delimiter)
    .filter((dir) => dir && isAbsolute(dir) && !privateDirs.some((p) => isInside(dir, p)));
  return kept.length ? kept.join(delimiter) : '/usr/local/bin:/usr/bin:/bin';
}

/** The whole environment of a command, built from the job's `env`. */
export function commandEnv(
  env: NodeJS.ProcessEnv = process.env,
  options: CommandEnvOptions = {},
): Record<string, string> {
  const user = options.user ?? env.USER ?? env.LOGNAME;
  const out: Record<string, string> = {
    PATH: commandPath(env.PATH, options.privateDirs),
    LANG: env.LANG || 'C.UTF-8',
    TERM: env.TERM || 'dumb',
    TZ: env.TZ || 'UTC',
    TMPDIR: options.tmpdir ?? (env.TMPDIR || '/tmp'),
    CI: 'true',
    // no prompt for a password that nobody can type, no pager waiting for a key
    GIT_TERMINAL_PROMPT: '0',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    // npm's "new version available" notice is noise in every test output the model reads
    npm_config_update_notifier: 'false',
  };
  if (env.LC_ALL) out.LC_ALL = env.LC_ALL;
  const home = options.home ?? env.HOME;
  if (home) out.HOME = home;
  if (user) {
    out.USER = user;
    out.LOGNAME = user;
  }
  for (const name of options.pass ?? []) {
    const value = env[name];
    // the neutral ones stay patchloop's: a listed PATH must not bring back the private entries
    if (isVariableName(name) && value !== undefined && !(name in out)) out[name] = value;
  }
  return out;
}

/**
 * The environment of patchloop's own helper processes (git for file listings, ripgrep): the
 * neutral variables only, so a secret of the job never reaches a program that reads the workspace.
 */
export function scrubEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return commandEnv(env);
}
