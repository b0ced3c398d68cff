import { formatDuration } from '../protocol/format.js';
import { pairToolResults } from '../protocol/pairing.js';
import type { AssistantMessage, Message, Usage } from '../protocol/types.js';
import { addUsage } from '../protocol/types.js';
import { closeFailedTurns, dropEmptyAssistants } from './convert.js';
import { classifyError, streamCutFailure, type AttemptFailure } from './errors.js';
import { capabilitiesOf, type Capabilities } from './capabilities.js';
import { hintFor, type FailureHints } from './hints.js';
import { fitImages, imagesOf, scaleOversized, type ScaledImages } from './images.js';
import { normalizeToolCallIds, type IdPolicy } from './ids.js';
import type { ByteMeter } from './metered-fetch.js';
import { priceUsage } from './pricing.js';
import { retryDelay, retryPolicy, sleep, type RetryPolicy } from './retry.js';
import { TurnBuilder } from './turn-builder.js';
import type { AssistantEvent, Context, Provider, StreamOptions } from './types.js';

/*
 * The harness every adapter runs in. An adapter only says how to make ONE request attempt and how
 * to read its stream; the harness does the rest, the same way for every provider:
 *
 *   1. prepares the history: turns that ended error/aborted lose their calls together with those
 *      calls' results (convert.ts), every remaining call gets exactly one result (pairToolResults),
 *      the adapter's own conversions run (`prepare`: thinking → text, ...), and tool-call ids are
 *      rewritten for the target (ids.ts) from a map made for this request alone;
 *   2. runs `attempt` with a fresh TurnBuilder, forwarding its delta events;
 *   3. on a `failure` (or a throw), retries by the RetryPolicy: a `retry` event, an abortable
 *      wait, and the attempt again from the start (deltas begin again after a `retry` event).
 *      The retry budget counts from the failed attempt's start or the last byte it received,
 *      whichever is later, so neither a long stream that is then cut nor a hang after a long
 *      stream uses up the turn; an attempt that receives no byte (pings and keep-alives count,
 *      see metered-fetch.ts) for the idle timeout is given up and retried;
 *   4. ends with exactly one `done`: the adapter's message priced from the table, or the partial
 *      message with stopReason `error` (errorMessage, errorKind) or `aborted`. Its usage is the
 *      sum of every attempt the provider answered (a cut attempt is billed too); the `retry`
 *      event of a failed attempt carries that attempt's usage.
 *
 * `stream()` never throws. An adapter's `attempt` should not throw either, but if it does the
 * error is classified like any SDK error.
 */

export { classifyError, type AttemptFailure } from './errors.js';
export { TurnBuilder, type BlockKey } from './turn-builder.js';

/** What an attempt yields: deltas built with the TurnBuilder, then `done` or `failure`. */
export type AttemptEvent = AssistantEvent | { type: 'failure'; failure: AttemptFailure };

export interface AttemptOptions {
  /** Collects the turn; build the final message with `builder.finish(...)`. */
  builder: TurnBuilder;
  maxTokens?: number;
  /** 0 for the first attempt, then 1, 2, ... */
  attempt: number;
}

export interface AdapterSpec {
  /** provider name as in the `provider` input */
  name: string;
  model: string;
  contextWindow?: number;
  /** Defaults to the capability table's entry for name and model. */
  capabilities?: Capabilities;
  idPolicy: IdPolicy;
  /** Target-specific conversions of the already paired history (thinking blocks, images, ...). */
  prepare?(messages: Message[]): Message[];
  /** One HTTP attempt: yields deltas and ends in `done` or `failure`. */
  attempt(context: Context, signal: AbortSignal, options: AttemptOptions): AsyncIterable<AttemptEvent>;
  /** Whether the price table applies (false for OpenAI-compatible servers: unknown price). */
  priced?: boolean;
  /**
   * The model id to price by, when `model` names something else (an Azure deployment): called
   * after each attempt; undefined keeps `model`.
   */
  pricedAs?(): string | undefined;
  /** Strings that must never appear in an error message (the API key). */
  secrets?: string[];
  /** The meter on the SDK's fetch: idle time is measured on the bytes it sees. */
  meter?: ByteMeter;
  /** What a user should check when the turn fails for good (flags, variables, defaults). */
  hints?: FailureHints;
  now?: () => number;
}

/**
 * The history as the target will receive it (steps 1 of the harness), with images the target
 * would refuse (over its limits, or refused before: `refusedImages`) replaced by a note. Does not
 * modify `messages`.
 */
export function prepareMessages(
  messages: readonly Message[],
  spec: Pick<AdapterSpec, 'idPolicy' | 'prepare'> & Partial<Pick<AdapterSpec, 'name' | 'capabilities'>>,
  refusedImages: ReadonlySet<string> = new Set(),
  scaledImages?: ScaledImages,
): Message[] {
  let out = pairToolResults(closeFailedTurns(messages));
  out = fitImages(out, spec.capabilities?.images, spec.name ?? 'the provider', refusedImages, scaledImages);
  if (spec.prepare) out = spec.prepare(out);
  out = dropEmptyAssistants(out);
  return normalizeToolCallIds(out, spec.idPolicy);
}

const NEVER = new AbortController().signal;

/** A signal that aborts with `parent`; `release()` detaches it from the parent and aborts it. */
function linkedSignal(parent: AbortSignal): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    release() {
      parent.removeEventListener('abort', onAbort);
      controller.abort();
    },
  };
}

export function createAdapterProvider(spec: AdapterSpec, retry?: Partial<RetryPolicy>): Provider {
  const policy = retryPolicy(retry);
  const now = spec.now ?? Date.now;
  const capabilities = spec.capabilities ?? capabilitiesOf(spec.name, spec.model);
  const target = { ...spec, capabilities };
  const contextWindow = spec.contextWindow ?? capabilities.contextWindow;
  // Images the API refused although the table let them through: left out of every later request.
  const refusedImages = new Set<string>();
  // Oversized images scaled down once, reused by every later request.
  const scaledImages: ScaledImages = new Map();
  const redact = (text: string) => redactSecrets(text, spec.secrets ?? []);
  const price = (m: AssistantMessage): AssistantMessage =>
    spec.priced === false
      ? { ...m, usage: withoutCost(m.usage) }
      : { ...m, usage: priceUsage(spec.pricedAs?.() ?? spec.model, m.usage) };

  async function* stream(context: Context, options?: StreamOptions): AsyncGenerator<AssistantEvent> {
    const signal = options?.signal ?? NEVER;
    yield { type: 'start', provider: spec.name, model: spec.model };
    let prepared: Context;
    try {
      await scaleOversized(context.messages, capabilities.images, spec.name, scaledImages);
      prepared = {
        ...context,
        messages: prepareMessages(context.messages, target, refusedImages, scaledImages),
      };
    } catch (err) {
      const builder = new TurnBuilder(spec.name, spec.model, now);
      const message = `Could not prepare the request: ${redact(err instanceof Error ? err.message : String(err))}`;
      yield { type: 'done', message: builder.finish('error', { message, kind: 'other' }) };
      return;
    }
    // Usage the provider reported for attempts that failed: billed, so part of the turn's usage.
    let billed: Usage | undefined;
    const total = (m: AssistantMessage): AssistantMessage => {
      const priced = price(m);
      return billed ? { ...priced, usage: addUsage(billed, priced.usage) } : priced;
    };
    for (let attempt = 0; ; attempt++) {
      const builder = new TurnBuilder(spec.name, spec.model, now);
      let outcome: AttemptEvent | undefined;
      const activity: Activity = {
        count: 0,
        last: now(),
        // Bytes: counted and timed (a chunk carries many events, so the clock is read rarely).
        bytes: () => {
          activity.count++;
          activity.last = now();
        },
      };
      const attemptStarted = activity.last;
      // A signal per attempt: SDKs leave listeners on the signal they are given, and the caller's
      // signal lives for the whole run. Aborting it afterwards also releases a connection the
      // attempt left open (after an error event, say).
      const attemptSignal = linkedSignal(signal);
      spec.meter?.expect(activity.bytes);
      try {
        const events = spec.attempt(prepared, attemptSignal.signal, {
          builder,
          maxTokens: options?.maxTokens,
          attempt,
        });
        for await (const event of untilAborted(events, signal, policy.idleTimeoutMs, activity)) {
          if (event.type === 'done' || event.type === 'failure') {
            outcome = event;
            break;
          }
          if (event.type !== 'start') yield event;
        }
      } catch (err) {
        outcome = {
          type: 'failure',
          failure:
            err instanceof IdleTimeout
              ? { kind: 'network', retryable: true, message: err.message }
              : classifyError(err),
        };
      } finally {
        spec.meter?.forget(activity.bytes);
        attemptSignal.release();
      }
      if (outcome?.type === 'done') {
        yield { type: 'done', message: total(outcome.message) };
        return;
      }
      if (signal.aborted) {
        yield {
          type: 'done',
          message: total(builder.finish('aborted', { message: 'Aborted.', kind: 'other' })),
        };
        return;
      }
      const failure = outcome?.type === 'failure' ? outcome.failure : streamCutFailure();
      const refused = failure.imageRefused ? imagesOf(prepared.messages) : [];
      if (refused.length > 0) {
        // Sent again at once without the images: a request refused for an image would be refused
        // again, and so would every later one that carries it.
        for (const image of refused) refusedImages.add(image.data);
        prepared = {
          ...context,
          messages: prepareMessages(context.messages, target, refusedImages, scaledImages),
        };
        yield {
          type: 'retry',
          attempt: attempt + 1,
          delayMs: 0,
          ...(failure.status !== undefined ? { status: failure.status } : {}),
          errorKind: failure.kind,
          message: `${redact(failure.message)} (sending the request again without its ${refused.length} image(s))`,
        };
        continue;
      }
      const since = Math.max(attemptStarted, activity.last);
      const delayMs = retryDelay(policy, attempt + 1, failure, now() - since);
      const message = redact(failure.message);
      if (delayMs === undefined) {
        const hint = spec.hints ? hintFor(failure, spec.hints) : undefined;
        const final = builder.finish('error', {
          message: hint ? `${message} ${hint}` : message,
          kind: failure.kind,
        });
        yield { type: 'done', message: total(final) };
        return;
      }
      const attemptUsage = price(builder.finish('error')).usage;
      const answered = hasTokens(attemptUsage);
      if (answered) billed = billed ? addUsage(billed, attemptUsage) : attemptUsage;
      yield {
        type: 'retry',
        attempt: attempt + 1,
        delayMs,
        ...(failure.status !== undefined ? { status: failure.status } : {}),
        errorKind: failure.kind,
        message,
        ...(answered ? { usage: attemptUsage } : {}),
      };
      if (!(await sleep(delayMs, signal))) {
        const empty = new TurnBuilder(spec.name, spec.model, now);
        yield {
          type: 'done',
          message: total(empty.finish('aborted', { message: 'Aborted.', kind: 'other' })),
        };
        return;
      }
    }
  }

  return {
    name: spec.name,
    model: spec.model,
    capabilities,
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    stream,
  };
}

function hasTokens(u: Usage): boolean {
  return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens > 0;
}

function withoutCost(usage: AssistantMessage['usage']): AssistantMessage['usage'] {
  const { costUsd: _drop, ...rest } = usage;
  return rest;
}

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 8) out = out.split(s).join('[redacted]');
  return out;
}

/**
 * Iterates `events` but stops waiting as soon as `signal` aborts, even if the underlying stream
 * is stuck in a read; the abandoned iterator is closed in the background. When neither an event
 * nor a byte (`activity`, counted by the adapter's ByteMeter) arrives for `idleMs`, it throws a
 * retryable network failure (a hung connection).
 */
async function* untilAborted<T>(
  events: AsyncIterable<T>,
  signal: AbortSignal,
  idleMs: number,
  activity: Activity,
): AsyncGenerator<T> {
  const it = events[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The harness's clock may be a test's; idle time is real time since the last touch seen.
  let seen = activity.count;
  let lastEvent = Date.now();
  const idleLeft = () => {
    if (activity.count !== seen) {
      seen = activity.count;
      lastEvent = Date.now();
    }
    return lastEvent + idleMs - Date.now();
  };
  // One promise settles the wait on abort or on silence; a stream of many small events must not
  // cost a timer each, so one timer re-arms itself for whatever is left of the idle time.
  const stopped = new Promise<'aborted' | 'idle'>((resolve) => {
    onAbort = () => resolve('aborted');
    if (signal.aborted) resolve('aborted');
    else signal.addEventListener('abort', onAbort, { once: true });
    if (idleMs > 0) {
      const check = () => {
        const left = idleLeft();
        if (left <= 0) resolve('idle');
        else timer = setTimeout(check, left);
      };
      timer = setTimeout(check, idleMs);
    }
  });
  let finished = false;
  try {
    for (;;) {
      const next = it.next();
      next.catch(() => undefined);
      const r = await Promise.race([next, stopped]);
      if (r === 'aborted') return;
      if (r === 'idle') throw new IdleTimeout(idleMs);
      activity.count++;
      if (r.done) {
        finished = true;
        return;
      }
      yield r.value;
    }
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
    if (!finished) it.return?.().catch(() => undefined);
  }
}

/** Activity of one attempt: events and byte chunks seen, and the harness clock at the last chunk. */
interface Activity {
  count: number;
  last: number;
  bytes(): void;
}

class IdleTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no data from the provider for ${formatDuration(ms)}; the connection was given up`);
  }
}
