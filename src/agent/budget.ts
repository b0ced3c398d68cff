import { formatDuration } from '../protocol/format.js';
import type { Usage } from '../protocol/types.js';
import type { BudgetKind } from './events.js';

export interface BudgetLimits {
  maxTurns: number;
  maxCostUsd?: number;
  timeoutMs?: number;
}

export interface BudgetUse {
  turns: number;
  usage: Usage;
  /** Cost of the latest turn, the estimate for the next one (the context only grows). */
  lastTurnCostUsd?: number;
  elapsedMs: number;
}

export interface BudgetStop {
  budget: BudgetKind;
  limit: number;
  used: number;
  message: string;
}

/**
 * Checked before every model request: returns the budget that forbids another turn, if any.
 * Cost is only enforced when the price is known (usage carries costUsd).
 */
export function exhaustedBudget(limits: BudgetLimits, use: BudgetUse): BudgetStop | undefined {
  if (use.turns >= limits.maxTurns) {
    return {
      budget: 'turns',
      limit: limits.maxTurns,
      used: use.turns,
      message: `Stopped after ${use.turns} turn${use.turns === 1 ? '' : 's'}: the max-turns budget (${limits.maxTurns}) is used up.`,
    };
  }
  if (limits.timeoutMs !== undefined && use.elapsedMs >= limits.timeoutMs)
    return timeStop(limits.timeoutMs, use.elapsedMs);
  const spent = use.usage.costUsd;
  if (limits.maxCostUsd !== undefined && spent !== undefined) {
    const next = use.lastTurnCostUsd ?? 0;
    if (spent + next > limits.maxCostUsd) {
      return {
        budget: 'cost',
        limit: limits.maxCostUsd,
        used: spent,
        message: `Stopped at an estimated $${spent.toFixed(4)}: another turn (about $${next.toFixed(4)}) would pass the max-cost-usd budget ($${limits.maxCostUsd}).`,
      };
    }
  }
  return undefined;
}

export function timeStop(timeoutMs: number, elapsedMs: number): BudgetStop {
  return {
    budget: 'time',
    limit: timeoutMs,
    used: elapsedMs,
    message: `Stopped after ${formatDuration(elapsedMs)}: the time budget (${formatDuration(timeoutMs)}) ran out.`,
  };
}
