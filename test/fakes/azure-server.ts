import { chatReply, openaiError, type ChatScript } from './openai-chat-server.js';
import { startSseServer, type FakeProviderServer, type Reply } from './sse.js';

/*
 * A loopback stand-in for Azure OpenAI's Chat Completions:
 * POST /openai/deployments/{deployment}/chat/completions?api-version=…, answered with the Chat
 * Completions SSE of openai-chat-server.ts. As Azure does, it wants the `api-key` header with the
 * resource's key or `Authorization: Bearer <Entra token>` (401 otherwise; 401 "Token is expired"
 * for a token after `expire()`), a deployment it has (404 DeploymentNotFound) and an api-version it
 * serves (404 otherwise).
 */

export interface AzureOptions {
  apiKey?: string;
  adToken?: string;
  deployments?: string[];
  apiVersions?: string[];
}

export interface AzureServer extends FakeProviderServer {
  /** Model requests answered with a stream. */
  streamed: number;
  expire(): void;
}

export const TEST_AZURE_KEY = 'f0a1b2c3d4e5f60718293a4b5c6d7e8f';
export const TEST_AZURE_TOKEN = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.fake-entra-token.c2lnbmF0dXJl';

function azureError(status: number, code: string, message: string): Reply {
  return { kind: 'json', status, body: { error: { code, message } } };
}

export async function startAzureServer(script: ChatScript, options: AzureOptions = {}): Promise<AzureServer> {
  const key = options.apiKey ?? TEST_AZURE_KEY;
  const token = options.adToken ?? TEST_AZURE_TOKEN;
  const deployments = options.deployments ?? ['gpt-6.2-sol'];
  const versions = options.apiVersions ?? ['2024-10-21', '2025-04-01-preview'];
  const ROUTE = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;
  let turns = 0;
  let expired = false;
  const state = { streamed: 0 };
  const server = await startSseServer({
    route: (method, path) => method === 'POST' && ROUTE.test(path),
    notFound: (path) => openaiError('invalid_request_error', `Resource not found: ${path}`, '404'),
    reply: (request) => {
      const url = new URL(request.path, 'http://127.0.0.1');
      const byKey = request.headers['api-key'] === key;
      const byToken = request.headers.authorization === `Bearer ${token}`;
      if (!byKey && !byToken)
        return azureError(
          401,
          '401',
          'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
        );
      if (byToken && expired)
        return azureError(401, '401', 'Unauthorized. Access token has expired or is not yet valid.');
      if (!versions.includes(url.searchParams.get('api-version') ?? ''))
        return azureError(404, '404', 'Resource not found');
      const deployment = decodeURIComponent(ROUTE.exec(url.pathname)![1]!);
      if (!deployments.includes(deployment))
        return azureError(
          404,
          'DeploymentNotFound',
          'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
        );
      const index = turns++;
      const turn = typeof script === 'function' ? script(request, index) : script[index];
      if (!turn)
        return azureError(400, 'invalid_request_error', `fake server: no scripted turn ${index + 1}`);
      state.streamed++;
      return chatReply(turn, index);
    },
  });
  return {
    ...server,
    get streamed() {
      return state.streamed;
    },
    expire() {
      expired = true;
    },
  };
}
