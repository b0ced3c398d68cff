import type { Surface } from './cloud-credentials.js';
import { cloudHint } from './cloud-hints.js';
import type { AttemptFailure } from './errors.js';

/**
 * What a user can check when a turn fails for good, in the words of the inputs and flags that
 * set it. The harness appends the sentence to the error message, so the one line a user sees says
 * what failed and where to look.
 */
export interface FailureHints {
  provider: string;
  model: string;
  /** The provider's default model, when it has one. */
  defaultModel?: string;
  /** The base URL in use; absent when the SDK's default is used. */
  baseUrl?: string;
  /** Environment variables read for the base URL and the key, in order. */
  baseUrlVars: readonly string[];
  keyVars: readonly string[];
  /** Where the user sets things: repository secrets and workflow steps, or the shell and flags. */
  surface?: Surface;
  /** The cloud region (or Vertex location) and project in use. */
  region?: string;
  project?: string;
}

// Wordings of an unknown model: OpenAI "The model `x` does not exist or you do not have access to
// it." (404 model_not_found), Anthropic 404 not_found_error "model: x", Gemini 404 NOT_FOUND
// "models/x is not found for API version v1beta".
export const UNKNOWN_MODEL =
  /model[^\n]*(does not exist|not found|not supported)|model_not_found|not_found_error[^\n]*model|models\/\S+ is not found/i;

export function hintFor(failure: AttemptFailure, h: FailureHints): string | undefined {
  const cloud = cloudHint(failure, h);
  if (cloud !== null) return cloud;
  const base = h.baseUrl ? `the base URL ${h.baseUrl}` : `the ${h.provider} SDK's default URL`;
  const baseVars = h.baseUrlVars.join(' / ');
  const keyVars = h.keyVars.join(' / ');
  // On GitHub a value is an input of the patchloop step (a key comes from a repository secret);
  // in the CLI it is a flag or an exported variable. Each surface is told in its own words.
  const cli = h.surface === 'cli';
  if (failure.refused) {
    return cli
      ? `Check ${base}: set it with --base-url or ${baseVars}.`
      : `Check ${base}: set it with the base-url input of the patchloop step, or ${baseVars} in the workflow's env.`;
  }
  if (failure.kind === 'auth') {
    const what = `${/^[aeiou]/i.test(h.provider) ? 'an' : 'a'} ${h.provider} key valid for ${base}`;
    return cli
      ? `Check the API key: --api-key or ${keyVars}; it must be ${what}.`
      : `Check the API key: the repository secret given as the api-key input (or ${keyVars} in the workflow's env) must be ${what}; a secret is updated under Settings, Secrets and variables, Actions.`;
  }
  if (failure.status === 404 || UNKNOWN_MODEL.test(failure.message)) {
    const fallback = h.defaultModel ? `; the ${h.provider} default is ${h.defaultModel}` : '';
    const path =
      h.provider === 'openai-compatible' ? `, and that ${base} is the server's API root (with /v1)` : '';
    return `Check the model id "${h.model}" (${cli ? '--model' : 'the model input of the patchloop step'})${fallback}${path}.`;
  }
  return undefined;
}
