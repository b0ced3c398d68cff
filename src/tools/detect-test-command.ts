import { existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { readRegularFileSync } from './safe-fs.js';

export interface TestCommand {
  /** The shell command, e.g. `npm test`. */
  command: string;
  /** What was found that chose it, e.g. `package.json "test" script`. */
  source: string;
  /** Put between the command and extra arguments (npm needs `--` to pass them to the script). */
  argsSeparator: string;
}

/** npm init's placeholder script, which only fails. */
const NPM_PLACEHOLDER = /no test specified/;

/** Larger than any real manifest; a bigger file is not what it claims to be. */
const MAX_MANIFEST_BYTES = 1 << 20;

// Detection runs on every run_tests call, on files a command may have replaced: a FIFO named
// package.json would block a plain read (and the whole event loop) until someone writes to it, so
// only a regular file, opened without blocking and without following a symlink, is read at all.
function readText(path: string): string | undefined {
  try {
    return readRegularFileSync(path, MAX_MANIFEST_BYTES).toString('utf8');
  } catch {
    return undefined;
  }
}

function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      if (statSync(join(dir, name)).isFile()) return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

function nodeCommand(root: string, env: NodeJS.ProcessEnv): TestCommand | undefined {
  const text = readText(join(root, 'package.json'));
  if (text === undefined) return undefined;
  let script: unknown;
  try {
    script = (JSON.parse(text) as { scripts?: Record<string, unknown> }).scripts?.test;
  } catch {
    return undefined;
  }
  if (typeof script !== 'string' || script.trim() === '' || NPM_PLACEHOLDER.test(script)) return undefined;
  const source = 'package.json "test" script';
  if (existsSync(join(root, 'pnpm-lock.yaml')) && onPath('pnpm', env))
    return { command: 'pnpm test', source, argsSeparator: '' };
  if (existsSync(join(root, 'yarn.lock')) && onPath('yarn', env))
    return { command: 'yarn test', source, argsSeparator: '' };
  return { command: 'npm test', source, argsSeparator: '-- ' };
}

function pythonCommand(root: string, env: NodeJS.ProcessEnv): TestCommand | undefined {
  const python = onPath('python', env) || !onPath('python3', env) ? 'python' : 'python3';
  const command = `${python} -m pytest`;
  for (const file of ['pytest.ini', 'conftest.py']) {
    if (existsSync(join(root, file))) return { command, source: file, argsSeparator: '' };
  }
  for (const file of ['pyproject.toml', 'setup.cfg', 'tox.ini']) {
    if (/pytest/.test(readText(join(root, file)) ?? ''))
      return { command, source: `${file} (pytest settings)`, argsSeparator: '' };
  }
  for (const file of ['pyproject.toml', 'setup.py', 'setup.cfg']) {
    if (existsSync(join(root, file))) return { command, source: file, argsSeparator: '' };
  }
  return undefined;
}

function makeCommand(root: string): TestCommand | undefined {
  for (const file of ['Makefile', 'makefile', 'GNUmakefile']) {
    const text = readText(join(root, file));
    if (text !== undefined && /^test\s*:/m.test(text))
      return { command: 'make test', source: `${file} "test" target`, argsSeparator: '' };
  }
  return undefined;
}

/**
 * Finds how a repository runs its tests, from the files at its root. Returns undefined when
 * nothing recognisable is there.
 */
export function detectTestCommand(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): TestCommand | undefined {
  const node = nodeCommand(root, env);
  if (node) return node;
  const python = pythonCommand(root, env);
  if (python) return python;
  if (existsSync(join(root, 'go.mod')))
    return { command: 'go test ./...', source: 'go.mod', argsSeparator: '' };
  if (existsSync(join(root, 'Cargo.toml')))
    return { command: 'cargo test', source: 'Cargo.toml', argsSeparator: '' };
  const make = makeCommand(root);
  if (make) return make;
  if (existsSync(join(root, 'gradlew')))
    return { command: './gradlew test', source: 'gradlew', argsSeparator: '' };
  if (existsSync(join(root, 'pom.xml'))) return { command: 'mvn test', source: 'pom.xml', argsSeparator: '' };
  return undefined;
}
