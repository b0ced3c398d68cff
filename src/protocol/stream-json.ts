import { parseArguments, type ParseResult } from './arguments.js';

/**
 * Reads tool-call argument text as it streams in. Each `push` scans only the new characters
 * (amortised O(length of the delta)); nothing is re-parsed. It keeps the top-level scalar fields
 * completed so far (`path`, `command`, ...) so progress can be shown before the call is whole.
 * Large values (more than `maxFieldLength` characters of JSON text, e.g. a file's `content`) are
 * skipped rather than copied. `finish()` parses the whole text once, strictly, with parseArguments.
 */
export class StreamJsonReader {
  // Appending builds a V8 rope in O(1); it is flattened once, by the final parse.
  private buffer = '';
  private readonly out: Record<string, unknown> = {};
  private depth = 0;
  private phase: 'start' | 'key' | 'colon' | 'value' | 'after' | 'end' = 'start';
  private inString = false;
  private escape = false;
  /** After `\u` at the end of a chunk: the next character is the first hex digit. */
  private hexPending = false;
  /** Whether a surrogate code unit (raw or as a \uDxxx escape) appeared inside a string. */
  private surrogates = false;
  private capture: 'none' | 'key' | 'value' | 'scalar' = 'none';
  private parts: string[] = [];
  private captured = 0;
  private oversize = false;
  private key: string | undefined;
  /** Set when the text cannot be a JSON object; scanning stops and finish() reports the problem. */
  private broken = false;

  constructor(private readonly maxFieldLength = 4096) {}

  /** Adds a piece of argument text. Returns true when a top-level field completed in it. */
  push(delta: string): boolean {
    if (delta.length === 0) return false;
    this.buffer += delta;
    if (this.broken) return false;
    return this.scan(delta);
  }

  /** The top-level scalar fields completed so far. */
  get fields(): Readonly<Record<string, unknown>> {
    return this.out;
  }

  get text(): string {
    return this.buffer;
  }

  /** True once the top-level object has been closed. */
  get complete(): boolean {
    return this.phase === 'end' && !this.broken;
  }

  /**
   * The arguments, parsed once. When the scan saw a complete object and no surrogate code units,
   * the lone-surrogate check of parseArguments cannot fire, so JSON.parse alone gives the same
   * answer; anything else (and any parse error) goes through parseArguments for its messages.
   */
  finish(): ParseResult {
    if (this.complete && !this.surrogates) {
      try {
        const value: unknown = JSON.parse(this.buffer);
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
          return { ok: true, value: value as Record<string, unknown> };
        }
      } catch {
        // parseArguments says what is wrong
      }
    }
    return parseArguments(this.buffer);
  }

  private scan(s: string): boolean {
    const n = s.length;
    let completed = false;
    let i = 0;
    let start = this.capture === 'none' ? -1 : 0;
    if (this.escape) {
      this.escape = false;
      i = 1;
      if (s.charCodeAt(0) === 117) this.hexPending = true;
    }
    if (this.hexPending && i < n) {
      this.hexPending = false;
      if ((s.charCodeAt(i) | 0x20) === 100) this.surrogates = true;
    }
    while (i < n) {
      if (this.inString) {
        let c = 0;
        while (i < n) {
          c = s.charCodeAt(i);
          if (c === 34 || c === 92 || (c & 0xf800) === 0xd800) break;
          i++;
        }
        if (i >= n) break;
        if (c === 92) {
          if (i + 1 < n) {
            // \uD800-\uDFFF escapes are the other way a lone surrogate gets in (see finish).
            if (s.charCodeAt(i + 1) === 117) {
              if (i + 2 >= n) this.hexPending = true;
              else if ((s.charCodeAt(i + 2) | 0x20) === 100) this.surrogates = true;
            }
            i += 2;
          } else {
            this.escape = true;
            i = n;
          }
          continue;
        }
        if (c !== 34) {
          this.surrogates = true;
          i++;
          continue;
        }
        this.inString = false;
        i++;
        if (this.capture === 'key') {
          const raw = this.take(s, start, i);
          start = -1;
          this.key = raw === undefined ? undefined : (parseOr(raw, undefined) as string | undefined);
          this.phase = 'colon';
        } else if (this.capture === 'value') {
          const raw = this.take(s, start, i);
          start = -1;
          if (raw !== undefined && this.key !== undefined) {
            const v = parseOr(raw, NONE);
            if (v !== NONE) {
              this.set(this.key, v);
              completed = true;
            }
          }
          this.phase = 'after';
        }
        continue;
      }
      const c = s.charCodeAt(i);
      if (this.capture === 'scalar') {
        if (c !== 44 && c !== 125 && c !== 93 && !isSpace(c)) {
          i++;
          continue;
        }
        const raw = this.take(s, start, i);
        start = -1;
        if (raw !== undefined && this.key !== undefined) {
          const v = parseOr(raw, NONE);
          if (v !== NONE) {
            this.set(this.key, v);
            completed = true;
          }
        }
        this.phase = 'after';
        // the delimiter is handled below
      }
      i++;
      if (isSpace(c)) continue;
      if (this.depth >= 2) {
        if (c === 34) this.inString = true;
        else if (c === 123 || c === 91) this.depth++;
        else if (c === 125 || c === 93) {
          this.depth--;
          if (this.depth === 1) this.phase = 'after';
        }
        continue;
      }
      if (this.depth === 0) {
        if (this.phase === 'start' && c === 123) {
          this.depth = 1;
          this.phase = 'key';
        } else {
          this.broken = true;
          return completed;
        }
        continue;
      }
      switch (this.phase) {
        case 'key':
          if (c === 34) {
            this.inString = true;
            this.begin('key');
            start = i - 1;
          } else if (c === 125) this.close();
          else this.broken = true;
          break;
        case 'colon':
          if (c === 58) this.phase = 'value';
          else this.broken = true;
          break;
        case 'value':
          if (c === 34) {
            this.inString = true;
            this.begin('value');
            start = i - 1;
          } else if (c === 123 || c === 91) {
            this.depth = 2;
          } else {
            this.begin('scalar');
            start = i - 1;
          }
          break;
        case 'after':
          if (c === 44) this.phase = 'key';
          else if (c === 125) this.close();
          else this.broken = true;
          break;
        default:
          this.broken = true;
      }
      if (this.broken) return completed;
    }
    if (this.capture !== 'none' && start >= 0) this.keep(s.slice(start));
    return completed;
  }

  private set(key: string, value: unknown): void {
    // defineProperty, so a key named "__proto__" is a plain field as it is for JSON.parse.
    Object.defineProperty(this.out, key, { value, enumerable: true, writable: true, configurable: true });
  }

  private begin(kind: 'key' | 'value' | 'scalar'): void {
    this.capture = kind;
    this.parts = [];
    this.captured = 0;
    this.oversize = false;
  }

  private close(): void {
    this.depth = 0;
    this.phase = 'end';
  }

  private keep(piece: string): void {
    if (this.oversize) return;
    this.captured += piece.length;
    if (this.captured > this.maxFieldLength) {
      this.oversize = true;
      this.parts = [];
    } else this.parts.push(piece);
  }

  /** Ends the current capture with s[start, end) and returns its JSON text, or undefined if too long. */
  private take(s: string, start: number, end: number): string | undefined {
    this.keep(s.slice(start, end));
    this.capture = 'none';
    if (this.oversize) return undefined;
    const raw = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    return raw;
  }
}

const NONE = Symbol('none');

function parseOr<T>(raw: string, fallback: T): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return fallback;
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}
