import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from './types.js';
import { toolCallsOf } from './types.js';

// The pairing rule: every tool call gets exactly one result, placed after its assistant message
// and in the order of the calls. One function, used by the loop, the providers and the reports.

export function errorResult(
  call: Pick<ToolCall, 'id' | 'name'>,
  text: string,
  timestamp = Date.now(),
): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: 'text', text }],
    isError: true,
    timestamp,
  };
}

export function syntheticReason(message: AssistantMessage): string {
  if (message.stopReason === 'aborted') return 'Tool call not run: the run was aborted before the tool ran.';
  if (message.stopReason === 'error')
    return `Tool call not run: the model's turn ended with an error${message.errorMessage ? ` (${message.errorMessage})` : ''}.`;
  return 'Tool call not run: no result was recorded for it.';
}

/** Error results for the calls of a turn that ended `aborted` or `error` (or any unanswered calls). */
export function synthesizeResults(
  message: AssistantMessage,
  reason = syntheticReason(message),
): ToolResultMessage[] {
  return toolCallsOf(message).map((call) => errorResult(call, reason, message.timestamp));
}

/**
 * Returns the messages with the pairing rule enforced: each assistant message's calls are followed
 * by exactly one result each, in call order. Missing results are synthesised as errors, duplicate
 * results and results whose call is unknown are dropped. The input is not modified.
 */
export function pairToolResults(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  let i = 0;
  while (i < messages.length) {
    const m = messages[i]!;
    if (m.role === 'toolResult') {
      // A result with no preceding assistant call in this position: an orphan, dropped.
      i++;
      continue;
    }
    out.push(m);
    i++;
    if (m.role !== 'assistant') continue;
    const calls = toolCallsOf(m);
    if (calls.length === 0) continue;
    // Collect the results that follow this assistant message (up to the next non-result message).
    const following = new Map<string, ToolResultMessage>();
    while (i < messages.length && messages[i]!.role === 'toolResult') {
      const r = messages[i] as ToolResultMessage;
      if (!following.has(r.toolCallId)) following.set(r.toolCallId, r);
      i++;
    }
    const reason = syntheticReason(m);
    const seen = new Set<string>();
    for (const call of calls) {
      if (seen.has(call.id)) continue; // a repeated id is one call
      seen.add(call.id);
      out.push(following.get(call.id) ?? errorResult(call, reason, m.timestamp));
    }
  }
  return out;
}

/** Calls of the last assistant message that have no result after it yet. */
export function unansweredCalls(messages: readonly Message[]): ToolCall[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    const answered = new Set(
      messages.slice(i + 1).flatMap((x) => (x.role === 'toolResult' ? [x.toolCallId] : [])),
    );
    return toolCallsOf(m).filter((c) => !answered.has(c.id));
  }
  return [];
}
