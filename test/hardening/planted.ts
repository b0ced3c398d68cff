import { randomBytes } from 'node:crypto';

// Secret values planted where a run keeps its credentials, and a search for them in outputs.

export interface Planted {
  /** Environment variables of the parent process, by name. */
  env: Record<string, string>;
  /** Every planted value, including ones not in the environment (command line, files). */
  values: string[];
}

function token(n: number): string {
  return randomBytes(n).toString('base64url').replace(/[-_]/g, 'x').slice(0, n);
}

export function plantSecrets(): Planted & { cliArg: string; fileSecret: string; gitToken: string } {
  const gitToken = `ghs_${token(36)}`;
  const env = {
    GITHUB_TOKEN: gitToken,
    'INPUT_GITHUB-TOKEN': gitToken,
    ANTHROPIC_API_KEY: `sk-ant-api03-${token(40)}`,
    'INPUT_API-KEY': `planted-api-key-${token(24)}`,
    ACTIONS_RUNTIME_TOKEN: `planted-runtime-${token(24)}`,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: `planted-oidc-${token(24)}`,
  };
  const cliArg = `planted-cli-key-${token(24)}`;
  const fileSecret = `planted-file-secret-${token(24)}`;
  return {
    env,
    cliArg,
    fileSecret,
    gitToken,
    values: [...new Set([...Object.values(env), cliArg, fileSecret])],
  };
}

/** The planted values found in `text`, as written or base64-encoded (as in an Authorization header). */
export function findSecrets(text: string, values: readonly string[]): string[] {
  const found: string[] = [];
  for (const value of values) {
    const encoded = [
      value,
      ...['', 'x-access-token:'].map((p) =>
        Buffer.from(p + value)
          .toString('base64')
          .slice(p.length ? 20 : 0, -4),
      ),
    ];
    if (encoded.some((form) => form.length >= 8 && text.includes(form))) found.push(value);
  }
  return found;
}

/** The text of each tool result in an Anthropic Messages request body, as the model received it. */
export function toolResultsSent(body: unknown): string[] {
  const messages = (body as { messages?: { content?: unknown }[] } | undefined)?.messages ?? [];
  const out: string[] = [];
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const block of m.content as { type?: string; content?: unknown }[]) {
      if (block.type === 'tool_result') out.push(JSON.stringify(block.content));
    }
  }
  return out;
}
