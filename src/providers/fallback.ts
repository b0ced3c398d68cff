import { addUsage, type Usage } from '../protocol/types.js';
import type { AssistantEvent, Context, Provider, StreamOptions } from './types.js';

/**
 * A provider that starts on `primary` and moves to `fallback` for good when a primary turn ends
 * in error after its retries. Not for an abort (the user stopped the run) and not for a
 * context-length error (the loop compacts and asks again). The failed turn is asked again of the
 * fallback with the same context, after a `fallback` event; its deltas start over from there.
 * Each adapter normalizes tool-call ids for itself, so the history moves over as it is. What the
 * primary was billed for the failed turn is added to the fallback's turn (and shown on the event).
 * A malformed call is the model's slip, not the provider's failure: the loop tells the model.
 */
export function createFallbackProvider(primary: Provider, fallback: Provider): Provider {
  let active = primary;
  const label = (p: Provider) => `${p.name}:${p.model}`;

  async function* stream(context: Context, options?: StreamOptions): AsyncGenerator<AssistantEvent> {
    if (active === fallback) {
      yield* fallback.stream(context, options);
      return;
    }
    let failed: string | undefined;
    let billed: Usage | undefined;
    for await (const event of primary.stream(context, options)) {
      if (event.type === 'done') {
        const m = event.message;
        const aborted = m.stopReason === 'aborted' || options?.signal?.aborted === true;
        const modelSlip = m.errorKind === 'context_length' || m.errorKind === 'malformed_call';
        if (m.stopReason === 'error' && !aborted && !modelSlip) {
          failed = m.errorMessage ?? 'the turn ended with an error';
          if (m.usage.inputTokens + m.usage.outputTokens + m.usage.cacheReadTokens > 0) billed = m.usage;
          break;
        }
      }
      yield event;
    }
    if (failed === undefined) return;
    active = fallback;
    yield {
      type: 'fallback',
      from: label(primary),
      to: label(fallback),
      reason: failed,
      ...(billed ? { usage: billed } : {}),
    };
    for await (const event of fallback.stream(context, options)) {
      yield event.type === 'done' && billed
        ? { ...event, message: { ...event.message, usage: addUsage(billed, event.message.usage) } }
        : event;
    }
  }

  return {
    get name() {
      return active.name;
    },
    get model() {
      return active.model;
    },
    get contextWindow() {
      return active.contextWindow;
    },
    get capabilities() {
      return active.capabilities;
    },
    stream,
  };
}
