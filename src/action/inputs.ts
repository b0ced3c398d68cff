// The action's inputs (CONTRACT §2), read and checked before anything else happens.
import { isPermissionLevel, type PermissionLevel } from '../github/permission.js';
import { parseCommandNetwork, type CommandNetwork } from '../sandbox/network.js';
import { isProviderName, parseFallbackSpec } from '../providers/index.js';
import { cloudCredentialName, commandEnvNames, notAVariableName } from '../sandbox/command-env.js';
import { PROVIDER_NAMES, type ProviderName } from '../providers/types.js';
import { parseMcpConfig } from '../tools/mcp/config.js';

export interface ActionInputs {
  githubToken: string;
  triggerPhrase: string;
  labelTrigger: string;
  prompt: string;
  /** the issue-number input: the issue a prompt task is about */
  issueNumber?: number;
  provider: ProviderName;
  model: string;
  apiKey: string;
  baseUrl: string;
  fallbackModel?: { provider: ProviderName; model: string };
  maxTurns: number;
  maxCostUsd?: number;
  /** The daily budgets (CONTRACT §13): the repository's, and each requester's; either may be absent. */
  maxCostUsdPerDay?: DailyBudget;
  /** Every write run starts as a plan (CONTRACT §13). */
  requireApproval: boolean;
  timeoutMinutes: number;
  testCommand: string;
  allowBash: boolean;
  /** Offer run_tests and bash even where commands cannot be isolated (CONTRACT §6). */
  allowUnisolatedCommands: boolean;
  /** Names of job variables passed on to commands, besides the neutral ones. */
  commandEnv: string[];
  requiredPermission: PermissionLevel;
  allowedBots: string[];
  branchPrefix: string;
  openPr: boolean;
  draftPr: boolean;
  protectedPaths: string[];
  instructions: string;
  uploadArtifact: boolean;
  /** A trigger where patchloop ran before continues that session (CONTRACT §5, following up). */
  continueSession: boolean;
  /** Images of the issue, PR and comments given to a model that takes them (CONTRACT §5). */
  images: boolean;
  dryRun: boolean;
  /** fix: change code and deliver it; review: review a pull request (CONTRACT §9). */
  mode: RunMode;
  /** The output-schema input as given: inline JSON or a workspace path; '' when unset. */
  outputSchema: string;
  /** The mcp-config input as given: inline JSON or a path in the base branch's workspace; '' when unset. */
  mcpConfig: string;
  /** Tool names and `*` patterns offered; empty: every tool the other inputs allow. */
  allowedTools: string[];
  /** What commands may reach on the network (CONTRACT §2, §6). */
  commandNetwork: CommandNetwork;
  /** all: one job; agent: no write token, a delivery artifact; deliver: apply that artifact (CONTRACT §11). */
  stage: RunStage;
}

export type RunMode = 'fix' | 'review';
/** `max-cost-usd-per-day`: `REPO` or `REPO,REQUESTER` in US dollars (an empty part: no such budget). */
export interface DailyBudget {
  repository?: number;
  requester?: number;
}
export type RunStage = 'all' | 'agent' | 'deliver';
export type { CommandNetwork };

export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** Reads one input as the runner passes it (INPUT_<NAME>, hyphens kept); '' when unset. */
export type InputReader = (name: string) => string;

const DEFAULTS: Record<string, string> = {
  'trigger-phrase': '/patchloop',
  'label-trigger': 'patchloop',
  provider: 'anthropic',
  'max-turns': '40',
  'timeout-minutes': '30',
  'allow-bash': 'false',
  'allow-unisolated-commands': 'false',
  'required-permission': 'write',
  'branch-prefix': 'patchloop/',
  'open-pr': 'true',
  'draft-pr': 'true',
  'protected-paths': '.github/workflows/**',
  'upload-artifact': 'true',
  'continue-session': 'true',
  images: 'true',
  'dry-run': 'false',
  'require-approval': 'false',
  mode: 'fix',
  'command-network': 'none',
  stage: 'all',
};

/** Splits a list input on commas and newlines. */
export function listInput(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function readInputs(read: InputReader): ActionInputs {
  // Inputs left empty take the action.yml default: the runner passes defaults only when the
  // workflow omits the input, and `with: x: ''` should not turn a feature off by accident.
  const get = (name: string) => read(name).trim() || DEFAULTS[name] || '';
  const bool = (name: string): boolean => {
    const v = get(name).toLowerCase();
    if (['true', 'yes', 'on', '1'].includes(v)) return true;
    if (['false', 'no', 'off', '0'].includes(v)) return false;
    throw new InputError(`Input ${name} must be true or false, got "${get(name)}".`);
  };
  const positive = (name: string, integer: boolean): number => {
    const raw = get(name);
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
      throw new InputError(
        `Input ${name} must be a positive ${integer ? 'whole ' : ''}number, got "${raw}".`,
      );
    }
    return n;
  };

  const provider = get('provider');
  if (!isProviderName(provider)) {
    throw new InputError(`Input provider must be one of ${PROVIDER_NAMES.join(', ')}; got "${provider}".`);
  }
  const required = get('required-permission').toLowerCase();
  if (!isPermissionLevel(required)) {
    throw new InputError(
      `Input required-permission must be one of admin, maintain, write, triage, read; got "${required}".`,
    );
  }
  const githubToken = read('github-token').trim();
  if (!githubToken)
    throw new InputError(
      'Input github-token is empty: pass ${{ github.token }} or a token with repository access.',
    );
  let fallbackModel: ActionInputs['fallbackModel'];
  if (get('fallback-model')) {
    try {
      fallbackModel = parseFallbackSpec(get('fallback-model'));
    } catch (err) {
      throw new InputError(err instanceof Error ? err.message : String(err));
    }
  }
  const commandEnv = commandEnvNames(get('command-env'));
  const badName = notAVariableName(commandEnv);
  if (badName !== undefined)
    throw new InputError(
      `Input command-env lists names of environment variables (comma- or newline-separated); "${badName}" is not one.`,
    );
  const credential = cloudCredentialName(commandEnv);
  if (credential !== undefined)
    throw new InputError(
      `Input command-env may not name ${credential}: it holds a cloud credential (or how to get one), which patchloop never gives to commands. Remove it from command-env.`,
    );
  const phrase = get('trigger-phrase');
  const mode = get('mode').toLowerCase();
  if (mode !== 'fix' && mode !== 'review')
    throw new InputError(`Input mode must be fix or review; got "${get('mode')}".`);
  const stage = get('stage').toLowerCase();
  if (stage !== 'all' && stage !== 'agent' && stage !== 'deliver')
    throw new InputError(`Input stage must be all, agent or deliver; got "${get('stage')}".`);
  const mcpConfig = read('mcp-config').trim();
  // inline JSON is checked now; a path is read from the base branch later (src/action/mcp.ts)
  if (mcpConfig.startsWith('{')) {
    try {
      parseMcpConfig(mcpConfig);
    } catch (err) {
      throw new InputError(`Input ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return {
    githubToken,
    triggerPhrase: phrase,
    labelTrigger: get('label-trigger'),
    prompt: read('prompt').trim(),
    issueNumber: issueNumberInput(read('issue-number').trim()),
    provider,
    model: get('model'),
    apiKey: read('api-key').trim(),
    baseUrl: get('base-url'),
    fallbackModel,
    maxTurns: positive('max-turns', true),
    maxCostUsd: get('max-cost-usd') ? positive('max-cost-usd', false) : undefined,
    ...dailyBudgetInput(get('max-cost-usd-per-day')),
    requireApproval: bool('require-approval'),
    timeoutMinutes: positive('timeout-minutes', false),
    testCommand: get('test-command'),
    allowBash: bool('allow-bash'),
    allowUnisolatedCommands: bool('allow-unisolated-commands'),
    commandEnv,
    requiredPermission: required,
    allowedBots: listInput(get('allowed-bots')),
    branchPrefix: get('branch-prefix'),
    openPr: bool('open-pr'),
    draftPr: bool('draft-pr'),
    protectedPaths: listInput(get('protected-paths')),
    instructions: get('instructions'),
    uploadArtifact: bool('upload-artifact'),
    continueSession: bool('continue-session'),
    images: bool('images'),
    dryRun: bool('dry-run'),
    mode,
    outputSchema: read('output-schema').trim(),
    mcpConfig,
    allowedTools: listInput(get('allowed-tools')),
    commandNetwork: commandNetworkInput(get('command-network')),
    stage,
  };
}

/** `command-network`: none, all, or a list of host names (comma- or newline-separated). */
export function commandNetworkInput(raw: string): CommandNetwork {
  try {
    return parseCommandNetwork(raw);
  } catch (err) {
    throw new InputError(`Input ${(err as Error).message}`);
  }
}

/** `max-cost-usd-per-day`: `50` (the repository's), `50,10` (and each requester's), `,10` (each requester's only). */
export function dailyBudgetInput(raw: string): { maxCostUsdPerDay?: DailyBudget } {
  if (!raw) return {};
  const parts = raw.split(',').map((p) => p.trim());
  const bad = () =>
    new InputError(
      `Input max-cost-usd-per-day must be REPO or REPO,REQUESTER in US dollars (positive numbers, e.g. "50,10" or ",10"); got "${raw}".`,
    );
  if (parts.length > 2) throw bad();
  const amount = (p: string | undefined): number | undefined => {
    if (p === undefined || p === '') return undefined;
    const n = Number(p);
    if (!Number.isFinite(n) || n <= 0) throw bad();
    return n;
  };
  const repository = amount(parts[0]);
  const requester = amount(parts[1]);
  if (repository === undefined && requester === undefined) throw bad();
  return {
    maxCostUsdPerDay: {
      ...(repository !== undefined ? { repository } : {}),
      ...(requester !== undefined ? { requester } : {}),
    },
  };
}

/** `issue-number`: empty, or a positive whole number (a leading `#` is accepted). */
function issueNumberInput(raw: string): number | undefined {
  if (!raw) return undefined;
  const n = Number(raw.replace(/^#/, ''));
  if (!Number.isInteger(n) || n <= 0)
    throw new InputError(`Input issue-number must be the number of an issue, got "${raw}".`);
  return n;
}
