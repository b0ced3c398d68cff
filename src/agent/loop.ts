import { ToolRegistry } from '../protocol/execute.js';
import { errorResult, pairToolResults, syntheticReason, unansweredCalls } from '../protocol/pairing.js';
import type { AnyAgentTool, ToolDefinition } from '../protocol/tool.js';
import type { RecordedLine, TranscriptWriter } from '../protocol/transcript.js';
import type {
  AssistantMessage,
  ErrorKind,
  Message,
  ToolResultMessage,
  Usage,
  UserMessage,
} from '../protocol/types.js';
import { addUsage, emptyUsage, textOf, toolCallsOf } from '../protocol/types.js';
import type { Provider } from '../providers/types.js';
import { exhaustedBudget, timeStop, type BudgetStop } from './budget.js';
import { compactMessages, contextTokens, estimateTokens, reportedTokens } from './compaction.js';
import { createEmitter, type AgentEvent, type BudgetKind, type CompactionReason } from './events.js';
import type { TestsAtEnd } from './tests-at-end.js';
import { runToolCalls } from './tool-calls.js';

export interface AgentOptions {
  provider: Provider;
  tools: AnyAgentTool[];
  systemPrompt: string;
  /** The task; a string becomes the first user message (after `earlier`'s messages). */
  task: string | UserMessage;
  /**
   * An earlier session this one continues (CONTRACT §7): its messages are written to the
   * transcript as recorded, then a `continue` event with `event`'s fields, then the task. The
   * model sees them first (failed turns left out, every call paired), compacted when they do not fit.
   */
  earlier?: {
    messages: readonly Message[];
    /** each message's line in the transcript it was read from: copied, not encoded again */
    rows?: readonly RecordedLine[];
    event?: Record<string, unknown>;
  };
  /** Assistant turns; after the last one no further model request is made. */
  maxTurns: number;
  /** Stop before the estimated cost would pass this (only when the model's price is known). */
  maxCostUsd?: number;
  /** Wall-clock budget of the whole run. */
  timeoutMs?: number;
  /** Aborting it cancels the run: the model stream and the running tool stop. */
  signal?: AbortSignal;
  transcript?: TranscriptWriter;
  onEvent?: (e: AgentEvent) => void;
  /** Context window in tokens; defaults to the provider's. Without one, no early compaction. */
  contextWindow?: number;
  /** Output token limit per request (provider default when absent). */
  maxTokens?: number;
  /** Clock in milliseconds (tests and benchmarks). */
  now?: () => number;
  /**
   * The workspace's set-up (patchloop's private git dir, the command sandbox and its self-check)
   * when it goes on beside the first model request: no tool call runs before it resolves, and
   * when it rejects the run ends as a failure, each waiting call answered with the reason.
   */
  toolsReady?: Promise<void>;
  /**
   * Requests that arrived while the run works (the action's joining, CONTRACT §13): asked before
   * each turn, and once more (`final`) before a reply without tool calls would end the run, which
   * then goes on. Each becomes a user message, recorded after a `joined` event with its `event`.
   * A failure counts as none. The CLI passes none.
   */
  pendingMessages?: (o: { final: boolean }) => Promise<readonly PendingMessage[]>;
}

/** A message that joined the running session, and what the transcript records of where it came from. */
export interface PendingMessage {
  message: UserMessage;
  event: Record<string, unknown>;
}

export type AgentConclusion = 'success' | 'failure' | 'cancelled' | 'budget-exceeded';

export interface AgentResult {
  conclusion: AgentConclusion;
  /** The whole conversation (not compacted), every call paired with one result. */
  messages: Message[];
  usage: Usage;
  turns: number;
  /** Model ids that answered, in order of first use. */
  models: string[];
  /** The text of the last assistant message that had any. */
  finalText: string;
  error?: string;
  budget?: BudgetKind;
  /** The model request that ended the run, when one did (a failure after the retries). */
  failedRequest?: FailedRequest;
  /** How the last test run ended, when the run ran the tests (set by the caller: src/run). */
  tests?: TestsAtEnd;
  durationMs: number;
}

/** A model request that failed for good: who answered, how, and the HTTP status when there was one. */
export interface FailedRequest {
  provider: string;
  model: string;
  kind: ErrorKind;
  status?: number;
  /** nothing answered at the address (connection refused, unknown host): a set-up fault, no outage */
  unreachable?: boolean;
}

/** Compact before a request once the context passes this share of the window... */
const COMPACT_AT = 0.75;
/** ...keeping this share of it as recent turns. */
const KEEP_SHARE = 0.3;
/** Replies cut off by the output limit in a row before the run gives up. */
const MAX_LENGTH_STOPS = 3;
/** Empty `stop` turns in a row: the first gets a nudge, the second ends the run. */
const MAX_EMPTY_STOPS = 2;
/** Unreadable tool calls in a row (Gemini MALFORMED_FUNCTION_CALL) before the run gives up. */
const MAX_MALFORMED_CALLS = 3;

const CONTINUE_AFTER_LENGTH =
  'Your last reply was cut off at the output token limit. Continue from where you stopped. ' +
  'Keep replies short and split large changes into several smaller edit_file calls.';

const NUDGE_AFTER_EMPTY = 'You stopped without saying anything; finish the task or say why not.';

const feedbackAfterMalformed = (detail: string): string =>
  `Your last tool call could not be read, so it did not run (${detail}). ` +
  'Call the tool again with arguments that are one JSON object matching its parameters, ' +
  'and make one call at a time if several failed.';

/**
 * Runs the agent loop: ask the model, run the tool calls it makes, append the results, repeat,
 * until it stops, fails, is cancelled or runs out of budget. Never throws.
 */
export async function runAgent(options: AgentOptions): Promise<AgentResult> {
  return new AgentRun(options).run();
}

type Ending = {
  conclusion: AgentConclusion;
  error?: string;
  budget?: BudgetKind;
  failedRequest?: FailedRequest;
};

/** What a stop-reason handler decides: end the run, or (undefined) ask the model again. */
type Next = Ending | undefined;

/**
 * The counters that decide when the loop gives up on a kind of turn. Each counts turns of its
 * kind in a row; `progress()` resets them all after a turn that moved the work on (a reply with
 * text or tool calls), so a long session can hit each of them again and again.
 */
class Streaks {
  lengthStops = 0;
  emptyStops = 0;
  malformedCalls = 0;
  /** A compaction was made for a context-length error and no turn has succeeded since. */
  compactedForError = false;

  progress(): void {
    this.lengthStops = 0;
    this.emptyStops = 0;
    this.malformedCalls = 0;
    this.compactedForError = false;
  }
}

class AgentRun {
  private readonly now: () => number;
  private readonly started: number;
  private readonly emit: (e: AgentEvent) => void;
  private readonly stop = new AbortController();
  private stopCause: 'cancel' | 'time' | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  // The run's state, all of it: the record, what the model sees, the counters, the totals.
  private readonly history: Message[] = [];
  /** What the model sees: the history, possibly compacted. */
  private context: Message[] = [];
  private task: UserMessage | undefined;
  private notes: string[] = [];
  /** True from a compaction until the next reply (see contextSize). */
  private compacted = false;
  private readonly streaks = new Streaks();
  private usage: Usage = emptyUsage();
  private turns = 0;
  private readonly models: string[] = [];
  private lastTurnCost: number | undefined;
  /**
   * Per reply, the tokens its last attempt reported: its usage also counts the failed attempts
   * of its turn (they were billed), which are no measure of the context.
   */
  private readonly attemptTokens = new WeakMap<AssistantMessage, number>();
  private registry!: ToolRegistry;
  private definitions: ToolDefinition[] = [];
  private baseTokens = 0;
  /** What `toolsReady` came to, once it settled. */
  private readiness: { settled: boolean; failure?: string } | undefined;

  constructor(private readonly o: AgentOptions) {
    this.now = o.now ?? Date.now;
    this.started = this.now();
    this.emit = createEmitter(o.transcript, o.onEvent);
  }

  async run(): Promise<AgentResult> {
    const onAbort = (): void => this.halt('cancel');
    try {
      if (this.o.signal?.aborted) this.halt('cancel');
      else this.o.signal?.addEventListener('abort', onAbort, { once: true });
      if (this.o.timeoutMs !== undefined)
        this.timer = setTimeout(() => this.halt('time'), Math.max(0, this.o.timeoutMs));
      return this.finish(await this.loop());
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.emit({ type: 'error', message });
      return this.finish({ conclusion: 'failure', error: `The agent loop failed: ${message}` });
    } finally {
      clearTimeout(this.timer);
      this.o.signal?.removeEventListener('abort', onAbort);
    }
  }

  private halt(cause: 'cancel' | 'time'): void {
    if (this.stop.signal.aborted) return;
    this.stopCause = cause;
    this.stop.abort(new Error(cause === 'time' ? 'the time budget ran out' : 'the run was cancelled'));
  }

  private start(): void {
    this.registry = new ToolRegistry(this.o.tools);
    this.definitions = this.registry.tools.map(({ name, description, parameters }) => ({
      name,
      description,
      parameters,
    }));
    const task: UserMessage =
      typeof this.o.task === 'string'
        ? { role: 'user', content: this.o.task, timestamp: this.now() }
        : this.o.task;
    this.task = task;
    if (this.o.earlier) this.startFrom(this.o.earlier, task);
    this.append(task);
    this.baseTokens = estimateTokens([
      { role: 'user', content: this.o.systemPrompt + JSON.stringify(this.definitions), timestamp: 0 },
    ]);
  }

  /**
   * The earlier session's messages: recorded as they were (plus a result for any call it left
   * open, so the file keeps the pairing rule), then the `continue` event; the model sees its
   * successful turns. Compaction then keeps the earlier task with the new request beside it, so
   * the request is never folded into a note: all of its blocks, its images (a screenshot in a
   * follow-up comment) in their place among its text.
   */
  private startFrom(earlier: NonNullable<AgentOptions['earlier']>, task: UserMessage): void {
    const recorded = [...earlier.messages];
    for (const call of unansweredCalls(earlier.messages)) {
      recorded.push(
        errorResult(call, 'Tool call not run: the earlier session ended before the tool ran.', this.now()),
      );
    }
    this.o.transcript?.messages(recorded, earlier.rows);
    this.o.transcript?.event('continue', { ...earlier.event, earlierMessages: earlier.messages.length });
    const failed = new Set<string>();
    const kept: Message[] = [];
    for (const m of recorded) {
      if (m.role === 'assistant' && (m.stopReason === 'error' || m.stopReason === 'aborted')) {
        for (const call of toolCallsOf(m)) failed.add(call.id);
        continue;
      }
      if (m.role === 'toolResult' && failed.has(m.toolCallId)) continue;
      kept.push(m);
    }
    this.context = pairToolResults(kept);
    const first = this.context[0];
    if (first?.role === 'user') {
      const blocks = (content: UserMessage['content']) =>
        typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content;
      const request = blocks(task.content);
      // The request's leading text goes in the heading's block, the rest follows as it was.
      const lead = request[0]?.type === 'text' ? request[0] : undefined;
      this.task = {
        ...first,
        content: [
          ...blocks(first.content),
          { type: 'text', text: `\n\n[The request this session continues with]\n${lead?.text ?? ''}` },
          ...request.slice(lead ? 1 : 0),
        ],
      };
    }
  }

  /** The window of the model that answers next: read every turn, since a fallback changes it. */
  private window(): number | undefined {
    return this.o.contextWindow ?? this.o.provider.contextWindow;
  }

  private async loop(): Promise<Ending> {
    this.start();
    for (;;) {
      if (this.stop.signal.aborted) return this.stopped();
      const over = exhaustedBudget(
        { maxTurns: this.o.maxTurns, maxCostUsd: this.o.maxCostUsd, timeoutMs: this.o.timeoutMs },
        {
          turns: this.turns,
          usage: this.usage,
          lastTurnCostUsd: this.lastTurnCost,
          elapsedMs: this.now() - this.started,
        },
      );
      if (over) return this.budgetEnding(over);
      await this.takePending(false);
      const window = this.window();
      if (window && this.contextSize() > window * COMPACT_AT) this.compact('threshold', window * KEEP_SHARE);

      const turn = ++this.turns;
      this.emit({ type: 'turn_start', turn, model: this.o.provider.model });
      const message = await this.ask(turn);
      this.account(turn, message);
      const next = await this.handle(turn, message);
      if (next) return next;
    }
  }

  /** One handler per stop reason. */
  private handle(turn: number, message: AssistantMessage): Promise<Next> | Next {
    switch (message.stopReason) {
      case 'aborted':
        this.closeCalls(message);
        return this.stopped(message.errorMessage);
      case 'error':
        return this.onError(turn, message);
      case 'length':
        return this.onLength(turn, message);
      case 'toolUse':
      case 'stop':
        return this.onReply(turn, message);
      default: {
        const unknown: never = message.stopReason;
        return { conclusion: 'failure', error: `Unknown stop reason ${String(unknown)}` };
      }
    }
  }

  /** A failed turn (after the provider's retries and fallback): compact, tell the model, or end. */
  private onError(turn: number, message: AssistantMessage): Next {
    this.closeCalls(message);
    const reason = message.errorMessage ?? 'the model request failed';
    const kind = message.errorKind;
    // A turn that ended with the context full (an API error, or Anthropic's
    // model_context_window_exceeded stop, whose partial calls were closed above) is compacted and
    // asked again, never told to continue. The only compaction path where the window is unknown
    // (OpenAI-compatible servers).
    if (kind === 'context_length' && !this.streaks.compactedForError) {
      this.streaks.compactedForError = true;
      const window = this.window();
      const target = window ? window * KEEP_SHARE : this.contextSize() / 2;
      if (this.compact('context_length', target)) return undefined;
    }
    if (kind === 'malformed_call' && ++this.streaks.malformedCalls < MAX_MALFORMED_CALLS) {
      // The model's slip, like invalid arguments: it is told and tries again. Its text stays.
      this.context.push(message);
      this.emit({ type: 'continue', turn, reason: 'malformed_call' });
      this.append({ role: 'user', content: feedbackAfterMalformed(reason), timestamp: this.now() });
      return undefined;
    }
    this.emit({ type: 'error', message: reason, ...(kind ? { errorKind: kind } : {}) });
    return {
      conclusion: 'failure',
      error: reason,
      ...(kind ? { failedRequest: failedRequest(message, kind) } : {}),
    };
  }

  /** A reply cut at the output limit: its calls run (a cut one gets an error), then "continue". */
  private async onLength(turn: number, message: AssistantMessage): Promise<Next> {
    const stopped = await this.accept(turn, message);
    if (stopped) return stopped;
    const streak = ++this.streaks.lengthStops;
    this.streaks.emptyStops = 0;
    this.streaks.malformedCalls = 0;
    this.streaks.compactedForError = false;
    if (streak >= MAX_LENGTH_STOPS) {
      return {
        conclusion: 'failure',
        error: `The model's replies hit the output token limit ${streak} times in a row.`,
      };
    }
    this.emit({ type: 'continue', turn, reason: 'length' });
    this.append({ role: 'user', content: CONTINUE_AFTER_LENGTH, timestamp: this.now() });
    return undefined;
  }

  /** A complete reply: run its calls, or end the run when it has none (nudging an empty one). */
  private async onReply(turn: number, message: AssistantMessage): Promise<Next> {
    const calls = toolCallsOf(message).length;
    const said = textOf(message.content).trim() !== '';
    if (calls === 0 && !said) {
      // Claude and Gemini sometimes end a turn after tool results with nothing at all.
      if (++this.streaks.emptyStops >= MAX_EMPTY_STOPS) {
        const error = `The model stopped ${this.streaks.emptyStops} times in a row without a word or a tool call, so the run ended without a final message.`;
        this.emit({ type: 'error', message: error });
        return { conclusion: 'failure', error };
      }
      this.emit({ type: 'continue', turn, reason: 'empty' });
      this.append({ role: 'user', content: NUDGE_AFTER_EMPTY, timestamp: this.now() });
      return undefined;
    }
    this.streaks.progress();
    const stopped = await this.accept(turn, message);
    if (stopped) return stopped;
    if (calls > 0) return undefined;
    // A request that came while the model wrote its last reply is answered before the run ends.
    return (await this.takePending(true)) ? undefined : { conclusion: 'success' };
  }

  /** Appends the requests that joined the session since the last ask; true when there were any. */
  private async takePending(final: boolean): Promise<boolean> {
    const ask = this.o.pendingMessages;
    if (!ask || this.stop.signal.aborted) return false;
    let taken: readonly PendingMessage[];
    try {
      taken = await ask({ final });
    } catch {
      return false;
    }
    // Taken is taken (the caller acknowledged them): recorded even when the run stops now.
    for (const p of taken) {
      this.emit({ type: 'joined', turn: this.turns + 1, data: p.event });
      this.append(p.message);
    }
    return taken.length > 0 && !this.stop.signal.aborted;
  }

  /** Puts a reply into the context and runs its calls; returns an ending when the run stopped. */
  private async accept(turn: number, message: AssistantMessage): Promise<Next> {
    this.context.push(message);
    this.compacted = false;
    const calls = toolCallsOf(message);
    if (calls.length > 0) {
      const notReady = await this.toolsBlocked();
      if (this.stop.signal.aborted) return this.stopped();
      if (notReady !== undefined) {
        for (const call of calls)
          this.record(errorResult(call, `Tool call not run: ${notReady}`, this.now()));
        this.emit({ type: 'error', message: notReady });
        return { conclusion: 'failure', error: notReady };
      }
      await runToolCalls(calls, {
        registry: this.registry,
        signal: this.stop.signal,
        turn,
        emit: this.emit,
        now: this.now,
        onResult: (r) => this.append(r),
      });
    }
    return this.stop.signal.aborted ? this.stopped() : undefined;
  }

  /** Waits for `toolsReady` (or the run's end); the reason no tool may run, if it failed. */
  private async toolsBlocked(): Promise<string | undefined> {
    const ready = this.o.toolsReady;
    if (!ready || this.readiness?.settled) return this.readiness?.failure;
    const state: { settled: boolean; failure?: string } = (this.readiness ??= { settled: false });
    const outcome = ready.then(
      () => {
        state.settled = true;
      },
      (err: unknown) => {
        state.settled = true;
        state.failure = err instanceof Error ? err.message : String(err);
      },
    );
    let onAbort = (): void => undefined;
    const stopped = new Promise<void>((resolve) => {
      onAbort = resolve;
      if (this.stop.signal.aborted) resolve();
      else this.stop.signal.addEventListener('abort', onAbort, { once: true });
    });
    await Promise.race([outcome, stopped]);
    this.stop.signal.removeEventListener('abort', onAbort);
    return state.failure;
  }

  /** Records a turn's message, its usage (every attempt the provider billed) and its model. */
  private account(turn: number, message: AssistantMessage): void {
    this.record(message);
    this.usage = addUsage(this.usage, message.usage);
    this.lastTurnCost = message.usage.costUsd;
    if (message.model && !this.models.includes(message.model)) this.models.push(message.model);
    this.emit({ type: 'turn_end', turn, message, usage: this.usage });
  }

  /** Streams one turn; always returns a final message (a failure becomes an `error` message). */
  private async ask(turn: number): Promise<AssistantMessage> {
    const { provider } = this.o;
    let final: AssistantMessage | undefined;
    let failedAttempts = 0;
    try {
      const stream = provider.stream(
        { systemPrompt: this.o.systemPrompt, messages: [...this.context], tools: this.definitions },
        { signal: this.stop.signal, ...(this.o.maxTokens ? { maxTokens: this.o.maxTokens } : {}) },
      );
      for await (const e of stream) {
        switch (e.type) {
          case 'text_delta':
            this.emit({ type: 'text_delta', turn, delta: e.delta });
            break;
          case 'retry': {
            const { type: _t, ...rest } = e;
            if (e.usage) failedAttempts += usageTokens(e.usage);
            this.emit({ type: 'retry', turn, ...rest });
            break;
          }
          case 'fallback': {
            const { type: _t, ...rest } = e;
            // The primary's whole bill for the turn, its retries included.
            if (e.usage) failedAttempts = usageTokens(e.usage);
            this.emit({ type: 'fallback', turn, ...rest });
            break;
          }
          case 'notice':
            this.emit({ type: 'notice', turn, source: e.source, message: e.message });
            break;
          case 'done':
            final = e.message;
            if (failedAttempts > 0)
              this.attemptTokens.set(final, Math.max(0, reportedTokens(final) - failedAttempts));
            break;
          default:
            break;
        }
      }
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      return this.failedTurn(
        this.stop.signal.aborted ? 'aborted' : 'error',
        `The provider stream failed: ${text}`,
      );
    }
    return (
      final ??
      this.failedTurn('error', `The provider ${provider.name} ended its stream without a final message.`)
    );
  }

  private failedTurn(stopReason: 'error' | 'aborted', errorMessage: string): AssistantMessage {
    return {
      role: 'assistant',
      content: [],
      provider: this.o.provider.name,
      model: this.o.provider.model,
      usage: emptyUsage(),
      stopReason,
      errorMessage,
      timestamp: this.now(),
    };
  }

  /** Adds a message to the conversation the model sees and to the record. */
  private append(m: UserMessage | ToolResultMessage): void {
    this.context.push(m);
    this.record(m);
  }

  /** Adds a message to the record only (results of a turn that is not sent again). */
  private record(m: Message): void {
    this.history.push(m);
    this.o.transcript?.message(m);
  }

  /** Error results for the calls of a turn that will not run (aborted or failed turn). */
  private closeCalls(message: AssistantMessage): void {
    const reason =
      message.stopReason === 'aborted' && this.stopCause === 'time'
        ? 'Tool call not run: the time budget ran out before the tool ran.'
        : syntheticReason(message);
    for (const call of toolCallsOf(message)) this.record(errorResult(call, reason, this.now()));
  }

  /**
   * Tokens the next request will carry. Reported usage is the best measure, but after a
   * compaction it describes a context that no longer exists, so until the next reply the size
   * is estimated from the messages alone.
   */
  private contextSize(): number {
    return this.compacted
      ? this.baseTokens + estimateTokens(this.context)
      : contextTokens(this.context, this.baseTokens, (m) => this.attemptTokens.get(m) ?? reportedTokens(m));
  }

  private compact(reason: CompactionReason, keepTokens: number): boolean {
    if (!this.task) return false;
    const before = this.contextSize();
    const result = compactMessages(this.context, keepTokens, { task: this.task, notes: this.notes });
    if (!result) return false;
    this.context = result.messages;
    this.notes = result.notes;
    this.compacted = true;
    this.emit({
      type: 'compaction',
      reason,
      removedMessages: result.removed,
      tokensBefore: before,
      tokensAfter: this.baseTokens + estimateTokens(result.messages),
    });
    return true;
  }

  private stopped(detail?: string): Ending {
    if (this.stopCause === 'time')
      return this.budgetEnding(timeStop(this.o.timeoutMs ?? 0, this.now() - this.started));
    const reason =
      this.stopCause === 'cancel' ? 'The run was cancelled.' : (detail ?? 'The model stream was aborted.');
    this.emit({ type: 'cancel', reason });
    return { conclusion: 'cancelled', error: reason };
  }

  private budgetEnding(over: BudgetStop): Ending {
    this.emit({ type: 'budget', budget: over.budget, limit: over.limit, used: over.used });
    return { conclusion: 'budget-exceeded', budget: over.budget, error: over.message };
  }

  private finish(ending: Ending): AgentResult {
    // Whatever happened, no call is left without its result.
    for (const call of unansweredCalls(this.history)) {
      this.record(errorResult(call, 'Tool call not run: the run ended before the tool ran.', this.now()));
    }
    let finalText = '';
    for (let i = this.history.length - 1; i >= 0 && !finalText; i--) {
      const m = this.history[i]!;
      if (m.role === 'assistant') finalText = textOf(m.content).trim();
    }
    const result: AgentResult = {
      conclusion: ending.conclusion,
      messages: this.history,
      usage: this.usage,
      turns: this.turns,
      models: this.models,
      finalText,
      durationMs: this.now() - this.started,
    };
    if (ending.error !== undefined) result.error = ending.error;
    if (ending.budget !== undefined) result.budget = ending.budget;
    if (ending.failedRequest !== undefined) result.failedRequest = ending.failedRequest;
    return result;
  }
}

/** The request's HTTP status leads the provider's error text ("529 overloaded_error: …"). */
function failedRequest(message: AssistantMessage, kind: ErrorKind): FailedRequest {
  const text = message.errorMessage ?? '';
  const status = /^([1-5]\d\d)\b/.exec(text)?.[1];
  return {
    provider: message.provider,
    model: message.model,
    kind,
    ...(status ? { status: Number(status) } : {}),
    ...(kind === 'network' && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(text) ? { unreachable: true } : {}),
  };
}

function usageTokens(u: Usage): number {
  return u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens + u.outputTokens;
}
