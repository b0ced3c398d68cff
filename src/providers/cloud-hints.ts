import type { AttemptFailure } from './errors.js';
import type { FailureHints } from './hints.js';

/*
 * One line that says what to fix when a cloud's model fails for good, in the words of the surface
 * it shows on: a workflow step or a repository secret on GitHub, a variable to export or a flag
 * in the CLI. The clouds' own wordings that taught each pattern are quoted beside it.
 */

type Cloud = 'anthropic-bedrock' | 'anthropic-vertex' | 'google-vertex' | 'azure-openai';

const CLOUDS = new Set<string>(['anthropic-bedrock', 'anthropic-vertex', 'google-vertex', 'azure-openai']);

// Bedrock: "The security token included in the request is expired" (403 ExpiredTokenException);
// Google's token exchange: "invalid_grant" / "The ID token has expired"; Entra: "Token is expired"
// / "Access token has expired or is not yet valid" (401).
const EXPIRED = /expired|invalid_grant|token is not yet valid|ExpiredToken/i;
// Bedrock, model not enabled: "You don't have access to the model with the specified model ID."
// (403 AccessDeniedException); Vertex: "Permission 'aiplatform.endpoints.predict' denied" and
// "Publisher Model ... was not found or your project does not have access to it".
const NO_ACCESS_TO_MODEL =
  /access to the model|does not have access to it|not enabled|has not been used in project/i;
// Bedrock in a region that does not serve the id: "The provided model identifier is invalid." (400
// ValidationException), and "Invocation of model ID ... with on-demand throughput isn't supported.
// Retry your request with the ID or ARN of an inference profile"; Vertex 404 "Publisher Model
// `projects/p/locations/l/publishers/anthropic/models/m` not found."; Azure 404 DeploymentNotFound
// "The API deployment for this resource does not exist."
const UNKNOWN_MODEL =
  /model identifier is invalid|inference profile|publisher model|not found|DeploymentNotFound|deployment for this resource does not exist|model[^\n]*(does not exist|not supported)/i;
// Bedrock "Too many tokens, please wait before trying again." (429 ThrottlingException), "Too many
// requests"; Vertex 429 RESOURCE_EXHAUSTED "Quota exceeded for aiplatform.googleapis.com/…"; Azure
// 429 "Requests to the ChatCompletions_Create Operation … have exceeded token rate limit".
const QUOTA = /quota|throttl|too many (tokens|requests)|rate limit|RESOURCE_EXHAUSTED/i;

/** The hint for a cloud provider's failure; null when the provider is not a cloud's. */
export function cloudHint(failure: AttemptFailure, h: FailureHints): string | undefined | null {
  if (!CLOUDS.has(h.provider)) return null;
  const cloud = h.provider as Cloud;
  const cli = h.surface === 'cli';
  const text = failure.message;
  if (failure.refused) {
    const vars = h.baseUrlVars.join(' / ');
    return cli
      ? `Nothing answered at ${h.baseUrl ?? 'the cloud endpoint'}: check --base-url or ${vars}.`
      : `Nothing answered at ${h.baseUrl ?? 'the cloud endpoint'}: check the base-url input or ${vars}.`;
  }
  if (failure.kind === 'auth' && NO_ACCESS_TO_MODEL.test(text)) return modelAccess(cloud, h);
  if (failure.kind === 'auth') return credentials(cloud, h, cli, EXPIRED.test(text));
  if (failure.kind === 'rate_limit' || QUOTA.test(text)) return quota(cloud, h);
  if (failure.status === 404 || (failure.kind === 'bad_request' && UNKNOWN_MODEL.test(text)))
    return modelId(cloud, h, cli);
  return undefined;
}

function credentials(cloud: Cloud, h: FailureHints, cli: boolean, expired: boolean): string {
  const state = expired ? 'have expired' : 'were refused';
  switch (cloud) {
    case 'anthropic-bedrock':
      return cli
        ? `The AWS credentials ${state}: export fresh AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (after \`aws sso login\`: eval "$(aws configure export-credentials --format env)").`
        : `The AWS credentials ${state}: check the aws-actions/configure-aws-credentials step before patchloop (role-to-assume, and role-duration-seconds longer than the job's timeout-minutes) and the workflow's permissions: id-token: write.`;
    case 'anthropic-vertex':
    case 'google-vertex':
      return cli
        ? `The Google credentials ${state}: run \`gcloud auth application-default login\` again, or point GOOGLE_APPLICATION_CREDENTIALS at a valid credentials file.`
        : `The Google credentials ${state}: check the google-github-actions/auth step before patchloop (workload_identity_provider, service_account) and the workflow's permissions: id-token: write.`;
    case 'azure-openai':
      return cli
        ? `The Azure OpenAI credential ${state}: export AZURE_OPENAI_API_KEY (or --api-key) or a fresh AZURE_OPENAI_AD_TOKEN (az account get-access-token --resource https://cognitiveservices.azure.com), valid for ${h.baseUrl ?? 'AZURE_OPENAI_ENDPOINT'}.`
        : `The Azure OpenAI credential ${state}: check the repository secret given as api-key, or the AZURE_OPENAI_AD_TOKEN step after azure/login (tokens last about an hour), for ${h.baseUrl ?? 'AZURE_OPENAI_ENDPOINT'}.`;
  }
}

function modelAccess(cloud: Cloud, h: FailureHints): string {
  switch (cloud) {
    case 'anthropic-bedrock':
      return `The account may not use "${h.model}" in ${h.region ?? 'AWS_REGION'}: enable it in the Amazon Bedrock console (Model access) for that region, and allow bedrock:InvokeModelWithResponseStream to the role.`;
    case 'anthropic-vertex':
      return `Project ${h.project ?? 'GOOGLE_CLOUD_PROJECT'} may not use "${h.model}": enable the model in the Vertex AI Model Garden, and grant the service account roles/aiplatform.user.`;
    case 'google-vertex':
      return `Project ${h.project ?? 'GOOGLE_CLOUD_PROJECT'} may not use "${h.model}": enable the Vertex AI API, and grant the service account roles/aiplatform.user.`;
    case 'azure-openai':
      return `The credential may not use the deployment "${h.model}": give it the Cognitive Services OpenAI User role on the resource at ${h.baseUrl ?? 'AZURE_OPENAI_ENDPOINT'}.`;
  }
}

function modelId(cloud: Cloud, h: FailureHints, cli: boolean): string {
  const flag = cli ? '--model' : 'the model input';
  const dflt = h.defaultModel ? ` (default ${h.defaultModel})` : '';
  switch (cloud) {
    case 'anthropic-bedrock':
      return `Check the model id "${h.model}" (${flag})${dflt}: a Bedrock id or inference profile such as global.anthropic.claude-sonnet-5-5-v1:0, served in ${h.region ?? 'AWS_REGION'} (${cli ? 'export AWS_REGION' : 'aws-region of the auth step'}) and enabled there in the Bedrock console.`;
    case 'anthropic-vertex':
      return `Check the model id "${h.model}" (${flag})${dflt} and the region ${h.region ?? 'global'} (CLOUD_ML_REGION): the model must be enabled in the Vertex AI Model Garden of project ${h.project ?? 'GOOGLE_CLOUD_PROJECT'} and served in that region.`;
    case 'google-vertex':
      return `Check the model id "${h.model}" (${flag})${dflt} and the location ${h.region ?? 'global'} (GOOGLE_CLOUD_LOCATION): the model must be served there for project ${h.project ?? 'GOOGLE_CLOUD_PROJECT'}.`;
    case 'azure-openai':
      return `Check the deployment name "${h.model}" (${flag}): it must be a deployment of the resource at ${h.baseUrl ?? 'AZURE_OPENAI_ENDPOINT'} (Azure AI Foundry, Deployments), and OPENAI_API_VERSION one it serves.`;
  }
}

function quota(cloud: Cloud, h: FailureHints): string {
  switch (cloud) {
    case 'anthropic-bedrock':
      return `Bedrock's quota for "${h.model}" in ${h.region ?? 'AWS_REGION'} ran out: ask for more tokens per minute in Service Quotas (Amazon Bedrock), or use a global. inference profile.`;
    case 'anthropic-vertex':
    case 'google-vertex':
      return `Vertex AI's quota for "${h.model}" in ${h.region ?? 'the location'} ran out: ask for more in the Google Cloud console (IAM & Admin, Quotas) for project ${h.project ?? 'GOOGLE_CLOUD_PROJECT'}, or use the global location.`;
    case 'azure-openai':
      return `The deployment "${h.model}" hit its rate limit: raise its tokens-per-minute limit in Azure AI Foundry (Deployments).`;
  }
}
