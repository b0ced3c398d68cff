import { statSync } from 'node:fs';
import { parseArgs as parseNodeArgs } from 'node:util';
import { cloudCredentialName, commandEnvNames, notAVariableName } from '../sandbox/command-env.js';
import { UsageError } from './io.js';

export type FlagKind = 'string' | 'boolean';

export interface ParsedArgs<F extends Record<string, FlagKind>> {
  flags: { [K in keyof F]?: F[K] extends 'boolean' ? boolean : string };
  positionals: string[];
}

/**
 * Parses `--name value`, `--name=value` and boolean `--flag` options; anything else is a
 * positional. Unknown flags and missing values become a UsageError (exit status 2).
 */
export function parseFlags<F extends Record<string, FlagKind>>(
  argv: string[],
  spec: F,
  short: Partial<Record<keyof F & string, string>> = {},
): ParsedArgs<F> {
  const options: Record<string, { type: FlagKind; short?: string }> = {};
  for (const [name, type] of Object.entries(spec)) {
    // -h is --help for every command that has --help.
    const s = short[name as keyof F & string] ?? (name === 'help' ? 'h' : undefined);
    options[name] = s ? { type, short: s } : { type };
  }
  try {
    const { values, positionals } = parseNodeArgs({
      args: argv,
      options,
      allowPositionals: true,
      strict: true,
    });
    return { flags: values as ParsedArgs<F>['flags'], positionals };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
    if (unknown !== undefined) throw new UsageError(unknownOption(unknown, Object.keys(spec)));
    throw new UsageError(message.replace(/\.?\s*To specify a positional.*$/s, '.'));
  }
}

/** "unknown option --mdoel; did you mean --model?", when one known flag is a near miss. */
export function unknownOption(given: string, known: readonly string[]): string {
  const name = given.replace(/^-+/, '').replace(/=.*$/, '');
  let best: { flag: string; distance: number } | undefined;
  for (const flag of known) {
    const distance = editDistance(name.toLowerCase(), flag);
    if (!best || distance < best.distance) best = { flag, distance };
  }
  // One or two edits, and fewer than the name's length (so "-x" is not "--repo"'s near miss).
  const near = best && best.distance <= Math.min(2, Math.floor(name.length / 2)) ? best.flag : undefined;
  return `unknown option ${given}${near ? `; did you mean --${near}?` : ''}`;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** A positive whole number from a flag, or a UsageError naming the flag. */
export function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) {
    throw new UsageError(`--${name} must be a positive whole number, got "${value}"`);
  }
  return Number(value);
}

/** A positive number (decimals allowed) from a flag, or a UsageError naming the flag. */
export function positiveNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new UsageError(`--${name} must be a positive number, got "${value}"`);
  }
  return n;
}

/** A `--repo`-style folder that must exist; a UsageError that says so otherwise (not git's message). */
export function existingFolder(flag: string, path: string): string {
  let isFolder = false;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    // missing or unreadable: said below
  }
  if (!isFolder) throw new UsageError(`--${flag} ${path} is not a folder`);
  return path;
}

/**
 * `--command-env NAMES`: the action's `command-env`, read and refused by the same rules (names of
 * variables, never one that holds a cloud credential).
 */
export function commandEnvFlag(value: string | undefined): string[] {
  if (value === undefined) return [];
  const names = commandEnvNames(value);
  const bad = notAVariableName(names);
  if (bad !== undefined)
    throw new UsageError(
      `--command-env lists names of environment variables (comma- or newline-separated); "${bad}" is not one`,
    );
  const credential = cloudCredentialName(names);
  if (credential !== undefined)
    throw new UsageError(
      `--command-env may not name ${credential}: it holds a cloud credential (or how to get one), which patchloop never gives to commands`,
    );
  return names;
}
