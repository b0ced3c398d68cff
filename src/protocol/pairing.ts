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
 * by exactly one result each, in call order. Missing results are synthesised as errors, surplus
 * results and results whose call is unknown are dropped. Where a turn repeats an id (some
 * OpenAI-compatible servers do), its calls and results are paired by position: the n-th call with
 * that id gets the n-th result with it. The input is not modified.
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
    const following = new Map<string, ToolResultMessage[]>();
    while (i < messages.length && messages[i]!.role === 'toolResult') {
      const r = messages[i] as ToolResultMessage;
      const queue = following.get(r.toolCallId);
      if (queue) queue.push(r);
      else following.set(r.toolCallId, [r]);
      i++;
    }
    const reason = syntheticReason(m);
    for (const call of calls) {
      out.push(following.get(call.id)?.shift() ?? errorResult(call, reason, m.timestamp));
    }
  }
  return out;
}

/** Calls of the last assistant message that have no result after it yet (counted by position). */
export function unansweredCalls(messages: readonly Message[]): ToolCall[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    const answered = new Map<string, number>();
    for (const x of messages.slice(i + 1)) {
      if (x.role === 'toolResult') answered.set(x.toolCallId, (answered.get(x.toolCallId) ?? 0) + 1);
    }
    return toolCallsOf(m).filter((c) => {
      const left = answered.get(c.id) ?? 0;
      if (left === 0) return true;
      answered.set(c.id, left - 1);
      return false;
    });
  }
  return [];
}
