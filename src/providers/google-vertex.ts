import { GoogleGenAI } from '@google/genai';
import type { GoogleCredentials } from './cloud-credentials.js';
import { createGeminiProvider } from './google.js';
import { CLOUD_PLATFORM_SCOPE } from './google-auth.js';
import type { FailureHints } from './hints.js';
import { ByteMeter } from './metered-fetch.js';
import type { RetryPolicy } from './retry.js';
import type { Provider } from './types.js';

/*
 * Gemini on Google Vertex AI (POST .../publishers/google/models/{id}:streamGenerateContent?alt=sse,
 * an OAuth bearer token): @google/genai in Vertex mode, on the credentials read once at start; the
 * stream is the Gemini API's, read by google.ts.
 */

export interface GoogleVertexConfig {
  model: string;
  google: GoogleCredentials;
  /**
   * Instead of Vertex AI's endpoint: the service root (https://HOST), as for anthropic-vertex; a
   * trailing /v1 is accepted too (the SDK adds its own API version to the root).
   */
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
  hints?: FailureHints;
}

export function createGoogleVertexProvider(config: GoogleVertexConfig): Provider {
  const meter = new ByteMeter();
  const { google } = config;
  const client = new GoogleGenAI({
    vertexai: true,
    project: google.project,
    location: google.location,
    googleAuthOptions: {
      credentials: google.credentials,
      projectId: google.project,
      scopes: CLOUD_PLATFORM_SCOPE,
    },
    httpOptions: {
      ...(config.baseUrl ? { baseUrl: config.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '') } : {}),
      fetch: meter.fetch,
    },
  });
  return createGeminiProvider({
    name: 'google-vertex',
    model: config.model,
    client,
    meter,
    secrets: google.secrets,
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.hints ? { hints: config.hints } : {}),
  });
}
