import type { AssistantEvent } from './types.js';

/*
 * What the SDKs print by themselves. The Anthropic SDK writes a model's deprecation straight to
 * console.warn inside `messages.create()` ("The model 'claude-sonnet-4-5' is deprecated and will
 * reach end-of-life on ..."), on every request, and both SDKs log through their `logger` option.
 * On a terminal that text lands in the middle of the live timeline, and in the action it is noise
 * in the job log. An adapter collects it here instead and yields it as `notice` events (once per
 * distinct text), which the loop writes to the transcript.
 */
export class SdkNotices {
  private readonly seen = new Set<string>();
  private pending: string[] = [];

  constructor(private readonly source: string) {}

  add(text: string): void {
    const t = text.trim();
    if (!t || this.seen.has(t)) return;
    this.seen.add(t);
    this.pending.push(t);
  }

  /** A logger for the SDK's `logger` option: warnings and errors become notices. */
  logger(): { error: LogFn; warn: LogFn; info: LogFn; debug: LogFn } {
    const keep: LogFn = (message, ...rest) => this.add([message, ...rest].map(textOf).join(' '));
    const drop: LogFn = () => undefined;
    return { error: keep, warn: keep, info: drop, debug: drop };
  }

  /**
   * Calls `fn` with console.warn diverted to the notices. Only for the synchronous part of `fn`
   * (where the SDK warns); console.warn is back before anything else can run.
   */
  capture<T>(fn: () => T): T {
    const original = console.warn;
    console.warn = (...args: unknown[]) => this.add(args.map(textOf).join(' '));
    try {
      return fn();
    } finally {
      console.warn = original;
    }
  }

  /** The notices not yet reported, as stream events. */
  drain(): AssistantEvent[] {
    if (this.pending.length === 0) return [];
    const events = this.pending.map((message): AssistantEvent => ({
      type: 'notice',
      source: this.source,
      message,
    }));
    this.pending = [];
    return events;
  }
}

type LogFn = (message: string, ...rest: unknown[]) => void;

function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Error) return v.message;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
