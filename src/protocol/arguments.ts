import type { Ajv, ErrorObject } from 'ajv';
import type { JsonSchema, ToolDefinition } from './tool.js';
import { precompiledChecks, type SchemaCheck } from './tool-validators.js';

// Argument text comes from a model and is untrusted until it has been parsed and validated here.

export type ParseResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

const MAX_ECHO = 2000;

/** Shortens text for echoing back to the model inside an error message. */
export function echo(text: string, max = MAX_ECHO): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** Index of the first unpaired UTF-16 surrogate in s, or -1. */
export function findLoneSurrogate(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

/** Path of the first string (or key) in value holding an unpaired surrogate, or undefined. */
export function loneSurrogateIn(value: unknown, path = '', depth = 0): string | undefined {
  if (depth > 200) return undefined;
  if (typeof value === 'string') return findLoneSurrogate(value) >= 0 ? path || '(value)' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = loneSurrogateIn(value[i], `${path}[${i}]`, depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (findLoneSurrogate(k) >= 0) return `${path}/${k}`;
      const hit = loneSurrogateIn(v, path ? `${path}.${k}` : k, depth + 1);
      if (hit) return hit;
    }
  }
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * Parses tool-call argument text. Never throws: invalid or truncated JSON, a non-object, or a
 * string holding a lone surrogate (text that cannot be encoded as UTF-8) each give an error that
 * says what was wrong and echoes what was received.
 */
export function parseArguments(text: string): ParseResult {
  const trimmed = text.trim();
  // Some providers send nothing at all for a call without arguments.
  if (trimmed === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      error: `The arguments are not valid JSON (${reason}). Send one JSON object. Received: ${echo(text)}`,
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      error: `The arguments must be a JSON object, but they were ${kindOf(value)}. Received: ${echo(text)}`,
    };
  }
  const lone = loneSurrogateIn(value, '');
  if (lone) {
    return {
      ok: false,
      error: `The arguments contain an unpaired UTF-16 surrogate escape at ${lone}, which is not valid text. Received: ${echo(text)}`,
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

export type ValidationResult = { ok: true } | { ok: false; error: string };
/** Synchronous, except at the first use of a schema that has to be compiled (ajv is then loaded). */
export type Validator = (args: Record<string, unknown>) => ValidationResult | Promise<ValidationResult>;

/** The options of every check, ahead of time (scripts/bundle.mjs) and at first use alike. */
export const AJV_OPTIONS = {
  allErrors: true,
  strict: false,
  coerceTypes: false,
  useDefaults: false,
  // a server's schema may name formats ajv does not know ("uri"): they are left to the server to
  // check, without a warning on the runner's log for every schema
  logger: false,
} as const;

// Loaded only for a schema the bundle has no check for: compiling the first schema also compiles
// ajv's meta-schema, 30–40 ms that would otherwise sit between spawn and the first request.
let ajv: Promise<Ajv> | undefined;

function compileCheck(schema: JsonSchema): SchemaCheck | Promise<SchemaCheck> {
  const ready = precompiledChecks.get(JSON.stringify(schema));
  if (ready) return ready;
  // In the bundle ajv is a chunk of its own whose only export is `default` (its CommonJS
  // exports): the class is then `default.Ajv`, not a named export ("s is not a constructor").
  ajv ??= import('ajv').then((m) => {
    const cjs = (m as { default?: { Ajv?: typeof m.Ajv } }).default;
    const AjvClass = m.Ajv ?? cjs?.Ajv;
    if (!AjvClass) throw new Error('ajv could not be loaded');
    return new AjvClass(AJV_OPTIONS);
  });
  return ajv.then((a) => a.compile(schema));
}

function describe(e: ErrorObject): string {
  const at = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '';
  switch (e.keyword) {
    case 'required':
      return `missing required parameter "${at ? `${at}.` : ''}${String(e.params.missingProperty)}"`;
    case 'additionalProperties':
      return `unknown parameter "${at ? `${at}.` : ''}${String(e.params.additionalProperty)}"`;
    case 'type':
      return `"${at || '(arguments)'}" must be ${String(e.params.type)}`;
    case 'enum':
      return `"${at}" must be one of ${JSON.stringify(e.params.allowedValues)}`;
    default:
      return `"${at || '(arguments)'}" ${e.message ?? 'is invalid'}`;
  }
}

/**
 * A tool's schema check, compiled once at its first use (or taken from the bundle's precompiled
 * checks); the returned function lists every problem with the arguments.
 */
export function compileValidator(tool: Pick<ToolDefinition, 'name' | 'parameters'>): Validator {
  let check: SchemaCheck | Promise<SchemaCheck> | undefined;
  const run = (validate: SchemaCheck, args: Record<string, unknown>): ValidationResult => {
    if (validate(args)) return { ok: true };
    const problems = (validate.errors ?? []).map(describe);
    const unique = [...new Set(problems)];
    let received: string;
    try {
      received = echo(JSON.stringify(args));
    } catch {
      received = '(unprintable)';
    }
    return {
      ok: false,
      error: `Invalid arguments for ${tool.name}:\n${unique.map((p) => `- ${p}`).join('\n')}\nReceived: ${received}`,
    };
  };
  const failed = (err: unknown): ValidationResult => ({
    ok: false,
    error: `The schema of ${tool.name} could not be compiled, so its arguments cannot be checked: ${err instanceof Error ? err.message : String(err)}`,
  });
  // Synchronous once the check exists: a caller's next step (starting the tool) is not put off by a tick.
  return (args) => {
    try {
      check ??= compileCheck(tool.parameters as JsonSchema);
    } catch (err) {
      return failed(err);
    }
    if (!(check instanceof Promise)) return run(check, args);
    return check.then(
      (ready) => run((check = ready), args),
      (err: unknown) => failed(err),
    );
  };
}
