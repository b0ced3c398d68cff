import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { createAnthropicMessagesProvider } from './anthropic.js';
import type { GoogleCredentials } from './cloud-credentials.js';
import { googleAuthFor } from './google-auth.js';
import type { FailureHints } from './hints.js';
import { ByteMeter } from './metered-fetch.js';
import type { RetryPolicy } from './retry.js';
import { SdkNotices } from './sdk-notices.js';
import type { Provider } from './types.js';

/*
 * Anthropic models on Google Vertex AI (POST .../publishers/anthropic/models/{id}:streamRawPredict,
 * an OAuth bearer token). The token comes from the credentials read once at start (the file
 * google-github-actions/auth leaves); the response is the Messages API's SSE, read by anthropic.ts.
 */

export interface AnthropicVertexConfig {
  model: string;
  google: GoogleCredentials;
  /**
   * Instead of Vertex AI's endpoint: the service root (https://HOST), as for google-vertex; a
   * trailing /v1 is accepted too.
   */
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
  hints?: FailureHints;
}

export function createAnthropicVertexProvider(config: AnthropicVertexConfig): Provider {
  const notices = new SdkNotices('@anthropic-ai/vertex-sdk');
  const meter = new ByteMeter();
  const { google } = config;
  const client = new AnthropicVertex({
    logger: notices.logger(),
    region: google.location,
    projectId: google.project,
    // The base URL always given: the SDK would otherwise read ANTHROPIC_VERTEX_BASE_URL itself.
    baseURL: config.baseUrl ? withVersion(config.baseUrl) : vertexBaseUrl(google.location),
    googleAuth: googleAuthFor(google),
    maxRetries: 0,
    fetch: meter.fetch,
  });
  return createAnthropicMessagesProvider({
    name: 'anthropic-vertex',
    model: config.model,
    client,
    meter,
    notices,
    secrets: google.secrets,
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.hints ? { hints: config.hints } : {}),
  });
}

/** Vertex AI's endpoint for a location (`global`, the multi-regions `us` and `eu`, or a region). */
export function vertexBaseUrl(location: string): string {
  if (location === 'global') return 'https://aiplatform.googleapis.com/v1';
  if (location === 'us' || location === 'eu') return `https://aiplatform.${location}.rep.googleapis.com/v1`;
  return `https://${location}-aiplatform.googleapis.com/v1`;
}

/** The service root with the API version this SDK puts its paths under (it adds none itself). */
function withVersion(baseUrl: string): string {
  const root = baseUrl.replace(/\/+$/, '');
  return /\/v1$/.test(root) ? root : `${root}/v1`;
}
