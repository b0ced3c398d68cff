import { AzureOpenAI } from 'openai';
import type { AzureCredentials } from './cloud-credentials.js';
import type { FailureHints } from './hints.js';
import { ByteMeter } from './metered-fetch.js';
import { createChatCompletionsProvider } from './openai-chat.js';
import type { RetryPolicy } from './retry.js';
import { SdkNotices } from './sdk-notices.js';
import type { Provider } from './types.js';

/*
 * OpenAI models on Azure (POST {endpoint}/openai/deployments/{deployment}/chat/completions
 * ?api-version=…, with an `api-key` header or a Microsoft Entra bearer token). The model input is
 * the deployment's name; the stream is Chat Completions', read by openai-chat.ts.
 */

export interface AzureOpenAIConfig {
  /** The deployment name. */
  model: string;
  azure: AzureCredentials;
  retry?: Partial<RetryPolicy>;
  hints?: FailureHints;
}

export function createAzureOpenAIProvider(config: AzureOpenAIConfig): Provider {
  const notices = new SdkNotices('openai');
  const meter = new ByteMeter();
  const { azure } = config;
  const token = azure.adToken;
  const client = new AzureOpenAI({
    logger: notices.logger(),
    // As a base URL, not `endpoint`: the SDK would take OPENAI_BASE_URL from the environment too,
    // and refuse the pair ("baseURL and endpoint are mutually exclusive").
    baseURL: `${azure.endpoint.replace(/\/+$/, '')}/openai`,
    apiVersion: azure.apiVersion,
    deployment: config.model,
    // null, not undefined, with a token: the SDK would otherwise read AZURE_OPENAI_API_KEY itself.
    ...(token
      ? { azureADTokenProvider: () => Promise.resolve(token), apiKey: null as unknown as undefined }
      : { apiKey: azure.apiKey! }),
    maxRetries: 0,
    fetch: meter.fetch,
  });
  return createChatCompletionsProvider({
    name: 'azure-openai',
    model: config.model,
    client,
    meter,
    notices,
    secrets: [azure.apiKey ?? '', token ?? ''].filter(Boolean),
    // A deployment named otherwise than its model is priced as the model it serves.
    priceByServedModel: true,
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.hints ? { hints: config.hints } : {}),
  });
}
