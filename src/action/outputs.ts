// The step outputs of CONTRACT §3. Every output is always set (empty when it does not apply), so
// later steps can test them without guarding against a missing name.
import * as core from './runner-commands.js';
import type { Usage } from '../protocol/types.js';

export interface RunOutputs {
  conclusion: string;
  branch?: string;
  commitSha?: string;
  prNumber?: number;
  prUrl?: string;
  commentUrl?: string;
  transcriptPath?: string;
  /** the transcript artifact's page, when it was uploaded */
  artifactUrl?: string;
  model?: string;
  turns?: number;
  usage?: Usage;
  /** the valid answer to `output-schema`, as JSON text */
  structuredOutput?: string;
  /** the review a review run posted */
  reviewUrl?: string;
  /** stage: agent — the delivery artifact's name */
  deliveryArtifact?: string;
}

export function outputValues(o: RunOutputs): Record<string, string> {
  return {
    conclusion: o.conclusion,
    branch: o.branch ?? '',
    'commit-sha': o.commitSha ?? '',
    'pr-number': o.prNumber !== undefined ? String(o.prNumber) : '',
    'pr-url': o.prUrl ?? '',
    'comment-url': o.commentUrl ?? '',
    'transcript-path': o.transcriptPath ?? '',
    'artifact-url': o.artifactUrl ?? '',
    model: o.model ?? '',
    turns: String(o.turns ?? 0),
    'input-tokens': String(o.usage?.inputTokens ?? 0),
    'output-tokens': String(o.usage?.outputTokens ?? 0),
    'cost-usd': o.usage?.costUsd !== undefined ? o.usage.costUsd.toFixed(4) : '',
    'structured-output': o.structuredOutput ?? '',
    'review-url': o.reviewUrl ?? '',
    'delivery-artifact': o.deliveryArtifact ?? '',
  };
}

export function setRunOutputs(o: RunOutputs, redact: (text: string) => string = (t) => t): void {
  for (const [name, value] of Object.entries(outputValues(o))) core.setOutput(name, redact(value));
}
