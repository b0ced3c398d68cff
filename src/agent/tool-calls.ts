import type { ToolRegistry } from '../protocol/execute.js';
import type { ToolCall, ToolResultMessage } from '../protocol/types.js';
import type { AgentEvent } from './events.js';

export interface ToolRunContext {
  registry: ToolRegistry;
  signal: AbortSignal;
  turn: number;
  emit: (e: AgentEvent) => void;
  now: () => number;
  /** Called with each result in call order, as soon as it and every earlier one are ready. */
  onResult: (result: ToolResultMessage) => void;
}

/**
 * Runs a turn's calls in order. Neighbouring calls of read-only tools run side by side, since
 * they cannot conflict; everything else runs alone. Each call yields exactly one result.
 */
export async function runToolCalls(
  calls: readonly ToolCall[],
  ctx: ToolRunContext,
): Promise<ToolResultMessage[]> {
  const results: ToolResultMessage[] = [];
  let i = 0;
  while (i < calls.length) {
    let end = i + 1;
    if (isReadOnly(ctx.registry, calls[i]!)) {
      while (end < calls.length && isReadOnly(ctx.registry, calls[end]!)) end++;
    }
    const batch = calls.slice(i, end);
    const done = await Promise.all(batch.map((call) => runOne(call, ctx)));
    for (const r of done) {
      results.push(r);
      ctx.onResult(r);
    }
    i = end;
  }
  return results;
}

function isReadOnly(registry: ToolRegistry, call: ToolCall): boolean {
  return registry.get(call.name)?.readOnly === true;
}

async function runOne(call: ToolCall, ctx: ToolRunContext): Promise<ToolResultMessage> {
  const started = ctx.now();
  ctx.emit({ type: 'tool_start', turn: ctx.turn, call });
  const result = await ctx.registry.execute(call, ctx.signal);
  ctx.emit({ type: 'tool_end', turn: ctx.turn, call, result, durationMs: ctx.now() - started });
  return result;
}
