// The summary's markdown for every ending: the full rendering, or — when the renderer fails — a
// plain one with what matters most (outcome, usage, cost, branch, commit, PR), so no ending is
// left without one. Shared by the action's ending and the delivery plan's apply.
import { formatCost, formatTokens } from './format.js';
import { renderSummaryMarkdown, type RunSummaryInput, type SummaryMarkdownOptions } from './summary.js';

/** `warn` is told why the full rendering failed. */
export function markdownSafely(
  input: RunSummaryInput,
  options: SummaryMarkdownOptions = {},
  warn: (message: string) => void = () => undefined,
): string {
  try {
    return renderSummaryMarkdown(input, options);
  } catch (err) {
    warn(`patchloop: the summary could not be rendered (${(err as Error).message}); a short one is given.`);
    return plainSummary(input, options.redact ?? ((t) => t));
  }
}

export function plainSummary(s: RunSummaryInput, redact: (text: string) => string): string {
  const lines = [`**patchloop: ${s.conclusion}**`, ''];
  const row = (label: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') lines.push(`- ${label}: ${value}`);
  };
  row('Model', s.models.join(', '));
  row('Turns', s.turns);
  const u = s.usage;
  row(
    'Tokens',
    `input ${formatTokens(u.inputTokens)} · output ${formatTokens(u.outputTokens)} · cache read ${formatTokens(u.cacheReadTokens)} · cache write ${formatTokens(u.cacheWriteTokens)}`,
  );
  row('Cost', formatCost(u.costUsd) ?? 'unknown');
  row('Branch', s.branch && `\`${s.branch}\`${s.pushed ? '' : ' (not pushed)'}`);
  row('Commit', s.commitSha);
  row('Pull request', s.prUrl);
  row('Error', s.error);
  for (const n of s.notices ?? []) row('Note', n);
  row('Transcript', s.transcriptLocation);
  row('Run', s.runUrl);
  return redact(lines.join('\n')).slice(0, 60_000);
}
