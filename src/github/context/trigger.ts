// Whether a piece of GitHub text asks for a run.
import { sanitizeUntrusted } from '../sanitize.js';

/** Hidden marker in every comment patchloop writes, so its own comments never start a run. */
export const TRACKING_MARKER = '<!-- patchloop:run -->';

/** The login GITHUB_TOKEN writes as. */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

const WORD = /[\p{L}\p{N}_\-/]/u;

/**
 * The phrase as a whole word, case-insensitive, anywhere in the text a reader sees (hidden
 * markup and invisible characters count for nothing, as for the model), but not inside code or
 * a quotation of an earlier comment (quoting a request must not repeat it).
 */
export function mentionsPhrase(text: string, phrase: string): boolean {
  const needle = phrase.trim().toLowerCase();
  if (!needle) return false;
  const hay = visibleProse(sanitizeUntrusted(text)).toLowerCase();
  for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + 1)) {
    const before = at === 0 ? '' : hay[at - 1]!;
    const after = hay[at + needle.length] ?? '';
    if (!WORD.test(before) && !WORD.test(after)) return true;
  }
  return false;
}

/** Markdown prose without fenced or inline code, block quotes and HTML comments. */
function visibleProse(text: string): string {
  const lines = text.replace(/<!--[\s\S]*?(-->|$)/g, ' ').split(/\r?\n/);
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      continue;
    }
    if (opener) {
      fence = opener;
      continue;
    }
    if (/^ {0,3}>/.test(line)) continue;
    kept.push(line.replace(/(`+)[\s\S]*?\1/g, ' '));
  }
  return kept.join('\n');
}

/** True for text patchloop wrote itself (its marker) or an author that is the run's own bot. */
export function isOwnText(
  body: string | null | undefined,
  authorLogin: string | undefined,
  botLogins: readonly string[],
): boolean {
  if (body?.includes(TRACKING_MARKER)) return true;
  if (!authorLogin) return false;
  const login = authorLogin.toLowerCase();
  return botLogins.some((b) => b.toLowerCase() === login);
}
