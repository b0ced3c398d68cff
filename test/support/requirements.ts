// Tests that need a program outside node_modules (a browser, setfacl) skip with a notice that says
// what to install on a machine that lacks it, so `npm test` passes on a fresh clone. In CI
// (`CI=true`, which GitHub Actions sets) nothing may be skipped silently: a missing program fails.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, it } from 'vitest';

export interface Requirement {
  /** What is needed, for the notice: "Chromium", "setfacl". */
  name: string;
  /** Where it was found, when it was. */
  path?: string;
  /** How to get it. */
  install: string;
}

/** The first of `candidates` that exists. */
function firstExisting(candidates: (string | undefined)[]): string | undefined {
  return candidates.find((p): p is string => typeof p === 'string' && p !== '' && existsSync(p));
}

/** A program on PATH, or in the usual system folders. */
function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = [...(env.PATH ?? '').split(delimiter), '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
  return firstExisting(dirs.filter(Boolean).map((d) => join(d, name)));
}

/** Chromium for the page tests: `PATCHLOOP_CHROMIUM`, then the usual names on PATH. */
export function chromium(env: NodeJS.ProcessEnv = process.env): Requirement {
  const path =
    firstExisting([env.PATCHLOOP_CHROMIUM]) ??
    ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']
      .map((n) => onPath(n, env))
      .find(Boolean);
  return {
    name: 'Chromium',
    path,
    install:
      'install it (Debian/Ubuntu: `sudo apt-get install chromium`; macOS: `brew install --cask chromium`) or set PATCHLOOP_CHROMIUM to a Chromium or Chrome binary',
  };
}

/** setfacl, for the sandbox's ACL access mode. */
export function setfacl(env: NodeJS.ProcessEnv = process.env): Requirement {
  return {
    name: 'setfacl',
    path: onPath('setfacl', env),
    install: 'install the `acl` package (Debian/Ubuntu: `sudo apt-get install acl`)',
  };
}

export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === 'true' || env.CI === '1';
}

/** Whether the tests needing `req` are skipped here: only when it is missing and this is not CI. */
export function skips(req: Requirement, env: NodeJS.ProcessEnv = process.env): boolean {
  return req.path === undefined && !inCi(env);
}

export function notice(req: Requirement): string {
  return `${req.name} was not found: ${req.install}.`;
}

const announced = new Set<string>();

/**
 * `describe` for tests that need `req`: skipped with a notice on stderr when it is missing, except
 * in CI, where a missing requirement is a failing test that says what to install.
 */
export function describeNeeding(req: Requirement, env: NodeJS.ProcessEnv = process.env) {
  if (req.path === undefined) {
    if (inCi(env)) {
      describe(`${req.name} is installed`, () => {
        it(`finds ${req.name} (CI=true: the tests that need it must not be skipped)`, () => {
          throw new Error(`${notice(req)} The tests that need it cannot run.`);
        });
      });
    } else available(req, env);
  }
  return describe.skipIf(skips(req, env));
}

/**
 * For a `skipIf` condition: true when the tests needing `req` should run (it is there, or this is
 * CI, where they then fail); false, after the notice on stderr, where they are skipped.
 */
export function available(req: Requirement, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!skips(req, env)) return true;
  if (!announced.has(req.name)) {
    announced.add(req.name);
    process.stderr.write(`Skipping the tests that need ${req.name}. ${notice(req)}\n`);
  }
  return false;
}
