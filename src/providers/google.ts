import {
  GoogleGenAI,
  type Content,
  type GenerateContentConfig,
  type GenerateContentResponse,
  type GenerateContentResponseUsageMetadata,
  type Part,
  type Tool,
} from '@google/genai';
import type { ToolDefinition } from '../protocol/tool.js';
import type { AssistantContent, AssistantMessage, ImageContent, Message } from '../protocol/types.js';
import { createAdapterProvider, type AdapterSpec, type AttemptEvent, type TurnBuilder } from './base.js';
import { foreignThinkingAsText, wireInput } from './convert.js';
import { streamCutFailure } from './errors.js';
import { capabilitiesOf } from './capabilities.js';
import type { FailureHints } from './hints.js';
import { GOOGLE_ID_POLICY } from './ids.js';
import { ByteMeter } from './metered-fetch.js';
import type { RetryPolicy } from './retry.js';
import type { AssistantEvent, Provider } from './types.js';

/*
 * Google Gemini API (POST /v1beta/models/{model}:streamGenerateContent?alt=sse).
 *
 * Tool calls: Gemini pairs a functionResponse with its functionCall by name and order; the `id`
 * fields are sent as well (the API echoes them when it issues ids). A call that arrives without
 * an id gets one here. Ids are rewritten per request to at most 64 of [A-Za-z0-9_-] (ids.ts).
 *
 * Thought signatures: Gemini 3 rejects a replayed functionCall part without its thoughtSignature
 * ("Function call is missing a thought_signature in functionCall parts"). A call's signature is
 * kept on the ToolCall block as `signature` (and a text part's on its text block) and sent
 * back to the same model only; calls from anywhere else carry Google's documented
 * `skip_thought_signature_validator` sentinel on Gemini 3 models.
 */

export const GOOGLE_PROVIDER = 'google';

const SKIP_SIGNATURE = 'skip_thought_signature_validator';

export interface GoogleConfig {
  model: string;
  apiKey: string;
  /** The host root (`https://generativelanguage.googleapis.com`), as @google/genai takes it. */
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
  hints?: FailureHints;
}

/** Signatures seen in one stream: per tool-call id, and the last one on a text part. */
interface Signatures {
  calls: Map<string, string>;
  text?: string;
}

function inlineImage(image: ImageContent): Part {
  return { inlineData: { mimeType: image.mimeType, data: image.data } };
}

function modelParts(m: AssistantMessage, own: boolean, model: string): Part[] {
  const parts: Part[] = [];
  const sentinel = capabilitiesOf(GOOGLE_PROVIDER, model).signatures;
  for (const c of m.content) {
    if (c.type === 'thinking') {
      // Only this model's own thoughts reach here (prepare turned the rest into text).
      if (!c.thinking) continue;
      parts.push({
        text: c.thinking,
        thought: true,
        ...(c.signature ? { thoughtSignature: c.signature } : {}),
      });
    } else if (c.type === 'text') {
      if (!c.text) continue;
      const sig = own ? c.signature : undefined;
      parts.push({ text: c.text, ...(sig ? { thoughtSignature: sig } : {}) });
    } else {
      const sig = own ? c.signature : undefined;
      const part: Part = { functionCall: { id: c.id, name: c.name, args: wireInput(c) } };
      if (sig) part.thoughtSignature = sig;
      else if (sentinel) part.thoughtSignature = SKIP_SIGNATURE;
      parts.push(part);
    }
  }
  return parts;
}

/** Protocol history → Gemini contents (roles user / model); adjacent turns of one role are merged. */
export function toGeminiContents(
  messages: readonly Message[],
  model: string,
  provider: string = GOOGLE_PROVIDER,
): Content[] {
  const contents: Content[] = [];
  const push = (role: 'user' | 'model', parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts!.push(...parts);
    else contents.push({ role, parts });
  };
  for (const m of messages) {
    if (m.role === 'user') {
      const parts: Part[] =
        typeof m.content === 'string'
          ? [{ text: m.content }]
          : m.content.map((c) => (c.type === 'text' ? { text: c.text } : inlineImage(c)));
      push('user', parts);
    } else if (m.role === 'assistant') {
      const own = m.provider === provider && m.model === model;
      push('model', modelParts(m, own, model));
    } else {
      const text = m.content
        .filter((c) => c.type === 'text')
        .map((c) => c.text)
        .join('\n');
      const images = m.content.filter((c): c is ImageContent => c.type === 'image');
      const output = text || (images.length > 0 ? '(the image follows)' : '(no output)');
      const parts: Part[] = [
        {
          functionResponse: {
            id: m.toolCallId,
            name: m.toolName,
            response: m.isError ? { error: output } : { output },
          },
        },
      ];
      // Images ride along as inline data after the response they belong to.
      if (images.length > 0) {
        parts.push(
          { text: `Image output of the ${m.toolName} call ${m.toolCallId}:` },
          ...images.map(inlineImage),
        );
      }
      push('user', parts);
    }
  }
  return contents;
}

export function toGeminiTools(tools: readonly ToolDefinition[]): Tool[] {
  if (tools.length === 0) return [];
  return [
    {
      functionDeclarations: tools.map((t) => ({
        name: t.name,
        description: t.description,
        parametersJsonSchema: t.parameters,
      })),
    },
  ];
}

export function buildGeminiConfig(
  context: { systemPrompt: string; tools: readonly ToolDefinition[] },
  model: string,
  signal: AbortSignal,
  maxTokens?: number,
): GenerateContentConfig {
  const config: GenerateContentConfig = {
    abortSignal: signal,
    // The tools run in the agent loop, never inside the SDK.
    automaticFunctionCalling: { disable: true },
  };
  if (context.systemPrompt) config.systemInstruction = context.systemPrompt;
  const tools = toGeminiTools(context.tools);
  if (tools.length > 0) config.tools = tools;
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  if (capabilitiesOf(GOOGLE_PROVIDER, model).reasoning) config.thinkingConfig = { includeThoughts: true };
  return config;
}

function setUsage(builder: TurnBuilder, usage: GenerateContentResponseUsageMetadata | undefined): void {
  if (!usage) return;
  // cachedContentTokenCount is part of promptTokenCount; thoughts are billed as output.
  const cached = usage.cachedContentTokenCount ?? 0;
  if (usage.promptTokenCount !== undefined) {
    builder.setUsage({ inputTokens: Math.max(0, usage.promptTokenCount - cached), cacheReadTokens: cached });
  }
  if (usage.candidatesTokenCount !== undefined || usage.thoughtsTokenCount !== undefined) {
    builder.setUsage({ outputTokens: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0) });
  }
}

const REFUSALS = new Set([
  'SAFETY',
  'RECITATION',
  'PROHIBITED_CONTENT',
  'BLOCKLIST',
  'SPII',
  'LANGUAGE',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * Finish reasons for a call the model got wrong (FinishReason in @google/genai): "The function
 * call generated by the model is invalid" (MALFORMED_FUNCTION_CALL, with the text of the call in
 * finishMessage) and "The tool call generated by the model is invalid" (UNEXPECTED_TOOL_CALL, a
 * call of a tool that was not offered).
 */
const MODEL_SLIPS = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL']);

function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * Reads one Gemini stream into the TurnBuilder. Each chunk is a whole GenerateContentResponse;
 * usageMetadata carries running totals, so the last one wins. Function calls arrive whole and are
 * reported as start, one delta, end. The stream is read to its end, and the outcome comes from
 * the finishReason (or a blocked prompt); a stream that ends without either was cut.
 */
export async function* readGeminiStream(
  chunks: AsyncIterable<GenerateContentResponse>,
  builder: TurnBuilder,
): AsyncGenerator<AttemptEvent> {
  const signatures: Signatures = { calls: new Map() };
  let seq = 0;
  let open: { kind: 'text' | 'thinking'; key: string } | undefined;
  const emit = (e: AssistantEvent | undefined) => (e ? [e] : []);
  const blockFor = (kind: 'text' | 'thinking') => {
    if (open?.kind !== kind) open = { kind, key: `b${seq++}` };
    return open.key;
  };

  let blocked: string | undefined;
  let finish: { reason: string; detail?: string } | undefined;
  try {
    for await (const chunk of chunks) {
      setUsage(builder, chunk.usageMetadata);
      const feedback = chunk.promptFeedback;
      if (feedback?.blockReason) {
        const detail = feedback.blockReasonMessage;
        blocked ??= `${feedback.blockReason}${detail ? ` (${detail})` : ''}`;
      }
      const candidate = chunk.candidates?.[0];
      for (const part of candidate?.content?.parts ?? []) {
        if (part.functionCall) {
          open = undefined;
          const key = `b${seq++}`;
          const call = part.functionCall;
          yield* emit(builder.toolCallStart(key, call.id ?? '', call.name ?? ''));
          yield* emit(builder.toolCallDelta(key, JSON.stringify(call.args ?? {})));
          const end = builder.toolCallEnd(key);
          if (end?.type === 'toolcall_end' && part.thoughtSignature) {
            signatures.calls.set(end.toolCall.id, part.thoughtSignature);
          }
          yield* emit(end);
        } else if (typeof part.text === 'string') {
          if (part.thought) {
            const key = blockFor('thinking');
            yield* emit(builder.thinking(key, part.text));
            if (part.thoughtSignature) builder.thinkingSignature(key, part.thoughtSignature);
          } else {
            yield* emit(builder.text(blockFor('text'), part.text));
            if (part.thoughtSignature) signatures.text = part.thoughtSignature;
          }
        }
      }
      if (candidate?.finishReason && !finish) {
        finish = {
          reason: candidate.finishReason,
          detail: (candidate as { finishMessage?: string }).finishMessage,
        };
      }
    }
  } catch (err) {
    // A connection lost after the turn was complete loses nothing (at most a trailing usage chunk).
    if (!finish && !blocked) throw err;
  }
  if (blocked) {
    yield {
      type: 'failure',
      failure: { kind: 'refusal', retryable: false, message: `Gemini blocked the prompt: ${blocked}.` },
    };
  } else if (!finish) {
    yield { type: 'failure', failure: streamCutFailure() };
  } else if (finish.reason === 'STOP') {
    yield { type: 'done', message: finishWithSignatures(builder, 'stop', signatures) };
  } else if (finish.reason === 'MAX_TOKENS') {
    yield { type: 'done', message: finishWithSignatures(builder, 'length', signatures) };
  } else if (MODEL_SLIPS.has(finish.reason)) {
    // The model's own mistake, not the API's: the loop tells the model and asks again, as it does
    // for invalid arguments. Retrying the same request would mostly repeat the same call.
    yield {
      type: 'failure',
      failure: {
        kind: 'malformed_call',
        retryable: false,
        message: `Gemini could not read the model's tool call (${finish.reason}${finish.detail ? `: ${oneLine(finish.detail)}` : ''}).`,
      },
    };
  } else {
    yield {
      type: 'failure',
      failure: {
        kind: REFUSALS.has(finish.reason) ? 'refusal' : 'other',
        retryable: false,
        message: `Gemini ended the turn with ${finish.reason}${finish.detail ? `: ${finish.detail}` : ''}.`,
      },
    };
  }
}

/** The builder's final message with the signatures put back on their blocks. */
function finishWithSignatures(
  builder: TurnBuilder,
  stopReason: 'stop' | 'length',
  signatures: Signatures,
): AssistantMessage {
  const message = builder.finish(stopReason);
  if (signatures.calls.size === 0 && !signatures.text) return message;
  let lastText = -1;
  message.content.forEach((c, i) => {
    if (c.type === 'text') lastText = i;
  });
  message.content = message.content.map((c, i): AssistantContent => {
    if (c.type === 'toolCall') {
      const sig = signatures.calls.get(c.id);
      return sig ? { ...c, signature: sig } : c;
    }
    if (i !== lastText || !signatures.text || c.type !== 'text') return c;
    return { ...c, signature: signatures.text };
  });
  return message;
}

/** A Gemini adapter on a client someone built (the Gemini API's, or Vertex AI's). */
export interface GeminiSpec {
  /** provider name as in the `provider` input */
  name: string;
  model: string;
  client: GoogleGenAI;
  /** The meter whose fetch the client was given. */
  meter: ByteMeter;
  /** Credentials that must never appear in a message. */
  secrets: string[];
  retry?: Partial<RetryPolicy>;
  hints?: FailureHints;
}

export function createGoogleProvider(cfg: GoogleConfig): Provider {
  const meter = new ByteMeter();
  const client = new GoogleGenAI({
    apiKey: cfg.apiKey,
    vertexai: false,
    httpOptions: { ...(cfg.baseUrl ? { baseUrl: cfg.baseUrl } : {}), fetch: meter.fetch },
  });
  return createGeminiProvider({
    name: GOOGLE_PROVIDER,
    model: cfg.model,
    client,
    meter,
    secrets: [cfg.apiKey],
    ...(cfg.retry ? { retry: cfg.retry } : {}),
    ...(cfg.hints ? { hints: cfg.hints } : {}),
  });
}

export function createGeminiProvider(cfg: GeminiSpec): Provider {
  const { client, meter, name, model } = cfg;
  const spec: AdapterSpec = {
    name,
    model,
    idPolicy: GOOGLE_ID_POLICY,
    secrets: cfg.secrets,
    meter,
    ...(cfg.hints ? { hints: cfg.hints } : {}),
    prepare: (messages) => foreignThinkingAsText(messages, (m) => m.provider === name && m.model === model),
    // `signal` is the harness's own for this attempt (released when the attempt ends).
    async *attempt(context, signal, { builder, maxTokens }) {
      const stream = await client.models.generateContentStream({
        model,
        contents: toGeminiContents(context.messages, model, name),
        config: buildGeminiConfig(context, model, signal, maxTokens),
      });
      yield* readGeminiStream(stream, builder);
    },
  };
  return createAdapterProvider(spec, cfg.retry);
}
