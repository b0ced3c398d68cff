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
 *     before and the summary line after. A failure of the model request says which request
 *     (`failedRequest`: provider, model, error kind, HTTP status).
 *
 *   testsAtEnd(messages, testCommand?): TestsAtEnd | undefined   — how the last test run ended
 *     (run_tests, or bash running the test command), from the results' exit codes
 *
 *   buildSystemPrompt({ repository?, toolNames?, agentsMd?, instructions? }): string
 *   loadAgentsMd(root): string | undefined   — AGENTS.md at the workspace root (no symlinks)
 *
 *   AgentEvent — progress for timelines and the tracking comment (turn_start, text_delta,
 *   turn_end, tool_start, tool_end with durationMs, retry and fallback with the usage billed for
 *   what failed, compaction, continue (after a reply cut at the output limit, an empty stop turn
 *   or a tool call the API could not read), budget, cancel, error, notice (what an SDK printed by
 *   itself)).
 *
 *   How each stop reason is handled: toolUse runs the calls (every call, also where the provider
 *   repeated an id); stop ends the run, except an empty one, which gets one nudge; length runs the
 *   calls and asks the model to continue (three in a row end the run); error compacts on a
 *   context-length error (as often as needed: once per overflow since the last successful turn),
 *   tells the model about a malformed call, or ends the run; aborted closes every open call.
 */
export {
  runAgent,
  type AgentOptions,
  type AgentResult,
  type AgentConclusion,
  type FailedRequest,
  type PendingMessage,
} from './loop.js';
export { testsAtEnd, testsFailingError, type TestsAtEnd } from './tests-at-end.js';
export { buildSystemPrompt, loadAgentsMd, type SystemPromptOptions } from './system-prompt.js';
export type { AgentEvent, BudgetKind, CompactionReason, ContinueReason } from './events.js';
export { estimateTokens, contextTokens, compactMessages } from './compaction.js';
