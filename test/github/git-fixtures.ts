// Real git repositories for tests: a bare `origin` and clones of it, in a temp folder, plus a
// smart-HTTP server (git http-backend behind a loopback server) that demands a credential.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test Author',
      GIT_AUTHOR_EMAIL: 'author@example.com',
      GIT_COMMITTER_NAME: 'Test Author',
      GIT_COMMITTER_EMAIL: 'author@example.com',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

/** git without blocking the event loop: needed when the other end is a server in this process. */
export function gitAsync(cwd: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout.trim()),
    );
  });
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

export interface RepoFixture {
  root: string;
  /** bare repository: origin */
  origin: string;
  /** a clone with main checked out */
  work: string;
  clone(name: string, url?: string): string;
  /** commits files on `branch` directly in origin (through a scratch clone) */
  pushToOrigin(branch: string, files: Record<string, string>, message?: string): string;
  cleanup(): void;
}

export function makeRepo(
  files: Record<string, string> = {
    'README.md': '# demo\n',
    'src/math.js': 'export const div = (a, b) => a / b;\n',
  },
): RepoFixture {
  const root = mkdtempSync(join(tmpdir(), 'patchloop-git-'));
  const origin = join(root, 'origin.git');
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', origin]);
  const seed = join(root, 'seed');
  git(root, 'clone', '--quiet', origin, seed);
  git(seed, 'checkout', '--quiet', '-B', 'main');
  writeFiles(seed, files);
  git(seed, 'add', '-A');
  git(seed, 'commit', '--quiet', '-m', 'initial');
  git(seed, 'push', '--quiet', 'origin', 'main');
  const clone = (name: string, url = origin): string => {
    const dir = join(root, name);
    git(root, 'clone', '--quiet', url, dir);
    return dir;
  };
  const work = clone('work');
  return {
    root,
    origin,
    work,
    clone,
    pushToOrigin(branch, changes, message = 'upstream change') {
      const dir = join(root, `scratch-${Math.random().toString(36).slice(2)}`);
      git(root, 'clone', '--quiet', origin, dir);
      const exists = git(dir, 'ls-remote', '--heads', 'origin', branch) !== '';
      git(dir, 'checkout', '--quiet', '-B', branch, ...(exists ? [`origin/${branch}`] : []));
      writeFiles(dir, changes);
      git(dir, 'add', '-A');
      git(dir, 'commit', '--quiet', '-m', message);
      git(dir, 'push', '--quiet', 'origin', `${branch}:refs/heads/${branch}`);
      const sha = git(dir, 'rev-parse', 'HEAD');
      rmSync(dir, { recursive: true, force: true });
      return sha;
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface GitHttpServer {
  url: string;
  /** the Authorization header of every request, in order */
  auths: (string | undefined)[];
  stop(): Promise<void>;
}

/**
 * Serves the repositories under `projectRoot` over smart HTTP with `git http-backend`, answering
 * 401 to any request whose Authorization header is not `expectedAuth`.
 */
export async function startGitHttpServer(projectRoot: string, expectedAuth: string): Promise<GitHttpServer> {
  const auths: (string | undefined)[] = [];
  const server: Server = createServer((req, res) => {
    auths.push(req.headers.authorization);
    if (req.headers.authorization !== expectedAuth) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="fake"' });
      res.end('unauthorized');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: 'x-access-token',
        REQUEST_METHOD: req.method,
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...contentEncoding(req.headers),
      },
    });
    req.pipe(child.stdin);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('close', () => {
      const out = Buffer.concat(chunks);
      const split = out.indexOf('\r\n\r\n');
      const head = out.subarray(0, split).toString('utf8');
      const body = out.subarray(split + 4);
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n')) {
        const i = line.indexOf(':');
        const k = line.slice(0, i).trim();
        const v = line.slice(i + 1).trim();
        if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
        else if (k) headers[k] = v;
      }
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    auths,
    stop: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function contentEncoding(headers: IncomingHttpHeaders): Record<string, string> {
  return headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(headers['content-encoding']) } : {};
}
