// The environment a model-chosen command gets: the caller's, minus anything that could carry a
// secret. Names are matched case-insensitively; values that look like tokens are dropped too, since
// a secret can hide under a harmless name.

const DROP_EXACT = new Set(['GITHUB_TOKEN', 'GH_TOKEN', 'GOOGLE_API_KEY', 'GIT_ASKPASS', 'SSH_AUTH_SOCK']);
const DROP_PREFIXES = ['INPUT_', 'ACTIONS_', 'ANTHROPIC_', 'OPENAI_', 'GEMINI_', 'GIT_CONFIG_'];
// AUTH but not AUTHOR: GIT_AUTHOR_NAME and friends are harmless.
const DROP_PARTS = /TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIAL|AUTH(?!OR)/;
const TOKEN_SHAPES = [
  /\bgh[pousr]_[A-Za-z0-9]{20,}/,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bsk-(ant-)?[A-Za-z0-9_-]{20,}/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\bAIza[0-9A-Za-z_-]{30,}/,
  /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\./,
];

/** Whether a variable must not reach a command. */
export function isSecretVariable(name: string, value: string | undefined): boolean {
  const upper = name.toUpperCase();
  if (DROP_EXACT.has(upper)) return true;
  if (DROP_PREFIXES.some((p) => upper.startsWith(p))) return true;
  if (DROP_PARTS.test(upper)) return true;
  return value !== undefined && TOKEN_SHAPES.some((re) => re.test(value));
}

/** Settings that keep commands from waiting for a terminal that is not there. */
const NON_INTERACTIVE: NodeJS.ProcessEnv = { GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', PAGER: 'cat' };

export function scrubEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isSecretVariable(name, value)) continue;
    out[name] = value;
  }
  return { ...out, ...NON_INTERACTIVE };
}
