// Text patchloop echoes (file names, the final message, the tool log, the request, errors) must
// never open an HTML comment in what it posts: patchloop keeps its own hidden markers in HTML
// comments at the end of its comment and PR body, and a command can name a file like one.
//
// A zero-width space between `<` and `!` leaves the text readable (inside code spans too, where an
// entity would show as `&lt;`) and is no longer the start of a comment for GitHub's renderer, nor
// for patchloop's marker reader.

const ZERO_WIDTH_SPACE = '\u200B';

/**
 * Breaks every `<!` in `text` (the start of `<!--`, and of `<![CDATA[` and the like, which some
 * renderers also hide); applying it twice changes nothing more.
 */
export function neutralizeHiddenMarkup(text: string): string {
  return text.includes('<!') ? text.replaceAll('<!', `<${ZERO_WIDTH_SPACE}!`) : text;
}
