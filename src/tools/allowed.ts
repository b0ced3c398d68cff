// The `allowed-tools` input (CONTRACT §2): tool names and `*` patterns, built-in and MCP tools
// alike. Empty allows every tool the other inputs offer.

/** A matcher of tool names; `*` stands for any run of characters, everything else for itself. */
export function allowedToolsMatcher(patterns: readonly string[]): (name: string) => boolean {
  const list = patterns.map((p) => p.trim()).filter(Boolean);
  if (list.length === 0) return () => true;
  const res = list.map(
    (p) =>
      new RegExp(
        `^${p
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ),
  );
  return (name) => res.some((re) => re.test(name));
}

/**
 * The tools allowed, and the names of those left out (for the log). `always` names tools that are
 * how the run gives its result (submit_answer, add_review_comment): never filtered out.
 */
export function filterAllowedTools<T extends { name: string }>(
  tools: readonly T[],
  patterns: readonly string[],
  always: readonly string[] = [],
): { tools: T[]; leftOut: string[] } {
  const matcher = allowedToolsMatcher(patterns);
  const allowed = (name: string) => always.includes(name) || matcher(name);
  const kept = tools.filter((t) => allowed(t.name));
  return { tools: kept, leftOut: tools.filter((t) => !allowed(t.name)).map((t) => t.name) };
}
