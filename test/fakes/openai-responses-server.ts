import {
  sseFrame,
  startSseServer,
  type FakeProviderServer,
  type RecordedRequest,
  type Reply,
} from './sse.js';

/*
 * A loopback stand-in for the OpenAI Responses API (POST /v1/responses, stream: true), speaking
 * the real SSE wire format: each frame an `event: <type>` line and a `data:` line holding the
 * event with its sequence_number.
 *
 *   const server = await startResponsesServer([
 *     { events: new ResponsesTurn().text('Hi', 2).completed() },
 *     { status: 429, body: openaiErrorBody('Slow down', 'rate_limit_exceeded') },
 *   ]);
 *   new OpenAI({ baseURL: server.url, apiKey: 'test', maxRetries: 0 })   // url ends in /v1
 *
 * A step is a stream of events (`cutAfter: n` drops the connection after n frames, `hangAfter: n`
 * stops sending and keeps it open), or a plain HTTP answer. ResponsesTurn builds the event
 * sequence of one response item by item, as the API emits it. Requests past the end of the script
 * get a 400 saying so, and so does an input with a reasoning item whose following item comes
 * without its id, as the API refuses it ("Item 'rs_…' of type 'reasoning' was provided without
 * its required following item"; langchain-ai/langchainjs#9082).
 */

export type ResponsesEvent = Record<string, unknown> & { type: string };

export type ResponsesStep =
  | { events: ResponsesEvent[]; cutAfter?: number; hangAfter?: number; headers?: Record<string, string> }
  | { status: number; body: unknown; headers?: Record<string, string> };

export type ResponsesScript = ResponsesStep[] | ((request: RecordedRequest, index: number) => ResponsesStep);

/** The body OpenAI sends with an HTTP error. */
export function openaiErrorBody(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}

export function responsesFrames(events: ResponsesEvent[]): string[] {
  return events.map((event, i) => sseFrame({ ...event, sequence_number: i }, event.type));
}

function toReply(step: ResponsesStep | undefined): Reply {
  if (!step)
    return {
      kind: 'json',
      status: 400,
      body: openaiErrorBody('fake server: script exhausted', 'invalid_request_error'),
    };
  if ('status' in step) return { kind: 'json', status: step.status, body: step.body, headers: step.headers };
  return {
    kind: 'sse',
    frames: responsesFrames(step.events),
    cutAfter: step.cutAfter,
    hangAfter: step.hangAfter,
    headers: step.headers,
  };
}

/** Loopback Responses API; `url` includes `/v1`, as the OpenAI SDK takes its base URL. */
export async function startResponsesServer(script: ResponsesScript): Promise<FakeProviderServer> {
  const server = await startSseServer({
    route: (method, pathname) => method === 'POST' && pathname === '/v1/responses',
    reply: (request, index) => {
      const unpaired = unpairedReasoning(request.body);
      if (unpaired) {
        return {
          kind: 'json',
          status: 400,
          body: openaiErrorBody(
            `Item '${unpaired}' of type 'reasoning' was provided without its required following item.`,
            'invalid_request_error',
          ),
        };
      }
      return toReply(typeof script === 'function' ? script(request, index) : script[index]);
    },
    notFound: (path) => openaiErrorBody(`Invalid URL (POST ${path})`, 'invalid_request_error'),
  });
  return { ...server, url: `${server.url}/v1` };
}

/** The id of a reasoning item in the input whose next item has no id to pair it with. */
function unpairedReasoning(body: unknown): string | undefined {
  const input = (body as { input?: unknown } | undefined)?.input;
  if (!Array.isArray(input)) return undefined;
  for (let i = 0; i < input.length; i++) {
    const item = input[i] as { type?: string; id?: string };
    if (item.type !== 'reasoning' || !item.id) continue;
    const next = input[i + 1] as { type?: string; id?: string } | undefined;
    if (!next || ((next.type === 'function_call' || next.type === 'message') && !next.id)) return item.id;
  }
  return undefined;
}

// ---- builders for realistic event sequences ----

export interface ResponsesUsage {
  input: number;
  output: number;
  cached?: number;
  reasoning?: number;
}

function usageObject(u: ResponsesUsage) {
  return {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cached ?? 0 },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: u.reasoning ?? 0 },
    total_tokens: u.input + u.output,
  };
}

/** Splits text into `parts` pieces of nearly equal length (at least one piece). */
export function splitInto(text: string, parts: number): string[] {
  if (parts <= 1 || text.length <= 1) return [text];
  const size = Math.ceil(text.length / parts);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * Builds the event sequence of one streamed response, item by item, the way the API emits it:
 * response.created / in_progress, then per output item `output_item.added`, its deltas and
 * `output_item.done`, then a terminal response.completed / incomplete / failed.
 */
export class ResponsesTurn {
  private readonly events: ResponsesEvent[] = [];
  private readonly output: Record<string, unknown>[] = [];
  private readonly id: string;
  /** Item ids are unique per response, as the API's are: `fc_0`, or `fc_0_t2` for response `resp_t2`. */
  private readonly suffix: string;

  constructor(
    private readonly model = 'gpt-test',
    id = 'resp_fake_1',
  ) {
    this.id = id;
    this.suffix = id === 'resp_fake_1' ? '' : `_${id.replace(/^resp_/, '')}`;
    const response = this.response('in_progress');
    this.events.push({ type: 'response.created', response });
    this.events.push({ type: 'response.in_progress', response });
  }

  private response(status: string, extra: Record<string, unknown> = {}) {
    return {
      id: this.id,
      object: 'response',
      created_at: 1764000000,
      status,
      model: this.model,
      output: status === 'in_progress' ? [] : this.output,
      error: null,
      incomplete_details: null,
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      store: false,
      usage: null,
      ...extra,
    };
  }

  text(text: string, chunks = 1): this {
    const output_index = this.output.length;
    const item_id = `msg_${output_index}${this.suffix}`;
    const empty = { id: item_id, type: 'message', status: 'in_progress', role: 'assistant', content: [] };
    this.events.push({ type: 'response.output_item.added', output_index, item: empty });
    this.events.push({
      type: 'response.content_part.added',
      item_id,
      output_index,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    });
    for (const delta of splitInto(text, chunks)) {
      this.events.push({
        type: 'response.output_text.delta',
        item_id,
        output_index,
        content_index: 0,
        delta,
        logprobs: [],
      });
    }
    const part = { type: 'output_text', text, annotations: [], logprobs: [] };
    this.events.push({
      type: 'response.output_text.done',
      item_id,
      output_index,
      content_index: 0,
      text,
      logprobs: [],
    });
    this.events.push({ type: 'response.content_part.done', item_id, output_index, content_index: 0, part });
    const item = { ...empty, status: 'completed', content: [part] };
    this.events.push({ type: 'response.output_item.done', output_index, item });
    this.output.push(item);
    return this;
  }

  reasoning(opts: { summary?: string; encrypted?: string } = {}): this {
    const output_index = this.output.length;
    const id = `rs_${output_index}${this.suffix}`;
    this.events.push({
      type: 'response.output_item.added',
      output_index,
      item: { id, type: 'reasoning', summary: [] },
    });
    const summary = opts.summary ? [{ type: 'summary_text', text: opts.summary }] : [];
    if (opts.summary) {
      this.events.push({
        type: 'response.reasoning_summary_part.added',
        item_id: id,
        output_index,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
      this.events.push({
        type: 'response.reasoning_summary_text.delta',
        item_id: id,
        output_index,
        summary_index: 0,
        delta: opts.summary,
      });
      this.events.push({
        type: 'response.reasoning_summary_text.done',
        item_id: id,
        output_index,
        summary_index: 0,
        text: opts.summary,
      });
      this.events.push({
        type: 'response.reasoning_summary_part.done',
        item_id: id,
        output_index,
        summary_index: 0,
        part: summary[0],
      });
    }
    const item: Record<string, unknown> = { id, type: 'reasoning', summary };
    if (opts.encrypted !== undefined) item.encrypted_content = opts.encrypted;
    this.events.push({ type: 'response.output_item.done', output_index, item });
    this.output.push(item);
    return this;
  }

  functionCall(callId: string, name: string, args: string, chunks = 1): this {
    const output_index = this.output.length;
    const item_id = `fc_${output_index}${this.suffix}`;
    const base = { id: item_id, type: 'function_call', call_id: callId, name };
    this.events.push({
      type: 'response.output_item.added',
      output_index,
      item: { ...base, status: 'in_progress', arguments: '' },
    });
    for (const delta of splitInto(args, chunks)) {
      this.events.push({ type: 'response.function_call_arguments.delta', item_id, output_index, delta });
    }
    this.events.push({
      type: 'response.function_call_arguments.done',
      item_id,
      output_index,
      name,
      arguments: args,
    });
    const item = { ...base, status: 'completed', arguments: args };
    this.events.push({ type: 'response.output_item.done', output_index, item });
    this.output.push(item);
    return this;
  }

  /** Appends any event as is (an `error` event, an unknown event type). */
  raw(event: ResponsesEvent): this {
    this.events.push(event);
    return this;
  }

  completed(usage: ResponsesUsage = { input: 10, output: 5 }): ResponsesEvent[] {
    return [
      ...this.events,
      { type: 'response.completed', response: this.response('completed', { usage: usageObject(usage) }) },
    ];
  }

  incomplete(
    reason: 'max_output_tokens' | 'content_filter',
    usage: ResponsesUsage = { input: 10, output: 5 },
  ) {
    return [
      ...this.events,
      {
        type: 'response.incomplete',
        response: this.response('incomplete', { incomplete_details: { reason }, usage: usageObject(usage) }),
      },
    ];
  }

  failed(code: string, message: string): ResponsesEvent[] {
    return [
      ...this.events,
      { type: 'response.failed', response: this.response('failed', { error: { code, message } }) },
    ];
  }

  /** The events so far, with no terminal event (for cut or hanging streams). */
  partial(): ResponsesEvent[] {
    return [...this.events];
  }
}
