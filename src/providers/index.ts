import { emptyUsage } from '../protocol/types.js';
import { capabilitiesOf } from './capabilities.js';
import {
  readAwsCredentials,
  readAwsRegion,
  readAzureCredentials,
  readGoogleCredentials,
  type Surface,
} from './cloud-credentials.js';
import type { FailureHints } from './hints.js';
import { DEFAULT_MODELS } from './pricing.js';
import type { RetryPolicy } from './retry.js';
import {
  PROVIDER_NAMES,
  type AssistantEvent,
  type Context,
  type Provider,
  type ProviderName,
  type StreamOptions,
} from './types.js';

export interface ProviderConfig {
  provider: ProviderName;
  /** Empty or absent: the provider's default model. */
  model?: string;
  /** Empty or absent: the provider's usual environment variable. */
  apiKey?: string;
  /** Empty or absent: the provider's usual base-URL variable, else the SDK's default. */
  baseUrl?: string;
  env?: NodeJS.ProcessEnv;
  retry?: Partial<RetryPolicy>;
  /** Where the user sets things, for the wording of errors and hints; default: the action's. */
  surface?: Surface;
}

/** Where each provider's key and base URL come from when the inputs leave them empty. */
export const PROVIDER_ENV: Readonly<Record<ProviderName, { key: string[]; baseUrl: string[] }>> = {
  anthropic: { key: ['ANTHROPIC_API_KEY'], baseUrl: ['ANTHROPIC_BASE_URL'] },
  openai: { key: ['OPENAI_API_KEY'], baseUrl: ['OPENAI_BASE_URL'] },
  'openai-responses': { key: ['OPENAI_API_KEY'], baseUrl: ['OPENAI_BASE_URL'] },
  google: {
    key: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    baseUrl: ['GEMINI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL'],
  },
  'openai-compatible': { key: ['OPENAI_API_KEY'], baseUrl: ['OPENAI_BASE_URL'] },
  // The clouds' credentials are read by cloud-credentials.ts; these are the ones to mask, and the
  // base-URL variables the clouds' own SDKs read.
  'anthropic-bedrock': {
    key: ['AWS_BEARER_TOKEN_BEDROCK', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_ACCESS_KEY_ID'],
    baseUrl: ['ANTHROPIC_BEDROCK_BASE_URL'],
  },
  'anthropic-vertex': { key: [], baseUrl: ['ANTHROPIC_VERTEX_BASE_URL'] },
  'google-vertex': { key: [], baseUrl: ['GOOGLE_VERTEX_BASE_URL'] },
  'azure-openai': {
    key: ['AZURE_OPENAI_API_KEY', 'AZURE_OPENAI_AD_TOKEN'],
    baseUrl: ['AZURE_OPENAI_ENDPOINT'],
  },
};

const CLOUDS = new Set<ProviderName>([
  'anthropic-bedrock',
  'anthropic-vertex',
  'google-vertex',
  'azure-openai',
]);

export function isCloudProvider(name: string): boolean {
  return CLOUDS.has(name as ProviderName);
}

export function isProviderName(value: string): value is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(value);
}

function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined {
  for (const n of names) {
    const v = env[n]?.trim();
    if (v) return v;
  }
  return undefined;
}

/**
 * Builds the provider the inputs name. Throws (before any request) when the configuration
 * cannot work: an unknown provider, no key, no model or base URL for `openai-compatible`.
 */
export function createProvider(config: ProviderConfig): Provider {
  const env = config.env ?? process.env;
  const name = String(config.provider ?? '').trim();
  if (!isProviderName(name)) {
    throw new Error(`Unknown provider "${name}". Use one of: ${PROVIDER_NAMES.join(', ')}.`);
  }
  const vars = PROVIDER_ENV[name];
  const surface = config.surface ?? 'action';
  const cli = surface === 'cli';
  const model = config.model?.trim() || DEFAULT_MODELS[name];
  if (!model)
    throw new Error(
      `The ${name} provider needs a model: ${cli ? 'pass --model' : 'set the model input of the patchloop step'}.`,
    );
  const baseUrl = config.baseUrl?.trim() || firstSet(env, vars.baseUrl);
  const defaultModel = DEFAULT_MODELS[name];
  const hints: FailureHints = {
    provider: name,
    model,
    ...(defaultModel ? { defaultModel } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    baseUrlVars: vars.baseUrl,
    keyVars: vars.key,
    surface,
  };
  if (isCloudProvider(name)) return createCloudProvider(name, model, config, env, baseUrl, hints);
  if (name === 'openai-compatible' && !baseUrl) {
    throw new Error(
      `The openai-compatible provider needs the server's URL, including /v1: ${cli ? `pass --base-url or export ${vars.baseUrl.join(' / ')}` : `set the base-url input of the patchloop step, or ${vars.baseUrl.join(' / ')} in the workflow's env`}.`,
    );
  }
  let apiKey = config.apiKey?.trim() || firstSet(env, vars.key);
  if (!apiKey) {
    // Local OpenAI-compatible servers (Ollama, llama.cpp, vLLM) usually take no key; the SDK needs one.
    if (name === 'openai-compatible') apiKey = 'none';
    else
      throw new Error(
        cli
          ? `No API key for the ${name} provider: pass --api-key or export ${vars.key.join(' or ')}.`
          : `No API key for the ${name} provider: add the key as a repository secret (Settings, Secrets and variables, Actions) and give it as the api-key input (api-key: \${{ secrets.${vars.key[0]} }}), or set ${vars.key.join(' or ')} in the workflow's env.`,
      );
  }
  const common = {
    model,
    apiKey,
    hints,
    ...(baseUrl ? { baseUrl } : {}),
    ...(config.retry ? { retry: config.retry } : {}),
  };
  return lazyProvider(name, model, async () => {
    switch (name) {
      case 'anthropic':
        return (await ADAPTERS.anthropic()).createAnthropicProvider(common);
      case 'openai':
      case 'openai-compatible':
        return (await ADAPTERS.openai()).createOpenAIChatProvider({ ...common, name });
      case 'openai-responses':
        return (await ADAPTERS['openai-responses']()).createOpenAIResponsesProvider(common);
      default:
        return (await ADAPTERS.google()).createGoogleProvider(common);
    }
  });
}

/**
 * A cloud's provider: its credentials read from the environment now (once; a missing one throws
 * before any request), its adapter and SDK loaded on the first request.
 */
function createCloudProvider(
  name: ProviderName,
  model: string,
  config: ProviderConfig,
  env: NodeJS.ProcessEnv,
  baseUrl: string | undefined,
  hints: FailureHints,
): Provider {
  const surface = hints.surface ?? 'action';
  const apiKey = config.apiKey?.trim() || undefined;
  const common = { model, hints, ...(config.retry ? { retry: config.retry } : {}) };
  const at = baseUrl ? { baseUrl } : {};
  switch (name) {
    case 'anthropic-bedrock': {
      const key = apiKey ?? env.AWS_BEARER_TOKEN_BEDROCK?.trim();
      const aws = key
        ? { region: readAwsRegion(env, surface), accessKeyId: '', secretAccessKey: '' }
        : readAwsCredentials(env, surface);
      hints.region = aws.region;
      return lazyProvider(name, model, async () =>
        (await ADAPTERS[name]()).createBedrockProvider({
          ...common,
          ...at,
          aws,
          ...(key ? { apiKey: key } : {}),
        }),
      );
    }
    case 'anthropic-vertex':
    case 'google-vertex': {
      const google = readGoogleCredentials(env, name, surface);
      hints.region = google.location;
      hints.project = google.project;
      if (name === 'anthropic-vertex')
        return lazyProvider(name, model, async () =>
          (await ADAPTERS[name]()).createAnthropicVertexProvider({ ...common, ...at, google }),
        );
      return lazyProvider(name, model, async () =>
        (await ADAPTERS[name]()).createGoogleVertexProvider({ ...common, ...at, google }),
      );
    }
    default: {
      const azure = readAzureCredentials(env, surface, apiKey, baseUrl);
      hints.baseUrl = azure.endpoint;
      return lazyProvider(name, model, async () =>
        (await ADAPTERS['azure-openai']()).createAzureOpenAIProvider({ ...common, azure }),
      );
    }
  }
}

// Each adapter with its SDK is a chunk of its own, loaded on first use.
const ADAPTERS = {
  anthropic: () => import('./anthropic.js'),
  openai: () => import('./openai-chat.js'),
  'openai-compatible': () => import('./openai-chat.js'),
  'openai-responses': () => import('./openai-responses.js'),
  google: () => import('./google.js'),
  'anthropic-bedrock': () => import('./anthropic-bedrock.js'),
  'anthropic-vertex': () => import('./anthropic-vertex.js'),
  'google-vertex': () => import('./google-vertex.js'),
  'azure-openai': () => import('./azure-openai.js'),
} as const;

/**
 * Starts loading a provider's adapter and SDK now, so that reading and compiling them overlaps the
 * start-up's network and git waits instead of delaying the first request. Never fails.
 */
export function preloadProvider(provider: string): void {
  if (isProviderName(provider)) ADAPTERS[provider]().catch(() => undefined);
}

/**
 * Loads an adapter (and its SDK) on the first request only: the bundle then evaluates just the one
 * SDK a run uses, which keeps start-up short (each SDK costs tens of milliseconds to evaluate).
 */
function lazyProvider(name: ProviderName, model: string, load: () => Promise<Provider>): Provider {
  let loaded: Promise<Provider> | undefined;
  const capabilities = capabilitiesOf(name, model);
  const contextWindow = capabilities.contextWindow;
  return {
    name,
    model,
    capabilities,
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    async *stream(context: Context, options?: StreamOptions): AsyncIterable<AssistantEvent> {
      loaded ??= load();
      let provider: Provider;
      try {
        provider = await loaded;
      } catch (err) {
        // The contract of stream(): it ends in one `done`, never in a throw.
        const message = `could not load the ${name} adapter: ${err instanceof Error ? err.message : String(err)}`;
        yield {
          type: 'done',
          message: {
            role: 'assistant',
            content: [],
            provider: name,
            model,
            usage: emptyUsage(),
            stopReason: 'error',
            errorMessage: message,
            errorKind: 'other',
            timestamp: Date.now(),
          },
        };
        return;
      }
      yield* provider.stream(context, options);
    },
  };
}

/** Parses `fallback-model` (`provider:model`); the model may itself contain colons. Throws when invalid. */
export function parseFallbackSpec(spec: string): { provider: ProviderName; model: string } {
  const text = spec.trim();
  const at = text.indexOf(':');
  const provider = at > 0 ? text.slice(0, at).trim() : '';
  const model = at > 0 ? text.slice(at + 1).trim() : '';
  if (!provider || !model) {
    throw new Error(`Invalid fallback-model "${spec}": expected provider:model, e.g. openai:gpt-6.2-sol.`);
  }
  if (!isProviderName(provider)) {
    throw new Error(
      `Invalid fallback-model "${spec}": unknown provider "${provider}" (use one of: ${PROVIDER_NAMES.join(', ')}).`,
    );
  }
  return { provider, model };
}

export { createFallbackProvider } from './fallback.js';
export { CLOUD_CREDENTIAL_VARIABLES, cloudSecrets, type Surface } from './cloud-credentials.js';
export { createScriptedProvider, scriptFromTranscript } from './scripted.js';
export { DEFAULT_MODELS, lookupModel, priceUsage } from './pricing.js';
export { capabilitiesOf, type Capabilities, type ImageLimits } from './capabilities.js';
export type { Provider, ProviderName } from './types.js';
