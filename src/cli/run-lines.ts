import type { ProviderName } from '../providers/types.js';
import { PROVIDER_ENV } from '../providers/index.js';

// The lines `patchloop run` prints around the run: what it is about to use, and where it leaves the
// user.

const DEFAULT_HOSTS: Partial<Record<ProviderName, string>> = {
  anthropic: 'api.anthropic.com',
  openai: 'api.openai.com',
  'openai-responses': 'api.openai.com',
  google: 'generativelanguage.googleapis.com',
};

export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** The host the provider will talk to: the base URL's (flag or environment), else its default. */
export function endpointHost(
  provider: ProviderName,
  baseUrl: string | undefined,
  env: NodeJS.ProcessEnv,
): string {
  const given = baseUrl?.trim() || PROVIDER_ENV[provider]?.baseUrl.map((v) => env[v]?.trim()).find(Boolean);
  if (given) {
    try {
      return new URL(given).host;
    } catch {
      return 'an unparsable base URL';
    }
  }
  return DEFAULT_HOSTS[provider] ?? 'the default endpoint';
}

/** A base URL fit for the transcript: no user name or password in it; undefined when not a URL. */
export function recordableUrl(baseUrl: string | undefined): string | undefined {
  if (!baseUrl?.trim()) return undefined;
  try {
    const url = new URL(baseUrl.trim());
    if (url.username || url.password || url.search) return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}

export interface StartFacts {
  provider: string;
  model: string;
  endpoint: string;
  isolated: boolean;
  /** whether run_tests (and bash) are offered at all */
  commands: boolean;
  network: string;
}

export function startLine(f: StartFacts): string {
  const commands = !f.commands
    ? 'commands not offered'
    : f.isolated
      ? `commands isolated, network ${f.network}`
      : 'commands NOT isolated (--sandbox off), network unrestricted';
  return `patchloop: ${f.provider} ${f.model} via ${f.endpoint} · ${commands}`;
}

const GOOD = new Set(['success', 'no-changes']);

export function finalLine(conclusion: string, branch: string | undefined, colour: boolean): string {
  const paint = colour ? (GOOD.has(conclusion) ? '\x1b[32m' : '\x1b[31m') : '';
  const outcome = colour ? `${paint}${conclusion}\x1b[39m` : conclusion;
  const where = branch ? `You are on branch ${branch}.` : 'You are on a detached HEAD.';
  return `${outcome} · ${where}`;
}
