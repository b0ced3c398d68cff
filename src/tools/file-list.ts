import { splitNul, type Git } from '../git/index.js';
import type { Area } from './safe-fs.js';
import { compareNames, walkFiles } from './walk.js';

export interface FileList {
  /** Workspace-relative paths, sorted. */
  files: string[];
  source: 'git' | 'walk';
}

/**
 * Every file under `base` (workspace-relative, '' for the root) that .gitignore does not exclude:
 * from git's index plus untracked files in a checkout (less files deleted from the working tree),
 * from a walk of the folder elsewhere, or when the folder asked for is itself ignored (the walk then
 * applies only the .gitignore rules below it).
 */
export async function listFiles(area: Area, git: Git, base: string, signal?: AbortSignal): Promise<FileList> {
  if ((await git.isWorkTree()) && !(await git.isIgnored(base, signal))) {
    const spec = base === '' ? '.' : `:(literal)${base}`;
    const [listed, deleted] = await Promise.all([
      git.run(['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', spec], { signal }),
      git.run(['ls-files', '-z', '--deleted', '--', spec], { signal }),
    ]);
    if (listed.code === 0 && deleted.code === 0) {
      const gone = new Set(splitNul(deleted.stdout));
      const files = [...new Set(splitNul(listed.stdout))].filter((f) => !gone.has(f));
      return { files: files.sort(compareNames), source: 'git' };
    }
  }
  const files: string[] = [];
  for await (const entry of walkFiles(area, base, signal)) files.push(entry.rel);
  return { files: files.sort(compareNames), source: 'walk' };
}
