import { join } from 'node:path';
import picomatch from 'picomatch';
import { readRegularFileSync } from './safe-fs.js';

// .gitignore rules for folders that are not git checkouts (where git cannot be asked): the common
// subset of gitignore(5): comments, `!` negation, trailing `/` for folders, anchoring by a leading
// or inner `/`, `*`, `?`, `[...]` and `**`. The last matching rule wins.

interface Rule {
  /** Folder of the .gitignore, workspace-relative ('' for the root). */
  base: string;
  negate: boolean;
  dirOnly: boolean;
  test: (relToBase: string, name: string) => boolean;
}

export function parseGitignore(text: string, base: string): Rule[] {
  const rules: Rule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue;
    line = line.replace(/(?<!\\)\s+$/, '');
    if (line === '') continue;
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith('/')) {
      dirOnly = true;
      line = line.slice(0, -1);
    }
    if (line === '') continue;
    const anchored = line.includes('/');
    const pattern = line.replace(/^\//, '');
    const matcher = picomatch(pattern, { dot: true });
    rules.push({
      base,
      negate,
      dirOnly,
      test: anchored ? (rel) => matcher(rel) : (_rel, name) => matcher(name),
    });
  }
  return rules;
}

/** A .gitignore larger than this is not read (git's own limit is 100 MB; real ones are a few KB). */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

/** The ignore rules in force in one folder: its ancestors' and its own. */
export class IgnoreRules {
  private constructor(private readonly rules: Rule[]) {}

  static empty(): IgnoreRules {
    return new IgnoreRules([]);
  }

  /** Rules for `dir` (workspace-relative), adding its .gitignore to this folder's parent rules. */
  child(root: string, dir: string): IgnoreRules {
    let text: string;
    try {
      // Like git (2.32 on), a .gitignore that is a symlink is not followed; a FIFO is not waited on.
      text = readRegularFileSync(join(root, dir, '.gitignore'), MAX_GITIGNORE_BYTES, {
        within: root,
      }).toString('utf8');
    } catch {
      return this;
    }
    return new IgnoreRules([...this.rules, ...parseGitignore(text, dir)]);
  }

  /** Rules in force in `dir`, reading every .gitignore from the root down to it. */
  static forFolder(root: string, dir: string): IgnoreRules {
    let rules = IgnoreRules.empty().child(root, '');
    if (dir === '') return rules;
    const parts = dir.split('/');
    for (let i = 1; i <= parts.length; i++) rules = rules.child(root, parts.slice(0, i).join('/'));
    return rules;
  }

  ignores(rel: string, isDir: boolean): boolean {
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    let ignored = false;
    for (const rule of this.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.base !== '' && !rel.startsWith(`${rule.base}/`)) continue;
      const relToBase = rule.base === '' ? rel : rel.slice(rule.base.length + 1);
      if (rule.test(relToBase, name)) ignored = !rule.negate;
    }
    return ignored;
  }
}
