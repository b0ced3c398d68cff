// The session's model: the primary provider, and the fallback it moves to when the primary fails
// after its retries (CONTRACT §2 `fallback-model`). One builder for the action and the CLI.
import { createFallbackProvider, createProvider } from './index.js';
import type { Surface } from './cloud-credentials.js';
import type { Provider, ProviderName } from './types.js';

export interface SessionProviderConfig {
  provider: ProviderName;
  model?: string;
  apiKey?: string;
  baseUrl?: string;
  /** `provider:model`, already parsed; its key and base URL come from that provider's usual variables */
  fallback?: { provider: ProviderName; model: string };
  env: NodeJS.ProcessEnv;
  /** Where the user sets things (errors and hints are worded for it); default: the action. */
  surface?: Surface;
}

/** Throws an Error that names what is missing (a key, an unknown model) when a provider cannot be built. */
export function createSessionProvider(c: SessionProviderConfig): Provider {
  const primary = createProvider({
    provider: c.provider,
    model: c.model,
    apiKey: c.apiKey,
    baseUrl: c.baseUrl,
    env: c.env,
    ...(c.surface ? { surface: c.surface } : {}),
  });
  if (!c.fallback) return primary;
  const fallback = createProvider({
    provider: c.fallback.provider,
    model: c.fallback.model,
    env: c.env,
    ...(c.surface ? { surface: c.surface } : {}),
  });
  return createFallbackProvider(primary, fallback);
}
