import { statSync } from 'node:fs';
import { parseArgs as parseNodeArgs } from 'node:util';
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
    const s = short[name as keyof F & string];
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
    throw new UsageError(
      err instanceof Error ? err.message.replace(/\.?\s*To specify a positional.*$/s, '.') : String(err),
    );
  }
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
