// The failures of Node's test runner (`node --test`) in a command's output, each with its error.
// Its two reporters end in counters (`# fail 1`, `ℹ fail 1`) that say nothing of why; the why is
// in TAP's YAML block under `not ok` (`error: '…'`, or an indented `error: |-` block) or, in the
// spec reporter, on the lines under `✖ name (1.2ms)` down to the stack.

/** A failed test of Node's runner: its heading line and the error, each on one line. */
export interface TestFailure {
  test: string;
  error: string;
}

// `not ok 2 - name` and a directive (`# TODO`) after the name
const TAP_NOT_OK = /^(\s*)not ok \d+ - (.*?)(?:\s+# (?:TODO|SKIP)\b.*)?$/;
const SPEC_FAILED = /^(\s*)✖ (.+?)(?: \([\d.]+m?s\))?$/;
// A parent's error only counts its children, whose own errors are the telling ones.
const PARENT_ONLY = /^\d+ subtests? failed$/;

const unquote = (v: string) =>
  /^'.*'$/.test(v) ? v.slice(1, -1).replace(/''/g, "'") : /^".*"$/.test(v) ? v.slice(1, -1) : v;

const indentOf = (line: string) => /^\s*/.exec(line)![0].length;

/** The `error:` of the YAML block that starts after line `at`, as one line. */
function tapError(lines: string[], at: number, depth: number): string | undefined {
  for (let i = at; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() !== '' && indentOf(line) <= depth) return undefined;
    if (/^\s*\.\.\.\s*$/.test(line)) return undefined;
    const m = /^(\s*)error: ?(.*)$/.exec(line);
    if (!m) continue;
    const value = m[2]!.trim();
    if (!/^[|>][-+]?$/.test(value)) return unquote(value);
    const block: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j]!;
      if (l.trim() !== '' && indentOf(l) <= m[1]!.length) break;
      if (l.trim() !== '') block.push(l.trim());
    }
    return block.join(' ');
  }
  return undefined;
}

/** The error printed under a spec reporter's `✖` line, down to its stack or its properties. */
function specError(lines: string[], at: number, depth: number): string | undefined {
  const parts: string[] = [];
  for (let i = at; i < lines.length; i++) {
    const line = lines[i]!;
    const text = line.trim();
    if (text === '') continue;
    if (indentOf(line) <= depth || /^at /.test(text) || text === '{' || /^\w+: .*,$/.test(text)) break;
    parts.push(text.replace(/ \{$/, ''));
  }
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** The failed tests of Node's runner in `lines`, each once, with its error; [] for other output. */
export function nodeTestFailures(lines: readonly string[]): TestFailure[] {
  const all = [...lines];
  const found: TestFailure[] = [];
  const seen = new Set<string>();
  all.forEach((line, i) => {
    const tap = TAP_NOT_OK.exec(line);
    const spec = tap ? undefined : SPEC_FAILED.exec(line);
    const m = tap ?? spec;
    if (!m) return;
    const error = tap ? tapError(all, i + 1, m[1]!.length) : specError(all, i + 1, m[1]!.length);
    if (error === undefined || PARENT_ONLY.test(error)) return;
    const test = tap ? line.trim() : `✖ ${m[2]}`;
    const key = `${m[2]}\n${error}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ test, error });
  });
  return found;
}

/** A counter or frame line of Node's runner (`# pass 1`, `ℹ tests 3`, `1..3`, `TAP version 13`). */
export function isRunnerCounter(line: string): boolean {
  return /^\s*(?:(?:#|ℹ) (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)\b|1\.\.\d+$|TAP version \d+$)/.test(
    line,
  );
}
