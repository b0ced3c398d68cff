// `run_tests` takes `args` as words, never as shell text (CONTRACT §6): the model may group words
// with quotes, and everything else (`;`, `|`, `&`, `$(`, backticks, `>`) is an ordinary character.

/**
 * Splits text into words: whitespace separates, single quotes keep everything literally, double
 * quotes group (a backslash there escapes only `"` and `\`), a backslash outside quotes escapes
 * the next character. An unterminated quote runs to the end of the text.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      inWord = true;
      const end = text.indexOf("'", i + 1);
      const stop = end < 0 ? text.length : end;
      word += text.slice(i + 1, stop);
      i = stop;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) i++;
        word += text[i];
      }
    } else if (c === '\\') {
      inWord = true;
      if (i + 1 < text.length) word += text[++i];
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      inWord = true;
      word += c;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** One word as the shell reads it back unchanged: single-quoted unless it is plainly safe. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
