import type { Redactor } from './transcript.js';

// One redactor for every text that leaves a run: comment, step summary, logs, transcript, HTML,
// outputs. Known secret values are removed together with the encoded forms they take when they
// travel (base64 in an Authorization header, %-escapes in a URL, \-escapes inside JSON), and
// well-known token shapes are removed even when nobody told us the value.

export const REDACTED = '[REDACTED]';

export interface RedactorOptions {
  /**
   * Values shorter than this are ignored (default MIN_SECRET_LENGTH, the same bound under which
   * the action does not register a value with the runner's log masking either).
   */
  minLength?: number;
  /** Also remove common token shapes (GitHub, OpenAI, Anthropic, AWS, JWT, ...). Default true. */
  tokenShapes?: boolean;
  replacement?: string;
}

/**
 * The shortest value treated as a secret, everywhere: registered with the runner (which masks it
 * in the log) and redacted from the comment, the step summary, the transcript, the HTML page and
 * the outputs alike. Under it a value would shred ordinary text ("abc"), and is neither. A value
 * masked in the log but left in the comment would be a secret published in one place only.
 */
export const MIN_SECRET_LENGTH = 4;
const DEFAULT_MIN_LENGTH = MIN_SECRET_LENGTH;

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
  // The credential of an HTTP Authorization header (git's http.extraheader holds one). The header
  // name is captured and put back; the only capture group of the combined pattern. A lookbehind
  // would do the same but made the whole pass ten times slower.
  String.raw`([Aa][Uu][Tt][Hh][Oo][Rr][Ii][Zz][Aa][Tt][Ii][Oo][Nn]:[ \t]*(?:[Bb]asic|[Bb]earer|[Tt]oken)[ \t]+)[A-Za-z0-9+/=._~-]{8,}`,
];

// A PEM private key's first and last lines (the body between them is removed with them).
const PEM_LINE = /-----(BEGIN|END) [A-Z ]*PRIVATE KEY-----/g;

/**
 * Removes PEM private keys from one text: each block from its BEGIN line to its END line; a block
 * that begins here but does not end (its end is in another text: the next field of a JSON
 * object, the next line of a log) to the end of the text; an END line with no BEGIN before it,
 * from the start of the text (or the end of the last block). Done per text (per string value),
 * never across the texts of a serialised object, so it cannot cut a JSON line in two.
 */
function redactPem(text: string, replacement: string): string {
  if (!text.includes('PRIVATE KEY-----')) return text;
  let out = '';
  let at = 0;
  let open = false;
  for (const m of text.matchAll(PEM_LINE)) {
    if (m[1] === 'BEGIN') {
      if (open) continue;
      out += text.slice(at, m.index);
      open = true;
    } else {
      out += replacement;
      open = false;
    }
    at = m.index + m[0].length;
  }
  if (open) {
    out += replacement;
    at = text.length;
  }
  return out + text.slice(at);
}

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
  const shapes = opts.tokenShapes !== false;
  if (shapes) parts.push(...TOKEN_SHAPES);
  if (parts.length === 0) return (text) => text;
  const pattern = new RegExp(parts.join('|'), 'g');
  const replace = (_match: string, header: string | undefined) => (header ?? '') + replacement;
  return (text) => {
    if (typeof text !== 'string' || text.length === 0) return text;
    return (shapes ? redactPem(text, replacement) : text).replace(pattern, replace);
  };
}

/**
 * `value` with `redact` applied to every string in it (object keys too), before it is serialised:
 * redacting the serialised text instead could join a match across two fields and cut the line.
 * Returns `value` itself when nothing in it changed (so a caller can tell without comparing).
 */
export function redactValue<T>(value: T, redact: Redactor): T {
  return walk(value, redact) as T;
}

function walk(value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = walk(value[i], redact);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  // toJSON (a Date, a Buffer) decides what is written: walk what it gives
  const json = (value as { toJSON?: unknown }).toJSON;
  if (typeof json === 'function') return walk((json as () => unknown).call(value), redact);
  let out: Record<string, unknown> | undefined;
  const entries = Object.entries(value);
  for (let i = 0; i < entries.length; i++) {
    const [k, v] = entries[i]!;
    const key = redact(k);
    const next = walk(v, redact);
    if (key !== k || next !== v) {
      out ??= Object.fromEntries(entries.slice(0, i));
      out[key] = next;
    } else if (out) out[k] = v;
  }
  return out ?? value;
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
