import type { Redactor } from './transcript.js';

// One redactor for every text that leaves a run: comment, step summary, logs, transcript, HTML,
// outputs. Known secret values are removed together with the encoded forms they take when they
// travel (base64 in an Authorization header, %-escapes in a URL, \-escapes inside JSON), and
// well-known token shapes are removed even when nobody told us the value.

export const REDACTED = '[REDACTED]';

export interface RedactorOptions {
  /** Values shorter than this are ignored: redacting "true" or "1234" would shred ordinary text. */
  minLength?: number;
  /** Also remove common token shapes (GitHub, OpenAI, Anthropic, AWS, JWT, ...). Default true. */
  tokenShapes?: boolean;
  replacement?: string;
}

const DEFAULT_MIN_LENGTH = 6;

// Shapes of credentials worth removing wherever they appear. Each is anchored on a prefix that
// ordinary prose rarely contains, so the combined pattern stays cheap on long texts.
const TOKEN_SHAPES: readonly string[] = [
  // GitHub classic, OAuth, user-to-server, installation and refresh tokens
  String.raw`gh[pousr]_[A-Za-z0-9]{30,}`,
  // GitHub fine-grained personal access tokens
  String.raw`github_pat_[A-Za-z0-9_]{30,}`,
  // OpenAI (sk-, sk-proj-, ...) and Anthropic (sk-ant-...) keys; a digit is required so that
  // kebab-case words after "task-" or "disk-" are left alone
  String.raw`(?<![A-Za-z0-9_-])sk-(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{20,}`,
  // AWS access key ids (long-term and temporary)
  String.raw`(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])`,
  // Google API keys (Gemini)
  String.raw`AIza[0-9A-Za-z_-]{35}`,
  // npm automation and publish tokens
  String.raw`npm_[A-Za-z0-9]{36}`,
  // JSON Web Tokens: header.payload.signature, both JSON parts start with {"
  String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`,
  // PEM private keys
  String.raw`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`,
  // The credential of an HTTP Authorization header (git's http.extraheader holds one). The header
  // name is captured and put back; the only capture group of the combined pattern. A lookbehind
  // would do the same but made the whole pass ten times slower.
  String.raw`([Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz][Aa][Tt][Ii][Oo][Nn]:[ \t]*(?:[Bb]asic|[Bb]earer|[Tt]oken)[ \t]+)[A-Za-z0-9+/=._~-]{8,}`,
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * The base64 text of `bytes` as it appears inside a longer base64 string, for each of the three
 * byte alignments the value can start at. Only the characters that depend on the value's bytes
 * alone are kept; the ones shared with neighbouring bytes differ from one context to the next.
 */
export function base64Alignments(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    const firstBit = shift * 8;
    const endBit = (shift + bytes.length) * 8;
    const first = Math.ceil(firstBit / 6);
    const end = Math.floor(endBit / 6);
    if (end > first) out.push(encoded.slice(first, end));
  }
  return out;
}

function toBase64Url(s: string): string {
  return s.replace(/\+/g, '-').replace(/\//g, '_');
}

function jsonEscaped(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/** Every form in which a secret value is worth removing. */
export function secretForms(secret: string): string[] {
  const bases = new Set<string>([secret, secret.trim()]);
  if (/[\r\n]/.test(secret)) for (const line of secret.split(/\r?\n/)) bases.add(line.trim());
  const forms = new Set<string>();
  for (const base of bases) {
    if (base === '') continue;
    forms.add(base);
    for (const b64 of base64Alignments(Buffer.from(base, 'utf8'))) {
      forms.add(b64);
      forms.add(toBase64Url(b64));
    }
    const json = jsonEscaped(base);
    forms.add(json);
    forms.add(jsonEscaped(json));
    const uri = encodeURIComponent(base);
    forms.add(uri);
    forms.add(uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
    forms.add(uri.replace(/%20/g, '+'));
  }
  return [...forms];
}

/**
 * Builds a function that replaces each known secret (and its encoded forms) and each common
 * token shape with `[REDACTED]`, in one pass over the text.
 */
export function createRedactor(secrets: readonly string[], opts: RedactorOptions = {}): Redactor {
  const minLength = opts.minLength ?? DEFAULT_MIN_LENGTH;
  const replacement = opts.replacement ?? REDACTED;
  const literals = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.trim().length < minLength) continue;
    for (const form of secretForms(secret)) if (form.length >= minLength) literals.add(form);
  }
  // Longest first, so a value is removed whole rather than a shorter form inside it.
  const parts = [...literals].sort((a, b) => b.length - a.length).map(escapeRegExp);
  if (opts.tokenShapes !== false) parts.push(...TOKEN_SHAPES);
  if (parts.length === 0) return (text) => text;
  const pattern = new RegExp(parts.join('|'), 'g');
  const replace = (_match: string, header: string | undefined) => (header ?? '') + replacement;
  return (text) => (typeof text === 'string' && text.length > 0 ? text.replace(pattern, replace) : text);
}

// Names that hold credentials: the action's own inputs (INPUT_GITHUB-TOKEN, INPUT_API-KEY keep
// their hyphens), provider keys, the runner's tokens, and the usual *_TOKEN / *_SECRET family.
const SECRET_NAME =
  /(?:^|[_-])(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CREDENTIALS?|AUTH)(?:$|[_-])/i;
// Variables whose names mention a token but hold where to find it, not the token itself.
const LOCATION_NAME = /(?:_URL|_URI|_PATH|_FILE|_DIR|_HOST|_NAME|_USER|_TYPE)$/i;

/** Whether an environment variable of this name is treated as a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !LOCATION_NAME.test(name);
}

/** The values of the secret-looking variables in `env`, long enough to redact, without repeats. */
export function secretsFromEnv(env: NodeJS.ProcessEnv, minLength = DEFAULT_MIN_LENGTH): string[] {
  const out = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (typeof value === 'string' && value.trim().length >= minLength && isSecretName(name)) out.add(value);
  }
  return [...out];
}
