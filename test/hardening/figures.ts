import { appendFileSync } from 'node:fs';
import { inject } from 'vitest';

// Each hardening test adds what it did to one JSONL file; the global setup prints the totals as
// the figures table when the suite ends (see figures-setup.ts).

export interface Figures {
  /** Generated inputs run through a property test. */
  fuzzCases?: number;
  /** Attempts to reach outside the workspace or read a secret. */
  escapesTried?: number;
  /** Of those, the ones that were refused or found nothing. */
  escapesRefused?: number;
  /** Faults injected into a run (provider, GitHub, git, disk, process). */
  faultsInjected?: number;
  /** Of those, the ones after which the run ended truthfully with a complete transcript. */
  faultsSurvived?: number;
  /** Outputs searched for planted secrets. */
  secretChecks?: number;
  /** Planted secret values found in any output (must stay 0). */
  secretsFound?: number;
  /** Attacks of a hostile repository or model run through the bundled action. */
  attacksTried?: number;
  /** Of those, the ones that reached no secret and ran nothing of theirs as the action's user. */
  attacksHeld?: number;
  /** Runs of the bundled action. */
  runs?: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    figuresFile: string;
  }
}

/** Adds counts under a group name (usually the test file's subject). */
export function record(group: string, figures: Figures): void {
  const file = inject('figuresFile');
  if (!file) return;
  appendFileSync(file, `${JSON.stringify({ group, ...figures })}\n`);
}
