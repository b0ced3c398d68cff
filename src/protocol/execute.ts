import { compileValidator, loneSurrogateIn, parseArguments, type Validator } from './arguments.js';
import { errorResult } from './pairing.js';
import { ToolError, type AnyAgentTool, type ToolOutput } from './tool.js';
import type { ToolCall, ToolResultMessage } from './types.js';

let changes = 0;

/**
 * How many times a tool that may change the workspace (one not marked `readOnly`: an edit, a
 * write, a command) has started or finished running. Answers derived from the tree (the listing
 * tools' cached `git ls-files`) are good while this stays the same.
 */
export function workspaceChanges(): number {
  return changes;
}

function validatorOf(tool: AnyAgentTool): Validator {
  const own = tool.checkArguments?.bind(tool);
  if (!own) return compileValidator(tool);
  return (args) => {
    const error = own(args);
    return error === undefined ? { ok: true } : { ok: false, error };
  };
}

/** A set of tools with their validators compiled once. */
export class ToolRegistry {
  private readonly entries = new Map<string, { tool: AnyAgentTool; validate: Validator }>();

  constructor(tools: readonly AnyAgentTool[]) {
    for (const tool of tools) this.entries.set(tool.name, { tool, validate: validatorOf(tool) });
  }

  get tools(): AnyAgentTool[] {
    return [...this.entries.values()].map((e) => e.tool);
  }

  get(name: string): AnyAgentTool | undefined {
    return this.entries.get(name)?.tool;
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * Runs one tool call and returns exactly one result. Never throws: unknown tools, unparsable
   * or invalid arguments, exceptions and aborts all become error results the model can read.
   */
  async execute(
    call: ToolCall,
    signal: AbortSignal,
    onUpdate?: (partial: ToolOutput) => void,
  ): Promise<ToolResultMessage> {
    const entry = this.entries.get(call.name);
    if (!entry) {
      return errorResult(
        call,
        `Unknown tool "${call.name}". Available tools: ${this.names().join(', ') || '(none)'}.`,
      );
    }
    let args: Record<string, unknown>;
    if (typeof call.input === 'string') {
      const parsed = parseArguments(call.input);
      if (!parsed.ok) return errorResult(call, `Invalid arguments for ${call.name}: ${parsed.error}`);
      args = parsed.value;
    } else if (call.input === null || typeof call.input !== 'object' || Array.isArray(call.input)) {
      return errorResult(call, `Invalid arguments for ${call.name}: the arguments must be a JSON object.`);
    } else {
      // Adapters hand over parsed objects; their strings may still hold text that is not valid UTF-16.
      const lone = loneSurrogateIn(call.input);
      if (lone) {
        return errorResult(
          call,
          `Invalid arguments for ${call.name}: they contain an unpaired UTF-16 surrogate at ${lone}, which is not valid text.`,
        );
      }
      args = call.input;
    }
    const checked = entry.validate(args);
    const valid = checked instanceof Promise ? await checked : checked;
    if (!valid.ok) return errorResult(call, valid.error);
    if (signal.aborted)
      return errorResult(call, 'Tool call not run: the run was aborted before the tool ran.');
    const mayChange = entry.tool.readOnly !== true;
    if (mayChange) changes++;
    try {
      const out = await entry.tool.execute(args, { signal, toolCallId: call.id, onUpdate });
      const result: ToolResultMessage = {
        role: 'toolResult',
        toolCallId: call.id,
        toolName: call.name,
        content: out.content.length > 0 ? out.content : [{ type: 'text', text: '(no output)' }],
        isError: out.isError === true,
        timestamp: Date.now(),
      };
      if (out.details !== undefined) result.details = out.details;
      return result;
    } catch (err) {
      if (signal.aborted) {
        return errorResult(call, 'Tool call aborted: the run was cancelled while the tool was running.');
      }
      const message = err instanceof Error ? err.message : String(err);
      const result = errorResult(
        call,
        err instanceof ToolError ? message : `${call.name} failed: ${message}`,
      );
      if (err instanceof ToolError && err.details !== undefined) result.details = err.details;
      return result;
    } finally {
      if (mayChange) changes++;
    }
  }
}
