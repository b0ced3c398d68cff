import { describe, expect, it } from 'vitest';
import { DEFAULT_MODELS, costOf, lookupModel, priceUsage } from '../../src/providers/pricing.js';
import { PROVIDER_NAMES } from '../../src/providers/types.js';

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

describe('price table', () => {
  it('finds models by exact id, dated or suffixed variants and vendor prefixes, preferring the longest match', () => {
    expect(lookupModel('claude-sonnet-5-5')?.id).toBe('claude-sonnet-5-5');
    expect(lookupModel('claude-haiku-4-5-20251001')?.id).toBe('claude-haiku-4-5');
    expect(lookupModel('anthropic/claude-opus-4-1')?.id).toBe('claude-opus-4-1');
    expect(lookupModel('gpt-4o-mini-2024-07-18')?.id).toBe('gpt-4o-mini');
    expect(lookupModel('models/gemini-2.5-flash-lite')?.id).toBe('gemini-2.5-flash-lite');
    expect(lookupModel('GPT-6.2-SOL')?.id).toBe('gpt-6.2-sol');
  });

  it('does not guess: a different version or an unknown model has no price', () => {
    expect(lookupModel('gpt-5.9')).toBeUndefined();
    expect(lookupModel('llama-4-70b')).toBeUndefined();
    expect(priceUsage('llama-4-70b', { ...usage(10, 10), costUsd: 5 })).toEqual(usage(10, 10));
  });

  it('prices every kind of token, and the long-context tier on the whole request', () => {
    const haiku = lookupModel('claude-haiku-5-5')!.price;
    expect(costOf(haiku, usage(1_000, 1_000, 50_000, 10_000))).toBeCloseTo(
      (1_000 * 0.1 + 1_000 * 0.5 + 50_000 * 0.01 + 10_000 * 0.125) / 1e6,
    );
    expect(costOf(haiku, usage(1_000, 1_000, 100_000, 0))).toBeCloseTo(
      (1_000 * 0.5 + 1_000 * 2.5 + 100_000 * 0.05) / 1e6,
    );
    expect(priceUsage('gpt-6.2-sol', usage(1_000_000, 0)).costUsd).toBeCloseTo(4);
  });

  it('has a default model with a known price for every provider except openai-compatible', () => {
    for (const name of PROVIDER_NAMES) {
      const model = DEFAULT_MODELS[name];
      if (name === 'openai-compatible') expect(model).toBeUndefined();
      else expect(lookupModel(model!)?.contextWindow).toBeGreaterThan(0);
    }
  });
});
