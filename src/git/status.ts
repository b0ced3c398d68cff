// One reader for `git status --porcelain=v2 -z` and one for `git diff --numstat -z`.

export interface ChangedFile {
  path: string;
  added: number;
  removed: number;
  /** git counts no lines for binary files: both counts are then 0 */
  binary?: boolean;
}

export interface StatusEntry {
  /** `1` changed, `2` renamed or copied, `u` unmerged, `?` untracked, `!` ignored */
  kind: '1' | '2' | 'u' | '?' | '!';
  /** the two-letter XY field (`??` for untracked) */
  xy: string;
  path: string;
  /** the path before a rename or copy */
  from?: string;
  /** a submodule or gitlink (mode 160000) in HEAD, the index or the work tree */
  gitlink: boolean;
}

export interface Status {
  /** HEAD's commit; absent before the first commit */
  head?: string;
  /** the branch checked out; absent on a detached HEAD */
  branch?: string;
  entries: StatusEntry[];
}

/** The rest of a space-separated record after its first `n` fields (a path may hold spaces). */
function after(record: string, n: number): string {
  let at = 0;
  for (let k = 0; k < n; k++) at = record.indexOf(' ', at) + 1;
  return record.slice(at);
}

const GITLINK = '160000';

/** Reads `git status --porcelain=v2 [--branch] -z`. */
export function parseStatus(out: string): Status {
  const status: Status = { entries: [] };
  const records = out.split('\0');
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (r === '') continue;
    if (r.startsWith('# branch.oid ')) {
      const oid = r.slice('# branch.oid '.length);
      if (oid !== '(initial)') status.head = oid;
      continue;
    }
    if (r.startsWith('# branch.head ')) {
      const name = r.slice('# branch.head '.length);
      if (name !== '(detached)') status.branch = name;
      continue;
    }
    const kind = r[0];
    const fields = r.split(' ');
    if (kind === '1' || kind === '2' || kind === 'u') {
      // 1 XY sub mH mI mW hH hI path / 2 XY sub mH mI mW hH hI Xscore path \0 orig / u XY sub m1 m2 m3 mW ...
      const modes = kind === 'u' ? fields.slice(3, 7) : fields.slice(3, 6);
      const entry: StatusEntry = {
        kind,
        xy: fields[1]!,
        path: after(r, kind === '1' ? 8 : kind === '2' ? 9 : 10),
        gitlink: fields[2]!.startsWith('S') || modes.includes(GITLINK),
      };
      if (kind === '2') entry.from = records[++i];
      status.entries.push(entry);
    } else if (kind === '?' || kind === '!') {
      status.entries.push({ kind, xy: `${kind}${kind}`, path: r.slice(2), gitlink: false });
    }
  }
  return status;
}

/** Paths with uncommitted changes, and untracked files that are not ignored. */
export function dirtyPaths(status: Status): string[] {
  return status.entries.filter((e) => e.kind !== '!').map((e) => e.path);
}

/** Reads `git diff --numstat -z --no-renames`: binary files show `-` for both counts. */
export function parseNumstat(out: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  for (const record of out.split('\0')) {
    // Under -z a record is `added\tremoved\tpath`; older gits start later records with a newline.
    const m = /^(-|\d+)\t(-|\d+)\t(.+)$/s.exec(record.replace(/^\n/, ''));
    if (!m) continue;
    const binary = m[1] === '-' || m[2] === '-';
    const file: ChangedFile = {
      path: m[3]!,
      added: binary ? 0 : Number(m[1]),
      removed: binary ? 0 : Number(m[2]),
    };
    if (binary) file.binary = true;
    files.push(file);
  }
  return files;
}
