import type { Usage } from '../protocol/types.js';
import type { ProviderName } from './types.js';

/** US dollars per million tokens. */
export interface Price {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /**
   * Rates for a request whose prompt (input + cache reads + cache writes) is above `threshold`
   * tokens; they apply to the whole request, output included.
   */
  longContext?: { threshold: number } & Omit<Price, 'longContext'>;
}

export interface ModelInfo {
  id: string;
  provider: 'anthropic' | 'openai' | 'google';
  price: Price;
  contextWindow: number;
  /** The most output tokens one response may have, where the request must name a limit. */
  maxOutputTokens?: number;
}

const M = 1_000_000;
const K = 1_000;

function p(input: number, output: number, cacheRead: number, cacheWrite = 0): Price {
  return { input, output, cacheRead, cacheWrite };
}

function long(
  price: Price,
  threshold: number,
  input: number,
  output: number,
  cacheRead: number,
  cacheWrite = 0,
): Price {
  return { ...price, longContext: { threshold, input, output, cacheRead, cacheWrite } };
}

function claude(id: string, price: Price, contextWindow: number, maxOutputTokens: number): ModelInfo {
  return { id, provider: 'anthropic', price, contextWindow, maxOutputTokens };
}

function gpt(id: string, price: Price, contextWindow: number): ModelInfo {
  return { id, provider: 'openai', price, contextWindow };
}

function gemini(id: string, price: Price, contextWindow = 1_048_576): ModelInfo {
  return { id, provider: 'google', price, contextWindow };
}

// List prices as published in November 2026; Bedrock, Vertex AI and Azure bill their global
// endpoints at the same rates (cloud ids are looked up by their direct form, canonicalModelId). Anthropic: cache writes at the 5-minute rate.
// OpenAI bills cached input at its own rate but reports no cache-write count, so no write price
// is used; the GPT-6 family bills a request above 272K input tokens at 2x input and 1.5x output.
// Gemini 3.8 Flash is at its promotional rate, which doubles on 2027-01-01. Where a provider
// publishes no cache-read rate for a model, its usual 10% of input is assumed.
const MODELS: ModelInfo[] = [
  claude('claude-fable-5-1', p(10, 50, 0.25, 12.5), 1_000_000, 128_000),
  claude('claude-mythos-5-1', p(10, 50, 0.25, 12.5), 1_000_000, 128_000),
  claude('claude-fable-5', p(10, 50, 1, 12.5), 1_000_000, 128_000),
  claude('claude-mythos-5', p(10, 50, 1, 12.5), 1_000_000, 128_000),
  claude('claude-opus-5-5', p(4, 20, 0.2, 5), 1_000_000, 128_000),
  claude('claude-opus-5', p(5, 25, 0.5, 6.25), 1_000_000, 128_000),
  claude('claude-opus-4-8', p(5, 25, 0.5, 6.25), 1_000_000, 128_000),
  claude('claude-opus-4-7', p(5, 25, 0.5, 6.25), 1_000_000, 128_000),
  claude('claude-opus-4-6', p(5, 25, 0.5, 6.25), 1_000_000, 128_000),
  claude('claude-opus-4-5', p(5, 25, 0.5, 6.25), 200_000, 64_000),
  claude('claude-opus-4-1', p(15, 75, 1.5, 18.75), 200_000, 32_000),
  claude('claude-opus-4', p(15, 75, 1.5, 18.75), 200_000, 32_000),
  claude('claude-sonnet-5-5', p(2, 10, 0.2, 2.5), 1_000_000, 128_000),
  claude('claude-sonnet-5', p(2, 10, 0.2, 2.5), 1_000_000, 128_000),
  claude('claude-sonnet-4-6', p(3, 15, 0.3, 3.75), 1_000_000, 64_000),
  claude('claude-sonnet-4-5', p(3, 15, 0.3, 3.75), 200_000, 64_000),
  claude('claude-sonnet-4', p(3, 15, 0.3, 3.75), 200_000, 64_000),
  claude(
    'claude-haiku-5-5',
    long(p(0.1, 0.5, 0.01, 0.125), 100 * K, 0.5, 2.5, 0.05, 0.625),
    1_000_000,
    128_000,
  ),
  claude('claude-haiku-4-5', p(1, 5, 0.1, 1.25), 200_000, 64_000),

  gpt('gpt-6.2-astra', long(p(8, 40, 0.4), 272 * K, 16, 60, 0.8), 1_050_000),
  gpt('gpt-6.2-sol', long(p(2, 10, 0.1), 272 * K, 4, 15, 0.2), 1_050_000),
  gpt('gpt-6.1-sol', long(p(2, 10, 0.1), 272 * K, 4, 15, 0.2), 1_050_000),
  gpt('gpt-6-astra', long(p(10, 50, 1), 272 * K, 20, 75, 2), 1_050_000),
  gpt('gpt-6-sol', long(p(2, 10, 0.2), 272 * K, 4, 15, 0.4), 1_050_000),
  gpt('gpt-6-luna', long(p(0.1, 0.5, 0.01), 272 * K, 0.2, 0.75, 0.02), 1_050_000),
  gpt('gpt-5.6-sol', p(4, 20, 0.4), 1_050_000),
  gpt('gpt-5.6-terra', p(2, 12, 0.2), 1_050_000),
  gpt('gpt-5.6-luna', p(0.2, 1.2, 0.02), 1_050_000),
  gpt('gpt-5.3-codex', p(1.75, 14, 0.175), 400_000),
  gpt('gpt-5.2', p(1.75, 14, 0.175), 400_000),
  gpt('gpt-5.1-codex', p(1.25, 10, 0.125), 400_000),
  gpt('gpt-5.1', p(1.25, 10, 0.125), 400_000),
  gpt('gpt-5-mini', p(0.25, 2, 0.025), 400_000),
  gpt('gpt-5-nano', p(0.05, 0.4, 0.005), 400_000),
  gpt('gpt-5', p(1.25, 10, 0.125), 400_000),
  gpt('gpt-4.1-mini', p(0.4, 1.6, 0.1), 1_047_576),
  gpt('gpt-4.1-nano', p(0.1, 0.4, 0.025), 1_047_576),
  gpt('gpt-4.1', p(2, 8, 0.5), 1_047_576),
  gpt('gpt-4o-mini', p(0.15, 0.6, 0.075), 128_000),
  gpt('gpt-4o', p(2.5, 10, 1.25), 128_000),
  gpt('o4-mini', p(1.1, 4.4, 0.275), 200_000),
  gpt('o3', p(2, 8, 0.5), 200_000),

  gemini('gemini-4-neon', p(3, 15, 0.15)),
  gemini('gemini-4-hydrogen', p(1.5, 7.5, 0.075)),
  gemini('gemini-3.8-flash', p(0.75, 3.75, 0.075)),
  gemini('gemini-3.5-flash', p(1.5, 9, 0.15)),
  gemini('gemini-3.1-pro-preview', long(p(2, 12, 0.2), 200 * K, 4, 18, 0.4)),
  gemini('gemini-2.5-pro', long(p(1.25, 10, 0.125), 200 * K, 2.5, 15, 0.25)),
  gemini('gemini-2.5-flash-lite', p(0.1, 0.4, 0.01)),
  gemini('gemini-2.5-flash', p(0.3, 2.5, 0.03)),
];

export const DEFAULT_MODELS: Readonly<Record<ProviderName, string | undefined>> = {
  anthropic: 'claude-sonnet-5-5',
  openai: 'gpt-6.2-sol',
  'openai-responses': 'gpt-6.2-sol',
  google: 'gemini-3.5-flash',
  // An OpenAI-compatible server serves whatever it serves: the model must be named.
  'openai-compatible': undefined,
  // The clouds' ids for the same models (global endpoints: served from any region's quota).
  'anthropic-bedrock': 'global.anthropic.claude-sonnet-5-5-v1:0',
  'anthropic-vertex': 'claude-sonnet-5-5',
  'google-vertex': 'gemini-3.5-flash',
  // The deployment's name; a deployment named after its model is priced as that model.
  'azure-openai': 'gpt-6.2-sol',
};

/**
 * A model id in the direct APIs' form. Bedrock: `anthropic.claude-sonnet-4-5-20250929-v1:0`, with
 * a cross-region profile's prefix (`us.`, `eu.`, `apac.`, `global.`) or as an ARN
 * (`arn:aws:bedrock:…:inference-profile/us.anthropic.…`); Vertex: `claude-sonnet-4-5@20250929`,
 * `publishers/google/models/gemini-2.5-pro`. A vendor prefix like `anthropic/` or `models/` goes.
 */
export function canonicalModelId(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/^.*\//, '')
    .replace(/^(?:[a-z]{2,6}(?:-[a-z]+)?\.)?anthropic\./, '')
    .replace(/-v\d+(?::\d+)?$/, '');
}

/**
 * The table entry for a model id: an exact match, else the longest entry the id starts with
 * (dated and suffixed variants such as `claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`,
 * `models/gemini-2.5-pro`). A vendor prefix like `anthropic/` or `models/` is ignored.
 */
export function lookupModel(model: string): ModelInfo | undefined {
  const id = canonicalModelId(model);
  const exact = MODELS.find((m) => m.id === id);
  if (exact) return exact;
  let best: ModelInfo | undefined;
  for (const m of MODELS) {
    if (
      id.startsWith(m.id) &&
      /^([-@:]|$)/.test(id.slice(m.id.length)) &&
      (!best || m.id.length > best.id.length)
    ) {
      best = m;
    }
  }
  return best;
}

/** Cost in USD of one request's usage at `price`. Input tokens here exclude cache reads and writes. */
export function costOf(price: Price, usage: Usage): number {
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  const rate = price.longContext && prompt > price.longContext.threshold ? price.longContext : price;
  return (
    (usage.inputTokens * rate.input +
      usage.outputTokens * rate.output +
      usage.cacheReadTokens * rate.cacheRead +
      usage.cacheWriteTokens * rate.cacheWrite) /
    M
  );
}

/** The usage with `costUsd` set when the model's price is known, and without it otherwise. */
export function priceUsage(model: string, usage: Usage): Usage {
  const info = lookupModel(model);
  const { costUsd: _drop, ...rest } = usage;
  return info ? { ...rest, costUsd: costOf(info.price, rest) } : rest;
}
