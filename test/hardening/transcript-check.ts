import { parseTranscript } from '../../src/protocol/transcript.js';
import { toolCallsOf } from '../../src/protocol/types.js';

/**
 * What is wrong with a transcript, by CONTRACT §7: a session line first, a summary line last, no
 * torn or invalid line, and every tool call followed by exactly one result with its id.
 */
export function transcriptProblems(text: string): string[] {
  const problems: string[] = [];
  const t = parseTranscript(text);
  if (t.lines[0]?.type !== 'session') problems.push('the first line is not the session line');
  if (t.lines.at(-1)?.type !== 'summary') problems.push('the last line is not the summary line');
  if (t.torn) problems.push('the last line is torn');
  if (t.invalid.length > 0) problems.push(`${t.invalid.length} line(s) are not JSON`);
  const answered = new Map<string, number>();
  const called: string[] = [];
  for (const m of t.messages) {
    if (m.role === 'assistant') for (const c of toolCallsOf(m)) called.push(c.id);
    if (m.role === 'toolResult') {
      if (!called.includes(m.toolCallId))
        problems.push(`result ${m.toolCallId} comes before or without its call`);
      answered.set(m.toolCallId, (answered.get(m.toolCallId) ?? 0) + 1);
    }
  }
  for (const id of called) {
    const n = answered.get(id) ?? 0;
    if (n !== 1) problems.push(`tool call ${id} has ${n} results`);
  }
  return problems;
}
