import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import { createAnthropicMessagesProvider } from './anthropic.js';
import type { AwsCredentials } from './cloud-credentials.js';
import type { FailureHints } from './hints.js';
import { ByteMeter } from './metered-fetch.js';
import type { RetryPolicy } from './retry.js';
import { SdkNotices } from './sdk-notices.js';
import type { Provider } from './types.js';

/*
 * Anthropic models on Amazon Bedrock (POST /model/{id}/invoke-with-response-stream, SigV4-signed).
 * The Bedrock SDK signs the request with the credentials given here (read once at start, never
 * its own provider chain) and turns Bedrock's binary event stream back into the Messages API's SSE
 * frames, so the direct API's stream code (anthropic.ts) reads it unchanged.
 */

export interface BedrockConfig {
  model: string;
  aws: AwsCredentials;
  /** A Bedrock API key (the api-key input), used instead of SigV4 when given. */
  apiKey?: string;
  /** Instead of https://bedrock-runtime.{region}.amazonaws.com (a VPC endpoint, a gateway, a test). */
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
  hints?: FailureHints;
}

export function createBedrockProvider(config: BedrockConfig): Provider {
  const notices = new SdkNotices('@anthropic-ai/bedrock-sdk');
  const meter = new ByteMeter();
  const { aws } = config;
  const common = {
    logger: notices.logger(),
    awsRegion: aws.region,
    ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
    // Nothing from the environment after start: a credential chain would look for more.
    providerChainResolver: null,
    maxRetries: 0,
    fetch: meter.fetch,
  };
  const client = config.apiKey
    ? new AnthropicBedrock({ ...common, apiKey: config.apiKey })
    : new AnthropicBedrock({
        ...common,
        awsAccessKey: aws.accessKeyId,
        awsSecretKey: aws.secretAccessKey,
        awsSessionToken: aws.sessionToken ?? null,
        // null, not undefined: the SDK would otherwise read AWS_BEARER_TOKEN_BEDROCK by itself.
        apiKey: null,
      });
  return createAnthropicMessagesProvider({
    name: 'anthropic-bedrock',
    model: config.model,
    client,
    meter,
    notices,
    secrets: [aws.secretAccessKey, aws.sessionToken ?? '', config.apiKey ?? ''].filter(Boolean),
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.hints ? { hints: config.hints } : {}),
  });
}
