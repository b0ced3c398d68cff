// Branch names: the action's of CONTRACT §4 (<prefix>issue-<n>-<slug>, <prefix>fix-run-<id>,
// <prefix>task-<id>) and the CLI's (patchloop/<slug>-<MMDD-HHMMSS>), from one slugifier.

/** A short ASCII slug: lowercase words joined by hyphens, at most `max` characters, cut at a word. */
export function slugify(text: string, max = 40): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (slug.length <= max) return slug;
  // When the character after the cut is a hyphen, the cut already falls between two words.
  if (slug[max] === '-') return slug.slice(0, max);
  const cut = slug.slice(0, max);
  const lastDash = cut.lastIndexOf('-');
  return (lastDash > max / 2 ? cut.slice(0, lastDash) : cut).replace(/-+$/, '');
}

/**
 * Makes a user-given prefix a legal start of a ref name (git check-ref-format): no spaces,
 * control characters, `~^:?*[\`, `..`, `@{`, no component starting with `.` or ending in `.lock`,
 * no leading `-`.
 */
export function cleanPrefix(prefix: string): string {
  return (
    prefix
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0020\u007f~^:?*[\\]+/g, '-')
      .replace(/\.{2,}/g, '.')
      .replace(/@\{/g, '-')
      .split('/')
      .map((part) => part.replace(/^\.+/, '').replace(/\.lock$/i, '-lock'))
      .filter((part, i, all) => part !== '' || i === all.length - 1)
      .join('/')
      .replace(/^[/-]+/, '')
  );
}

/** What a branch name is made from; the action's Task has these fields. */
export interface BranchTask {
  kind: 'issue' | 'pr' | 'review-comment' | 'review' | 'workflow-run' | 'prompt';
  number?: number;
  title?: string;
  workflowRun?: { id: number };
}

/**
 * The branch a task's work goes to (before making it unique). `job` tells apart the jobs of one
 * workflow run (a matrix): two of them start at the same moment, so making the name unique against
 * origin's branches would not keep them apart.
 */
export function branchNameFor(task: BranchTask, prefix: string, runId: string, job?: string): string {
  const p = cleanPrefix(prefix);
  switch (task.kind) {
    case 'issue':
      return `${p}issue-${task.number}${suffix(task.title)}`;
    case 'pr':
    case 'review-comment':
    case 'review':
      return `${p}pr-${task.number}${suffix(task.title)}`;
    case 'workflow-run':
      return `${p}fix-run-${task.workflowRun?.id ?? runId}`;
    case 'prompt':
      return `${p}task-${runId}${job ? `-${slugify(job) || 'job'}` : ''}`;
  }
}

function suffix(title: string | undefined): string {
  const slug = slugify(title ?? '');
  return slug ? `-${slug}` : '';
}

/** The CLI's branch: `patchloop/<slug of the task>-<MMDD-HHMMSS>` (UTC). */
export function defaultBranchName(task: string, date: Date, prefix = 'patchloop/'): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}-${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}`;
  return `${cleanPrefix(prefix)}${slugify(task) || 'task'}-${stamp}`;
}

/** `name`, or `name-2`, `name-3` … whichever is not taken. */
export function uniqueName(name: string, taken: (candidate: string) => boolean): string {
  if (!taken(name)) return name;
  for (let i = 2; ; i++) {
    const candidate = `${name}-${i}`;
    if (!taken(candidate)) return candidate;
  }
}
