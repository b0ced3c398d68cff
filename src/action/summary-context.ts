// What the summary says beyond the run's figures: the request as asked, and what the next step
// is on GitHub (the comment that continues the session, the input that raises a budget).
import type { AgentResult } from '../agent/index.js';
import { sanitizeUntrusted } from '../github/sanitize.js';
import type { RunSummaryInput } from '../report/summary.js';
import type { RunState } from './state.js';

export function summaryContext(
  s: RunState,
  result: AgentResult | undefined,
): Pick<RunSummaryInput, 'request' | 'next'> {
  const request = sanitizeUntrusted(s.task.request ?? '').trim();
  return {
    ...(request ? { request } : {}),
    next: {
      surface: 'action',
      ...(result?.budget ? { budget: result.budget } : {}),
      maxTurns: s.inputs.maxTurns,
      ...(s.inputs.maxCostUsd !== undefined ? { maxCostUsd: s.inputs.maxCostUsd } : {}),
      timeoutMinutes: s.inputs.timeoutMinutes,
      triggerPhrase: s.inputs.triggerPhrase,
      continueSession: s.inputs.continueSession,
      onThread: s.task.number !== undefined && !s.inputs.dryRun,
    },
  };
}
