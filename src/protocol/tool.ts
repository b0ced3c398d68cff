import type { ImageContent, TextContent } from './types.js';

/** A JSON Schema object (draft-07 subset as ajv takes it). */
export type JsonSchema = Record<string, unknown>;

/** What a model is told about a tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the argument object; `additionalProperties: false` is honoured. */
  parameters: JsonSchema;
}

/** What a tool's execute returns: `content` goes to the model, `details` only to people. */
export interface ToolOutput<TDetails = unknown> {
  content: (TextContent | ImageContent)[];
  details?: TDetails;
  isError?: boolean;
}

export interface ToolContext {
  signal: AbortSignal;
  toolCallId: string;
  /** Progress for the UI (partial output); optional. */
  onUpdate?: (partial: ToolOutput) => void;
}

/**
 * A tool the runtime may run on the model's behalf. `execute` receives arguments already parsed
 * and validated against `parameters`; it may throw, and the runtime turns that into an error result.
 */
export interface AgentTool<TArgs = Record<string, unknown>, TDetails = unknown> extends ToolDefinition {
  /** True when the tool never changes the workspace, so calls of it may run side by side. */
  readOnly?: boolean;
  /**
   * Checks the arguments instead of the registry's draft-07 check of `parameters`: for a tool
   * whose schema is of another draft (submit_answer's user-given 2020-12 schema) and that checks
   * it itself. Returns the error text the model gets, or undefined when the arguments may run.
   */
  checkArguments?(args: Record<string, unknown>): string | undefined;
  execute(args: TArgs, ctx: ToolContext): Promise<ToolOutput<TDetails>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAgentTool = AgentTool<any, any>;

/*
 * Argument types derived from a tool's JSON Schema, so the schema the model is shown and the type
 * `execute` receives cannot drift apart. Covers what the tools' schemas use: an object of
 * properties typed string, number, integer, boolean, array (of those) or `enum`, with `required`.
 * Write the schema `as const` (or pass it straight to defineTool) so its literals are kept.
 */
type Prop =
  | { readonly enum: readonly unknown[] }
  | {
      readonly type: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
      readonly items?: Prop;
    };

type ValueOf<P> = P extends { readonly enum: readonly (infer E)[] }
  ? E
  : P extends { readonly type: 'string' }
    ? string
    : P extends { readonly type: 'number' | 'integer' }
      ? number
      : P extends { readonly type: 'boolean' }
        ? boolean
        : P extends { readonly type: 'array'; readonly items: infer I }
          ? ValueOf<I>[]
          : P extends { readonly type: 'array' }
            ? unknown[]
            : Record<string, unknown>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The argument object a schema `{ type: 'object', properties, required }` describes. */
export type ArgsOf<S> = S extends { readonly properties: infer P extends Record<string, Prop> }
  ? Simplify<
      {
        -readonly [K in keyof P as K extends RequiredOf<S> ? K : never]: ValueOf<P[K]>;
      } & {
        -readonly [K in keyof P as K extends RequiredOf<S> ? never : K]?: ValueOf<P[K]>;
      }
    >
  : Record<string, never>;

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

/** A tool whose `execute` takes exactly the arguments its `parameters` schema describes. */
export function defineTool<const S extends JsonSchema, TDetails = unknown>(
  tool: Omit<AgentTool<ArgsOf<S>, TDetails>, 'parameters'> & { parameters: S },
): AgentTool<ArgsOf<S>, TDetails> {
  return tool;
}

export function textOutput(text: string, isError = false): ToolOutput {
  return { content: [{ type: 'text', text }], isError };
}

/** Thrown by tools for an expected failure the model should read (bad path, no match, ...). */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}
