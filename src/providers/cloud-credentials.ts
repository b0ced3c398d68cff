import { chmodSync, closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/*
 * The credentials of the clouds' hosted models, read once when the provider is built, from the
 * environment their official auth actions leave (CONTRACT §12). Nothing here is ever passed to a
 * command: the command environment is an allow-list (tools/env.ts), and `command-env` may not
 * name any of CLOUD_CREDENTIAL_VARIABLES (action/inputs.ts).
 */

export type Surface = 'action' | 'cli';

/** Variables that hold a cloud credential or say where one is: never given to a command. */
export const CLOUD_CREDENTIAL_VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_BEARER_TOKEN_BEDROCK',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE',
  'GOOGLE_GHA_CREDS_PATH',
  'AZURE_OPENAI_API_KEY',
  'AZURE_OPENAI_AD_TOKEN',
  // What the auth actions exchange for cloud credentials (id-token: write): a command holding it
  // could mint its own.
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
] as const;

/** Where each surface tells the user to put a value. */
function where(surface: Surface, variables: string, action: string): string {
  return surface === 'cli'
    ? `export ${variables} in the shell that runs patchloop`
    : `add the ${action} step before patchloop in the workflow (it sets ${variables})`;
}

function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): string | undefined {
  for (const n of names) {
    const v = env[n]?.trim();
    if (v) return v;
  }
  return undefined;
}

export interface AwsCredentials {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** The region Bedrock is asked in (a Bedrock API key needs it too). */
export function readAwsRegion(env: NodeJS.ProcessEnv, surface: Surface): string {
  const region = firstSet(env, ['AWS_REGION', 'AWS_DEFAULT_REGION']);
  if (!region) {
    throw new Error(
      `No AWS region for the anthropic-bedrock provider: ${surface === 'cli' ? 'export AWS_REGION' : 'set aws-region on the aws-actions/configure-aws-credentials step (it sets AWS_REGION)'}, a region where the model is enabled in the Bedrock console.`,
    );
  }
  return region;
}

export function readAwsCredentials(env: NodeJS.ProcessEnv, surface: Surface): AwsCredentials {
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  if (!accessKeyId || !secretAccessKey) {
    const cli =
      surface === 'cli'
        ? ' (after `aws sso login`: eval "$(aws configure export-credentials --format env)")'
        : '';
    throw new Error(
      `No AWS credentials for the anthropic-bedrock provider: ${where(surface, 'AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN', 'aws-actions/configure-aws-credentials')}${cli}.`,
    );
  }
  const region = readAwsRegion(env, surface);
  const sessionToken = env.AWS_SESSION_TOKEN?.trim();
  return { region, accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
}

export interface GoogleCredentials {
  project: string;
  location: string;
  /** The parsed credentials file (service_account, external_account or authorized_user). */
  credentials: Record<string, unknown>;
  /** The file it was read from. */
  path: string;
  /** The values in it that are credentials, for redaction. */
  secrets: string[];
}

/** Fields of a Google credentials file that are secrets (the PEM key, tokens, client secrets). */
function googleSecrets(json: Record<string, unknown>): string[] {
  const out: string[] = [];
  const take = (v: unknown) => {
    if (typeof v === 'string' && v.trim().length >= 8) out.push(v);
  };
  for (const k of ['private_key', 'private_key_id', 'client_secret', 'refresh_token']) take(json[k]);
  const source = json.credential_source as { headers?: Record<string, unknown> } | undefined;
  for (const v of Object.values(source?.headers ?? {})) {
    take(v);
    // "Bearer <token>": the token alone too (it is what would show in a message).
    if (typeof v === 'string') take(v.replace(/^\S+\s+/, ''));
  }
  return out;
}

/**
 * Reads the credentials file once into memory and takes away other users' read access to it: a
 * file others may not read is refused by the file tools and never opened to the sandbox user
 * (SECURITY.md claim 11), so a workspace copy (google-github-actions/auth writes gha-creds-*.json
 * into the workspace) stays out of the model's and the commands' reach even if it was 0644.
 */
function readCredentialsFile(path: string): string {
  // Non-blocking: a FIFO in its place must not hold the start-up.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error('not a regular file');
    if (st.size > 1024 * 1024) throw new Error('larger than a credentials file');
    if ((st.mode & 0o007) !== 0) {
      try {
        chmodSync(path, st.mode & 0o770);
      } catch {
        // someone else's file: it stays as it is (the commands' own user can read it only if others can)
      }
    }
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

export function readGoogleCredentials(
  env: NodeJS.ProcessEnv,
  provider: 'anthropic-vertex' | 'google-vertex',
  surface: Surface,
): GoogleCredentials {
  const action = 'google-github-actions/auth';
  const named = firstSet(env, [
    'GOOGLE_APPLICATION_CREDENTIALS',
    'CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE',
    'GOOGLE_GHA_CREDS_PATH',
  ]);
  // A developer logged in with `gcloud auth application-default login` has the file here.
  const adc = join(
    env.CLOUDSDK_CONFIG?.trim() || join(env.HOME || homedir(), '.config', 'gcloud'),
    'application_default_credentials.json',
  );
  const path = named ?? (surface === 'cli' ? adc : undefined);
  if (!path) {
    throw new Error(
      `No Google credentials for the ${provider} provider: ${where(surface, 'GOOGLE_APPLICATION_CREDENTIALS', action)}.`,
    );
  }
  let json: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(readCredentialsFile(path));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
    json = parsed as Record<string, unknown>;
  } catch (err) {
    // A JSON error quotes the text it could not read: the file's content, which is a secret.
    const why =
      err instanceof SyntaxError
        ? 'not valid JSON'
        : ((err as { code?: string }).code ?? (err instanceof Error ? err.message : 'unreadable'));
    const fix =
      surface === 'cli'
        ? named
          ? 'point GOOGLE_APPLICATION_CREDENTIALS at the credentials file'
          : 'run `gcloud auth application-default login` or export GOOGLE_APPLICATION_CREDENTIALS'
        : `check the ${action} step (create_credentials_file: true)`;
    // eslint-disable-next-line preserve-caught-error -- the cause may quote the file's secret content
    throw new Error(`Cannot read the Google credentials file ${path} (${why}): ${fix}.`);
  }
  const project =
    firstSet(env, ['GOOGLE_CLOUD_PROJECT', 'GCLOUD_PROJECT', 'CLOUDSDK_CORE_PROJECT']) ??
    (typeof json.project_id === 'string' ? json.project_id : undefined) ??
    (typeof json.quota_project_id === 'string' ? json.quota_project_id : undefined);
  if (!project) {
    throw new Error(
      `No Google Cloud project for the ${provider} provider: ${surface === 'cli' ? 'export GOOGLE_CLOUD_PROJECT' : `set project_id on the ${action} step (it sets GOOGLE_CLOUD_PROJECT)`}.`,
    );
  }
  const locationVar = provider === 'anthropic-vertex' ? 'CLOUD_ML_REGION' : 'GOOGLE_CLOUD_LOCATION';
  // `global` serves Claude and Gemini from any region's quota; a regional one is a choice.
  const location = env[locationVar]?.trim() || 'global';
  return { project, location, credentials: json, path, secrets: googleSecrets(json) };
}

export interface AzureCredentials {
  endpoint: string;
  apiVersion: string;
  apiKey?: string;
  adToken?: string;
}

/** The API version when OPENAI_API_VERSION is not set: the GA v1 surface's. */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';

export function readAzureCredentials(
  env: NodeJS.ProcessEnv,
  surface: Surface,
  apiKey: string | undefined,
  baseUrl: string | undefined,
): AzureCredentials {
  const endpoint = baseUrl || env.AZURE_OPENAI_ENDPOINT?.trim();
  if (!endpoint) {
    throw new Error(
      `No Azure OpenAI endpoint for the azure-openai provider: ${surface === 'cli' ? 'export AZURE_OPENAI_ENDPOINT (https://NAME.openai.azure.com) or pass --base-url' : 'set AZURE_OPENAI_ENDPOINT in the workflow (https://NAME.openai.azure.com) or the base-url input'}.`,
    );
  }
  const key = apiKey || env.AZURE_OPENAI_API_KEY?.trim();
  const adToken = env.AZURE_OPENAI_AD_TOKEN?.trim();
  if (!key && !adToken) {
    throw new Error(
      surface === 'cli'
        ? 'No credential for the azure-openai provider: export AZURE_OPENAI_API_KEY, or a Microsoft Entra token as AZURE_OPENAI_AD_TOKEN (az account get-access-token --resource https://cognitiveservices.azure.com), or pass --api-key.'
        : 'No credential for the azure-openai provider: set the api-key input from a repository secret, or AZURE_OPENAI_AD_TOKEN from a step after azure/login (az account get-access-token --resource https://cognitiveservices.azure.com).',
    );
  }
  const apiVersion = env.OPENAI_API_VERSION?.trim() || DEFAULT_AZURE_API_VERSION;
  return { endpoint, apiVersion, ...(key ? { apiKey: key } : { adToken: adToken! }) };
}

/**
 * Every credential value the environment holds for the clouds (and the secret fields of the Google
 * credentials file), for the redactor and the runner's log masking. Never throws.
 */
export function cloudSecrets(env: NodeJS.ProcessEnv): string[] {
  const out = new Set<string>();
  for (const name of CLOUD_CREDENTIAL_VARIABLES) {
    const v = env[name]?.trim();
    if (v && v.length >= 8 && !name.endsWith('_URL') && !isPathVariable(name)) out.add(v);
  }
  const path = firstSet(env, [
    'GOOGLE_APPLICATION_CREDENTIALS',
    'CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE',
    'GOOGLE_GHA_CREDS_PATH',
  ]);
  if (path) {
    try {
      const parsed: unknown = JSON.parse(readCredentialsFile(path));
      if (parsed && typeof parsed === 'object') {
        for (const s of googleSecrets(parsed as Record<string, unknown>)) out.add(s);
      }
    } catch {
      // the provider reports an unreadable file, when it is the one in use
    }
  }
  return [...out];
}

function isPathVariable(name: string): boolean {
  return (
    name === 'GOOGLE_APPLICATION_CREDENTIALS' || name.endsWith('_FILE_OVERRIDE') || name.endsWith('_PATH')
  );
}
