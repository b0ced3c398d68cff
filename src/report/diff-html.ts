import { escapeHtml } from './escape.js';

// A unified diff as HTML: added lines green, removed lines red, hunk headers marked.

/** True when the text reads as a unified diff (a hunk header, or file headers). */
export function looksLikeDiff(text: string): boolean {
  return /^@@ .* @@/m.test(text) || (/^--- /m.test(text) && /^\+\+\+ /m.test(text));
}

function lineClass(line: string): string | undefined {
  if (line.startsWith('+++') || line.startsWith('---')) return 'd-file';
  if (line.startsWith('@@')) return 'd-hunk';
  if (line.startsWith('+')) return 'd-add';
  if (line.startsWith('-')) return 'd-del';
  if (line.startsWith('\\')) return 'd-meta';
  return undefined;
}

export function renderDiffHtml(diff: string): string {
  const lines = diff.replace(/\n$/, '').split('\n');
  const body = lines
    .map((line) => {
      const cls = lineClass(line);
      const text = escapeHtml(line);
      return cls ? `<span class="${cls}">${text}</span>` : text;
    })
    .join('\n');
  return `<pre class="diff">${body}</pre>`;
}
