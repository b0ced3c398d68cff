import { describe, expect, it } from 'vitest';
import { exhaustedBudget } from '../../src/agent/budget.js';
import { emptyUsage } from '../../src/protocol/types.js';

const use = (over: Partial<Parameters<typeof exhaustedBudget>[1]> = {}) => ({
  turns: 0,
  usage: emptyUsage(),
  elapsedMs: 0,
  ...over,
});

describe('budgets', () => {
  it('allows turns up to max-turns and no further', () => {
    expect(exhaustedBudget({ maxTurns: 3 }, use({ turns: 2 }))).toBeUndefined();
    expect(exhaustedBudget({ maxTurns: 3 }, use({ turns: 3 }))).toMatchObject({
      budget: 'turns',
      limit: 3,
      used: 3,
    });
  });

  it('stops before a turn whose estimated cost would pass the limit', () => {
    const usage = { ...emptyUsage(), costUsd: 0.9 };
    expect(
      exhaustedBudget({ maxTurns: 99, maxCostUsd: 1 }, use({ usage, lastTurnCostUsd: 0.05 })),
    ).toBeUndefined();
    const stop = exhaustedBudget({ maxTurns: 99, maxCostUsd: 1 }, use({ usage, lastTurnCostUsd: 0.2 }));
    expect(stop).toMatchObject({ budget: 'cost', limit: 1, used: 0.9 });
    expect(stop!.message).toContain('max-cost-usd');
  });

  it('cannot enforce a cost limit without a price', () => {
    expect(
      exhaustedBudget({ maxTurns: 99, maxCostUsd: 0.01 }, use({ lastTurnCostUsd: undefined })),
    ).toBeUndefined();
  });

  it('stops when the wall clock budget is spent', () => {
    expect(exhaustedBudget({ maxTurns: 99, timeoutMs: 1000 }, use({ elapsedMs: 999 }))).toBeUndefined();
    expect(exhaustedBudget({ maxTurns: 99, timeoutMs: 1000 }, use({ elapsedMs: 1000 }))).toMatchObject({
      budget: 'time',
    });
  });
});
