import type { TranscriptWriter } from '../protocol/transcript.js';
import type { AssistantMessage, ErrorKind, ToolCall, ToolResultMessage, Usage } from '../protocol/types.js';

export type BudgetKind = 'turns' | 'cost' | 'time';

/** Why the loop asked the model to go on instead of ending the run. */
export type ContinueReason = 'length' | 'empty' | 'malformed_call';

/** Why older turns were folded into a summary. */
export type CompactionReason = 'threshold' | 'context_length';

/** Progress of a run, for the live timeline and the tracking comment. */
export type AgentEvent =
  | { type: 'turn_start'; turn: number; model: string }
  | { type: 'text_delta'; turn: number; delta: string }
  | { type: 'turn_end'; turn: number; message: AssistantMessage; usage: Usage }
  | { type: 'tool_start'; turn: number; call: ToolCall }
  | { type: 'tool_end'; turn: number; call: ToolCall; result: ToolResultMessage; durationMs: number }
  | {
      type: 'retry';
      turn: number;
      attempt: number;
      delayMs: number;
      status?: number;
      errorKind: ErrorKind;
      message: string;
      /** What the failed attempt was billed (it is part of the turn's usage too). */
      usage?: Usage;
    }
  | { type: 'fallback'; turn: number; from: string; to: string; reason: string; usage?: Usage }
  | {
      type: 'compaction';
      reason: CompactionReason;
      removedMessages: number;
      tokensBefore: number;
      tokensAfter: number;
    }
  /**
   * The model was asked to go on: after a reply cut off at the output limit (`length`), an empty
   * `stop` turn (`empty`), or a tool call the API could not read (`malformed_call`).
   */
  | { type: 'continue'; turn: number; reason: ContinueReason }
  | { type: 'budget'; budget: BudgetKind; limit: number; used: number }
  /** Something a provider SDK said by itself (a deprecation), for the transcript only. */
  | { type: 'notice'; turn: number; source: string; message: string }
  /** A request that came while the run worked joined the session (CONTRACT §13), before `turn`. */
  | { type: 'joined'; turn: number; data: Record<string, unknown> }
  | { type: 'cancel'; reason: string }
  | { type: 'error'; message: string; errorKind?: ErrorKind };

/** The events that are also transcript lines (CONTRACT §7 event kinds), with their data. */
export function transcriptEventOf(
  e: AgentEvent,
): { kind: string; data: Record<string, unknown> } | undefined {
  switch (e.type) {
    case 'retry':
    case 'fallback':
    case 'compaction':
    case 'budget':
    case 'cancel':
    case 'notice':
    case 'error': {
      const { type, ...data } = e;
      return { kind: type, data };
    }
    case 'continue':
      return { kind: 'continue', data: { turn: e.turn, reason: e.reason } };
    case 'joined':
      return { kind: 'joined', data: { ...e.data, turn: e.turn } };
    default:
      return undefined;
  }
}

/** Delivers an event to the listener and, when it is a transcript kind, to the transcript. */
export function createEmitter(
  transcript: TranscriptWriter | undefined,
  listener: ((e: AgentEvent) => void) | undefined,
): (e: AgentEvent) => void {
  return (e) => {
    const line = transcriptEventOf(e);
    if (line && transcript) transcript.event(line.kind, line.data);
    if (!listener) return;
    try {
      listener(e);
    } catch {
      // A broken progress display must not end the run.
    }
  };
}
