// The model's words must not notify people on GitHub. A zero-width space between `@` and the login
// keeps the text readable and is not linked as a mention; code spans are no protection, because a
// backtick in the model's text can close them.

const ZERO_WIDTH_SPACE = '\u200B';

/**
 * Breaks every `@login` and `@org/team` that GitHub would link: an `@` at the start or after any
 * character that is not a letter, digit or underscore (so `a@b.com` stays as it is), followed by a
 * login's first character. Applying it twice changes nothing more.
 */
export function neutralizeMentions(text: string): string {
  return text.replace(/(^|[^A-Za-z0-9_])@(?=[A-Za-z0-9])/g, `$1@${ZERO_WIDTH_SPACE}`);
}
