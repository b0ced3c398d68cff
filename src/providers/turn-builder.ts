import { randomBytes } from 'node:crypto';
import { StreamJsonReader } from '../protocol/stream-json.js';
import type {
  AssistantContent,
  AssistantMessage,
  ErrorKind,
  ProviderBinding,
  StopReason,
  ToolCall,
  Usage,
} from '../protocol/types.js';
import { emptyUsage } from '../protocol/types.js';
import type { AssistantEvent } from './types.js';

/** How an adapter names a content block: the wire's block index, or any stable key. */
export type BlockKey = string | number;

type Block =
  | { kind: 'text'; parts: string[]; binding?: ProviderBinding }
  | { kind: 'thinking'; parts: string[]; signature: string; redacted: boolean }
  | {
      kind: 'tool';
      index: number;
      id: string;
      name: string;
      announced: boolean;
      reader: StreamJsonReader;
      call?: ToolCall;
      binding?: ProviderBinding;
    };

/**
 * Collects one streamed turn into its final AssistantMessage, so every adapter ends the same way.
 * Each method that changes what the user could see returns the event to yield (or undefined when
 * there is nothing to report). Blocks appear in the final message in the order they were started.
 * Tool-call arguments go through a StreamJsonReader: linear work, final parse once.
 */
export class TurnBuilder {
  readonly usage: Usage = emptyUsage();
  private readonly blocks = new Map<BlockKey, Block>();
  private readonly order: Block[] = [];
  private toolCount = 0;

  constructor(
    readonly provider: string,
    readonly model: string,
    private readonly now: () => number = Date.now,
  ) {}

  text(key: BlockKey, delta: string): AssistantEvent | undefined {
    if (!delta) return undefined;
    const b = this.block(key, () => ({ kind: 'text', parts: [] }));
    if (b.kind !== 'text') return undefined;
    b.parts.push(delta);
    return { type: 'text_delta', delta };
  }

  thinking(key: BlockKey, delta: string): AssistantEvent | undefined {
    if (!delta) return undefined;
    const b = this.thinkingBlock(key);
    if (!b) return undefined;
    b.parts.push(delta);
    return { type: 'thinking_delta', delta };
  }

  /** Appends to the opaque signature that lets the same provider verify the block later. */
  thinkingSignature(key: BlockKey, signature: string): void {
    const b = this.thinkingBlock(key);
    if (b) b.signature += signature;
  }

  /** A reasoning block the provider sent only in encrypted form. */
  redactedThinking(key: BlockKey, data: string): void {
    const b = this.thinkingBlock(key);
    if (!b) return;
    b.redacted = true;
    b.parts.push(data);
  }

  /** Starts a tool call (or names one whose arguments arrived first). */
  toolCallStart(key: BlockKey, id: string, name: string): AssistantEvent | undefined {
    const b = this.toolBlock(key);
    if (!b) return undefined;
    if (id && !b.id) b.id = id;
    if (name && !b.name) b.name = name;
    if (b.announced) return undefined;
    b.announced = true;
    if (!b.id) b.id = generatedId();
    return { type: 'toolcall_start', index: b.index, id: b.id, name: b.name };
  }

  toolCallDelta(key: BlockKey, delta: string): AssistantEvent | undefined {
    if (!delta) return undefined;
    const b = this.toolBlock(key);
    if (!b || b.call) return undefined;
    const fieldDone = b.reader.push(delta);
    return fieldDone
      ? { type: 'toolcall_delta', index: b.index, delta, partial: { ...b.reader.fields } }
      : { type: 'toolcall_delta', index: b.index, delta };
  }

  /** Completes a tool call: its argument text is parsed once, here. Repeated calls do nothing. */
  toolCallEnd(key: BlockKey): AssistantEvent | undefined {
    const b = this.blocks.get(key);
    if (!b || b.kind !== 'tool' || b.call) return undefined;
    b.call = finalCall(b);
    return { type: 'toolcall_end', index: b.index, toolCall: b.call };
  }

  /** Completes every tool call still open (for wire formats without a per-call end). */
  endToolCalls(): AssistantEvent[] {
    const events: AssistantEvent[] = [];
    for (const [key, b] of this.blocks) {
      if (b.kind === 'tool' && !b.call) {
        const e = this.toolCallEnd(key);
        if (e) events.push(e);
      }
    }
    return events;
  }

  /**
   * Ends the turn: closes the open tool calls, then the final `done`. `error` is a refusal's text,
   * or an error of another kind (an `error` stop reason that is not the API failing).
   */
  end(stopReason: StopReason, error?: string | { message: string; kind: ErrorKind }): AssistantEvent[] {
    const events = this.endToolCalls();
    const failure = typeof error === 'string' ? { message: error, kind: 'refusal' as const } : error;
    events.push({ type: 'done', message: this.finish(stopReason, failure) });
    return events;
  }

  /**
   * Attaches what the provider needs to pair or verify a text or tool-call block when it is sent
   * back (a Responses item id, a Gemini signature); ignored for other blocks.
   */
  bind(key: BlockKey, binding: ProviderBinding): void {
    const b = this.blocks.get(key);
    if (!b || b.kind === 'thinking') return;
    b.binding = { ...b.binding, ...binding };
    if (b.kind === 'tool' && b.call) b.call = { ...b.call, ...b.binding };
  }

  has(key: BlockKey): boolean {
    return this.blocks.has(key);
  }

  get hasToolCalls(): boolean {
    return this.toolCount > 0;
  }

  /** Overwrites the given usage fields (providers report running totals). */
  setUsage(fields: Partial<Omit<Usage, 'costUsd'>>): void {
    for (const [k, v] of Object.entries(fields) as [keyof Omit<Usage, 'costUsd'>, number | undefined][]) {
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0) this.usage[k] = v;
    }
  }

  /**
   * The final message. Open tool calls are closed (an incomplete argument text stays as the raw
   * string, which the tool runtime answers with an error). A `stop` turn holding tool calls is a
   * `toolUse` turn and a `toolUse` turn with none is a `stop`: some compatible servers mislabel them.
   */
  finish(stopReason: StopReason, error?: { message: string; kind: ErrorKind }): AssistantMessage {
    const content: AssistantContent[] = [];
    for (const b of this.order) {
      if (b.kind === 'text') {
        const text = b.parts.join('');
        if (text) content.push({ type: 'text', text, ...b.binding });
      } else if (b.kind === 'thinking') {
        const thinking = b.parts.join('');
        if (!thinking && !b.signature) continue;
        content.push({
          type: 'thinking',
          thinking,
          ...(b.signature ? { signature: b.signature } : {}),
          ...(b.redacted ? { redacted: true } : {}),
        });
      } else {
        b.call ??= finalCall(b);
        content.push(b.call);
      }
    }
    let reason = stopReason;
    if (reason === 'stop' && this.hasToolCalls) reason = 'toolUse';
    else if (reason === 'toolUse' && !this.hasToolCalls) reason = 'stop';
    const message: AssistantMessage = {
      role: 'assistant',
      content,
      provider: this.provider,
      model: this.model,
      usage: { ...this.usage },
      stopReason: reason,
      timestamp: this.now(),
    };
    if (error) {
      message.errorMessage = error.message;
      message.errorKind = error.kind;
    }
    return message;
  }

  private block(key: BlockKey, make: () => Block): Block {
    let b = this.blocks.get(key);
    if (!b) {
      b = make();
      this.blocks.set(key, b);
      this.order.push(b);
    }
    return b;
  }

  private thinkingBlock(key: BlockKey) {
    const b = this.block(key, () => ({ kind: 'thinking', parts: [], signature: '', redacted: false }));
    return b.kind === 'thinking' ? b : undefined;
  }

  private toolBlock(key: BlockKey) {
    const b = this.block(key, () => ({
      kind: 'tool',
      index: this.toolCount++,
      id: '',
      name: '',
      announced: false,
      reader: new StreamJsonReader(),
    }));
    return b.kind === 'tool' ? b : undefined;
  }
}

function generatedId(): string {
  return `call_${randomBytes(12).toString('hex')}`;
}

function finalCall(b: Extract<Block, { kind: 'tool' }>): ToolCall {
  const parsed = b.reader.finish();
  return {
    type: 'toolCall',
    id: b.id || (b.id = generatedId()),
    name: b.name,
    input: parsed.ok ? parsed.value : b.reader.text,
    ...b.binding,
  };
}
