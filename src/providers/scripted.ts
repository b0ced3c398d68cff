import { parseTranscript } from '../protocol/transcript.js';
import type { AssistantContent, AssistantMessage, ErrorKind, StopReason } from '../protocol/types.js';
import { STOP_REASONS, emptyUsage } from '../protocol/types.js';
import { TurnBuilder } from './turn-builder.js';
import type { AssistantEvent, Context, Provider, StreamOptions } from './types.js';

/**
 * A provider that plays recorded assistant messages, one per request, streaming them as a real
 * provider would (text in pieces, tool-call arguments in pieces). For tests, `run --replay` and
 * the demo: no network, no cost. When the script runs out the turn ends in an error saying so.
 */
export interface ScriptedProvider extends Provider {
  /** What to tell people about this session (it is not a real model). */
  readonly label: string;
  /** The contexts it was asked with, in order. */
  readonly requests: Context[];
}

export interface ScriptedOptions {
  label?: string;
  model?: string;
  /** Characters per streamed piece. */
  pieceLength?: number;
  now?: () => number;
}

function* pieces(text: string, size: number): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

export function createScriptedProvider(
  messages: readonly AssistantMessage[],
  options: ScriptedOptions = {},
): ScriptedProvider {
  const model = options.model ?? 'scripted';
  const size = Math.max(1, options.pieceLength ?? 24);
  const now = options.now ?? Date.now;
  const requests: Context[] = [];
  let next = 0;

  async function* stream(context: Context, opts?: StreamOptions): AsyncGenerator<AssistantEvent> {
    requests.push(context);
    const signal = opts?.signal;
    const builder = new TurnBuilder('scripted', model, now);
    yield { type: 'start', provider: 'scripted', model };
    const recorded = messages[next];
    if (!recorded) {
      const message = `The scripted session has no more turns (it had ${messages.length}).`;
      yield { type: 'done', message: builder.finish('error', { message, kind: 'other' }) };
      return;
    }
    next++;
    const aborted = () => builder.finish('aborted', { message: 'Aborted.', kind: 'other' });
    for (const [i, block] of recorded.content.entries()) {
      if (signal?.aborted) {
        yield { type: 'done', message: aborted() };
        return;
      }
      // A tick per block, so a consumer can interleave work (and abort) as with a real stream.
      await Promise.resolve();
      if (block.type === 'text') {
        for (const p of pieces(block.text, size)) {
          const e = builder.text(i, p);
          if (e) yield e;
        }
      } else if (block.type === 'thinking') {
        if (block.redacted) builder.redactedThinking(i, block.thinking);
        else
          for (const p of pieces(block.thinking, size)) {
            const e = builder.thinking(i, p);
            if (e) yield e;
          }
        if (block.signature) builder.thinkingSignature(i, block.signature);
      } else {
        const start = builder.toolCallStart(i, block.id, block.name);
        if (start) yield start;
        const args = typeof block.input === 'string' ? block.input : JSON.stringify(block.input);
        for (const p of pieces(args, size)) {
          const e = builder.toolCallDelta(i, p);
          if (e) yield e;
        }
        const end = builder.toolCallEnd(i);
        if (end) yield end;
      }
    }
    if (signal?.aborted) {
      yield { type: 'done', message: aborted() };
      return;
    }
    const final = builder.finish(
      recorded.stopReason,
      recorded.errorMessage
        ? { message: recorded.errorMessage, kind: recorded.errorKind ?? 'other' }
        : undefined,
    );
    // The recorded stop reason is replayed as it was, even where the builder would correct it.
    yield { type: 'done', message: { ...final, stopReason: recorded.stopReason, usage: emptyUsage() } };
  }

  return {
    name: 'scripted',
    model,
    label: options.label ?? 'Scripted model session: recorded turns are played back; no model is called.',
    requests,
    stream,
  };
}

const ERROR_KINDS: readonly ErrorKind[] = [
  'context_length',
  'rate_limit',
  'overloaded',
  'server',
  'network',
  'auth',
  'bad_request',
  'refusal',
  'other',
];

function contentOf(value: unknown): AssistantContent[] {
  if (!Array.isArray(value)) return [];
  const out: AssistantContent[] = [];
  for (const raw of value as Record<string, unknown>[]) {
    if (!raw || typeof raw !== 'object') continue;
    if (raw.type === 'text' && typeof raw.text === 'string') out.push({ type: 'text', text: raw.text });
    else if (raw.type === 'thinking' && typeof raw.thinking === 'string') {
      out.push({
        type: 'thinking',
        thinking: raw.thinking,
        ...(typeof raw.signature === 'string' ? { signature: raw.signature } : {}),
        ...(raw.redacted === true ? { redacted: true } : {}),
      });
    } else if (raw.type === 'toolCall' && typeof raw.id === 'string' && typeof raw.name === 'string') {
      const input = raw.input;
      out.push({
        type: 'toolCall',
        id: raw.id,
        name: raw.name,
        input:
          typeof input === 'string' || (input && typeof input === 'object' && !Array.isArray(input))
            ? (input as Record<string, unknown> | string)
            : {},
      });
    }
  }
  return out;
}

/** The assistant messages of a transcript, in order, with unknown block shapes left out. */
export function scriptFromTranscript(text: string): AssistantMessage[] {
  const out: AssistantMessage[] = [];
  for (const m of parseTranscript(text).messages) {
    if (m.role !== 'assistant') continue;
    const raw = m as unknown as Record<string, unknown>;
    const stopReason = (STOP_REASONS as readonly string[]).includes(raw.stopReason as string)
      ? (raw.stopReason as StopReason)
      : 'stop';
    out.push({
      role: 'assistant',
      content: contentOf(raw.content),
      provider: typeof raw.provider === 'string' ? raw.provider : 'unknown',
      model: typeof raw.model === 'string' ? raw.model : 'unknown',
      usage: emptyUsage(),
      stopReason,
      ...(typeof raw.errorMessage === 'string' ? { errorMessage: raw.errorMessage } : {}),
      ...(ERROR_KINDS.includes(raw.errorKind as ErrorKind) ? { errorKind: raw.errorKind as ErrorKind } : {}),
      timestamp: typeof raw.timestamp === 'number' ? raw.timestamp : 0,
    });
  }
  return out;
}
