import type { AssistantContent, AssistantMessage, Message, ToolCall } from '../protocol/types.js';

// Conversions of protocol history that several adapters share. Each returns new arrays and
// objects where something changes and never mutates its input.

/**
 * Turns that ended `error` or `aborted` are sent without their tool calls, and the results of
 * those calls are left out with them (never half a pair): the calls never ran, their argument
 * text may be cut short, and no provider accepts a call without a result. Their text is kept;
 * a turn left with nothing is dropped.
 */
export function closeFailedTurns(messages: readonly Message[]): Message[] {
  // The calls of the latest assistant message that were dropped: results follow their turn, and
  // a later turn may reuse an id (some OpenAI-compatible servers number calls from 0 each turn).
  let dropped = new Set<string>();
  const out: Message[] = [];
  for (const m of messages) {
    if (m.role === 'assistant') dropped = new Set();
    if (m.role === 'assistant' && (m.stopReason === 'error' || m.stopReason === 'aborted')) {
      const kept = m.content.filter((c) => {
        if (c.type === 'toolCall') {
          dropped.add(c.id);
          return false;
        }
        // A reasoning block cut off before its signature arrived cannot be verified by the provider.
        if (c.type === 'thinking') return false;
        return c.type !== 'text' || c.text.trim() !== '';
      });
      if (kept.length > 0) out.push({ ...m, content: kept });
      continue;
    }
    if (m.role === 'toolResult' && dropped.has(m.toolCallId)) continue;
    out.push(m);
  }
  return out;
}

/**
 * Reasoning written for another provider (or model) is sent as plain text, since only its author
 * can verify a signature; redacted reasoning is opaque and is dropped. `keep` says which assistant
 * messages the target may receive with their thinking blocks unchanged.
 */
export function foreignThinkingAsText(
  messages: readonly Message[],
  keep: (message: AssistantMessage) => boolean,
): Message[] {
  return messages.map((m) => {
    if (m.role !== 'assistant' || keep(m) || !m.content.some((c) => c.type === 'thinking')) return m;
    const content: AssistantContent[] = [];
    for (const c of m.content) {
      if (c.type !== 'thinking') content.push(c);
      else if (!c.redacted && c.thinking.trim()) content.push({ type: 'text', text: c.thinking });
    }
    return { ...m, content };
  });
}

/** Removes assistant messages left with no content (every provider rejects an empty assistant turn). */
export function dropEmptyAssistants(messages: readonly Message[]): Message[] {
  return messages.filter((m) => m.role !== 'assistant' || m.content.length > 0);
}

/** Arguments as sent back to a provider: the parsed object, or `{}` for text that never parsed. */
export function wireInput(call: ToolCall): Record<string, unknown> {
  return typeof call.input === 'string' ? {} : call.input;
}
