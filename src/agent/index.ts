/**
 * The agent loop (src/agent): everything the entry points (action, CLI) need.
 *
 *   runAgent(options: AgentOptions): Promise<AgentResult>   — never throws
 *     Asks options.provider for a turn, runs the tool calls it makes (read-only calls side by
 *     side, results in call order), appends the results and repeats until the model stops
 *     (`success`), a turn fails after the provider's retries and fallback (`failure`, with
 *     `error`), options.signal aborts (`cancelled`) or a budget runs out (`budget-exceeded`, with
 *     `budget`: turns | cost | time). Every tool call gets exactly one result. Each message and
 *     event is written to options.transcript as it completes; the caller writes the session line
 *     before and the summary line after.
 *
 *   buildSystemPrompt({ repository?, toolNames?, agentsMd?, instructions? }): string
 *   loadAgentsMd(root): string | undefined   — AGENTS.md at the workspace root (no symlinks)
 *
 *   AgentEvent — progress for timelines and the tracking comment (turn_start, text_delta,
 *   turn_end, tool_start, tool_end with durationMs, retry, fallback, compaction, continue,
 *   budget, cancel, error).
 */
export { runAgent, type AgentOptions, type AgentResult, type AgentConclusion } from './loop.js';
export { buildSystemPrompt, loadAgentsMd, type SystemPromptOptions } from './system-prompt.js';
export type { AgentEvent, BudgetKind, CompactionReason } from './events.js';
export { estimateTokens, contextTokens, compactMessages } from './compaction.js';
