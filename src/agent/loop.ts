import { ToolRegistry } from '../protocol/execute.js';
import { errorResult, syntheticReason, unansweredCalls } from '../protocol/pairing.js';
import type { AnyAgentTool, ToolDefinition } from '../protocol/tool.js';
import type { TranscriptWriter } from '../protocol/transcript.js';
import type {
  AssistantMessage,
  Message,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from '../protocol/types.js';
import { addUsage, emptyUsage, textOf, toolCallsOf } from '../protocol/types.js';
import type { Provider } from '../providers/types.js';
import { exhaustedBudget, timeStop, type BudgetStop } from './budget.js';
import { compactMessages, contextTokens, estimateTokens } from './compaction.js';
import { createEmitter, type AgentEvent, type BudgetKind, type CompactionReason } from './events.js';
import { runToolCalls } from './tool-calls.js';

export interface AgentOptions {
  provider: Provider;
  tools: AnyAgentTool[];
  systemPrompt: string;
  /** The task; a string becomes the first user message. */
  task: string | UserMessage;
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
  durationMs: number;
}

/** Compact before a request once the context passes this share of the window... */
const COMPACT_AT = 0.75;
/** ...keeping this share of it as recent turns. */
const KEEP_SHARE = 0.3;
/** Replies cut off by the output limit in a row before the run gives up. */
const MAX_LENGTH_STOPS = 3;

const CONTINUE_AFTER_LENGTH =
  'Your last reply was cut off at the output token limit. Continue from where you stopped. ' +
  'Keep replies short and split large changes into several smaller edit_file calls.';

/**
 * Runs the agent loop: ask the model, run the tool calls it makes, append the results, repeat,
 * until it stops, fails, is cancelled or runs out of budget. Never throws.
 */
export async function runAgent(options: AgentOptions): Promise<AgentResult> {
  return new AgentRun(options).run();
}

type Ending = { conclusion: AgentConclusion; error?: string; budget?: BudgetKind };

class AgentRun {
  private readonly now: () => number;
  private readonly started: number;
  private readonly emit: (e: AgentEvent) => void;
  private readonly stop = new AbortController();
  private stopCause: 'cancel' | 'time' | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  private readonly history: Message[] = [];
  /** What the model sees: the history, possibly compacted. */
  private context: Message[] = [];
  private task: UserMessage | undefined;
  private notes: string[] = [];
  /** True from a compaction until the next reply (see contextSize). */
  private compacted = false;
  private usage: Usage = emptyUsage();
  private turns = 0;
  private readonly models: string[] = [];
  private lastTurnCost: number | undefined;

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

  private async loop(): Promise<Ending> {
    const registry = new ToolRegistry(this.o.tools);
    const definitions: ToolDefinition[] = registry.tools.map(({ name, description, parameters }) => ({
      name,
      description,
      parameters,
    }));
    const task: UserMessage =
      typeof this.o.task === 'string'
        ? { role: 'user', content: this.o.task, timestamp: this.now() }
        : this.o.task;
    this.task = task;
    this.append(task);

    const window = this.o.contextWindow ?? this.o.provider.contextWindow;
    const baseTokens = estimateTokens([
      { role: 'user', content: this.o.systemPrompt + JSON.stringify(definitions), timestamp: 0 },
    ]);
    let lengthStops = 0;
    let compactedForError = false;

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
      if (window && this.contextSize(baseTokens) > window * COMPACT_AT) {
        this.compact('threshold', window * KEEP_SHARE, baseTokens);
      }

      const turn = ++this.turns;
      this.emit({ type: 'turn_start', turn, model: this.o.provider.model });
      const message = await this.ask(turn, definitions);
      this.record(message);
      this.usage = addUsage(this.usage, message.usage);
      this.lastTurnCost = message.usage.costUsd;
      if (message.model && !this.models.includes(message.model)) this.models.push(message.model);
      this.emit({ type: 'turn_end', turn, message, usage: this.usage });

      const calls = uniqueCalls(toolCallsOf(message));
      switch (message.stopReason) {
        case 'aborted':
          this.closeCalls(message);
          return this.stopped(message.errorMessage);
        case 'error': {
          this.closeCalls(message);
          const reason = message.errorMessage ?? 'the model request failed';
          if (message.errorKind === 'context_length' && !compactedForError && calls.length === 0) {
            compactedForError = true;
            const target = window ? window * KEEP_SHARE : this.contextSize(baseTokens) / 2;
            if (this.compact('context_length', target, baseTokens)) continue;
          }
          this.emit({
            type: 'error',
            message: reason,
            ...(message.errorKind ? { errorKind: message.errorKind } : {}),
          });
          return { conclusion: 'failure', error: reason };
        }
        case 'stop':
        case 'toolUse':
        case 'length':
          break;
        default: {
          const unknown: never = message.stopReason;
          return { conclusion: 'failure', error: `Unknown stop reason ${String(unknown)}` };
        }
      }

      this.context.push(message);
      this.compacted = false;
      if (calls.length > 0) {
        await runToolCalls(calls, {
          registry,
          signal: this.stop.signal,
          turn,
          emit: this.emit,
          now: this.now,
          onResult: (r) => this.append(r),
        });
      }
      if (this.stop.signal.aborted) return this.stopped();

      if (message.stopReason === 'length') {
        if (++lengthStops >= MAX_LENGTH_STOPS) {
          return {
            conclusion: 'failure',
            error: `The model's replies hit the output token limit ${lengthStops} times in a row.`,
          };
        }
        this.emit({ type: 'continue', turn, reason: 'length' });
        this.append({ role: 'user', content: CONTINUE_AFTER_LENGTH, timestamp: this.now() });
        continue;
      }
      lengthStops = 0;
      if (calls.length === 0) return { conclusion: 'success' };
    }
  }

  /** Streams one turn; always returns a final message (a failure becomes an `error` message). */
  private async ask(turn: number, tools: ToolDefinition[]): Promise<AssistantMessage> {
    const { provider } = this.o;
    let final: AssistantMessage | undefined;
    try {
      const stream = provider.stream(
        { systemPrompt: this.o.systemPrompt, messages: [...this.context], tools },
        { signal: this.stop.signal, ...(this.o.maxTokens ? { maxTokens: this.o.maxTokens } : {}) },
      );
      for await (const e of stream) {
        switch (e.type) {
          case 'text_delta':
            this.emit({ type: 'text_delta', turn, delta: e.delta });
            break;
          case 'retry': {
            const { type: _t, ...rest } = e;
            this.emit({ type: 'retry', turn, ...rest });
            break;
          }
          case 'fallback':
            this.emit({ type: 'fallback', turn, from: e.from, to: e.to, reason: e.reason });
            break;
          case 'done':
            final = e.message;
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
    for (const call of uniqueCalls(toolCallsOf(message))) this.record(errorResult(call, reason, this.now()));
  }

  /**
   * Tokens the next request will carry. Reported usage is the best measure, but after a
   * compaction it describes a context that no longer exists, so until the next reply the size
   * is estimated from the messages alone.
   */
  private contextSize(baseTokens: number): number {
    return this.compacted
      ? baseTokens + estimateTokens(this.context)
      : contextTokens(this.context, baseTokens);
  }

  private compact(reason: CompactionReason, keepTokens: number, baseTokens: number): boolean {
    if (!this.task) return false;
    const before = this.contextSize(baseTokens);
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
      tokensAfter: baseTokens + estimateTokens(result.messages),
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
    return result;
  }
}

/** A call id repeated within a turn is one call (the pairing rule): only its first occurrence runs. */
function uniqueCalls(calls: ToolCall[]): ToolCall[] {
  const seen = new Set<string>();
  return calls.filter((c) => !seen.has(c.id) && seen.add(c.id));
}
