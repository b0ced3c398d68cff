// `command-env` (the action's input) and `--command-env` (the CLI's flag): names of the job's
// environment variables passed on to commands besides the neutral ones (tools/env.ts). Both
// surfaces read and check the list here; each words its own refusal.
import { CLOUD_CREDENTIAL_VARIABLES } from '../providers/cloud-credentials.js';
import { isVariableName } from '../tools/env.js';

/** The names of a comma- or newline-separated list, trimmed, empty ones left out. */
export function commandEnvNames(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The first entry that cannot be a variable's name. */
export function notAVariableName(names: readonly string[]): string | undefined {
  return names.find((name) => !isVariableName(name));
}

/** The first entry that holds a cloud credential (or says where one is): never given to a command. */
export function cloudCredentialName(names: readonly string[]): string | undefined {
  return names.find((name) => (CLOUD_CREDENTIAL_VARIABLES as readonly string[]).includes(name));
}
