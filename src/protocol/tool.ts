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
  execute(args: TArgs, ctx: ToolContext): Promise<ToolOutput<TDetails>>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAgentTool = AgentTool<any, any>;

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
