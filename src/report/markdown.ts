import { escapeHtml } from './escape.js';

// A small Markdown renderer for the model's text in the HTML page. Safe by construction: the text
// is escaped first and only a few constructs are recognised on the escaped text, so no tag or
// attribute of the input can survive. Links keep http(s) targets only.

// Placeholder for finished HTML pieces while the rest of a line is processed; the same character in
// the input is replaced first, so the input can never forge one.
const MARK = '\uE000';

// Past this length a line is only escaped: the inline patterns backtrack, and a huge line is
// output, not prose.
const INLINE_MAX = 4000;
const MAX_QUOTE_DEPTH = 4;

function inline(raw: string): string {
  if (raw.length > INLINE_MAX) return escapeHtml(raw);
  const tokens: string[] = [];
  const hold = (html: string) => `${MARK}${tokens.push(html) - 1}${MARK}`;
  let text = raw.replace(/\uE000/g, '\uFFFD');
  text = text.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_m, _ticks: string, body: string) =>
    hold(`<code>${escapeHtml(body.replace(/^ (.*) $/s, '$1'))}</code>`),
  );
  text = escapeHtml(text);
  text = text.replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s()\uE000]+)\)/g, (_m, label: string, href: string) =>
    hold(`<a href="${href}" rel="noopener noreferrer nofollow" target="_blank">${emphasis(label)}</a>`),
  );
  text = emphasis(text);
  for (let depth = 0; depth < 3 && text.includes(MARK); depth++) {
    text = text.replace(/\uE000(\d+)\uE000/g, (_m, i: string) => tokens[Number(i)] ?? '');
  }
  return text;
}

function emphasis(text: string): string {
  return text
    .replace(/\*\*(?=\S)([^*\n]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^\w])__(?=\S)([^_\n]*?\S)__(?!\w)/g, '$1<strong>$2</strong>')
    .replace(
      /(^|[^*\w])\*(?=[^\s*])([^*\n]*?[^\s*])?\*(?![*\w])/g,
      (m, pre: string, body: string | undefined) => (body === undefined ? m : `${pre}<em>${body}</em>`),
    )
    .replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g, '$1<em>$2</em>');
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;

/** Markdown → HTML fragment. */
export function renderMarkdown(source: string, depth = 0): string {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push(`<p>${para.map(inline).join('<br>')}</p>`);
    para = [];
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (
        i < lines.length &&
        !new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`).test(lines[i]!)
      ) {
        body.push(lines[i]!);
        i++;
      }
      i++;
      const lang = fence[2] ? ` data-lang="${escapeHtml(fence[2])}"` : '';
      out.push(`<pre class="md-code"${lang}><code>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = line.length <= 300 ? HEADING.exec(line) : null;
    if (heading) {
      flush();
      const level = Math.min(6, heading[1]!.length + 2);
      out.push(`<h${level}>${inline(heading[2]!.replace(/\s+#+\s*$/, ''))}</h${level}>`);
      i++;
      continue;
    }
    if (BULLET.test(line) || NUMBERED.test(line)) {
      flush();
      const ordered = !BULLET.test(line);
      const pattern = ordered ? NUMBERED : BULLET;
      const first = ordered ? NUMBERED.exec(line)![1]! : '';
      const items: string[] = [];
      while (i < lines.length && pattern.test(lines[i]!)) {
        const m = pattern.exec(lines[i]!)!;
        const parts = [ordered ? m[2]! : m[1]!];
        i++;
        // Indented lines that follow belong to the item.
        while (
          i < lines.length &&
          /^\s{2,}\S/.test(lines[i]!) &&
          !BULLET.test(lines[i]!) &&
          !NUMBERED.test(lines[i]!)
        ) {
          parts.push(lines[i]!.trim());
          i++;
        }
        items.push(`<li>${parts.map(inline).join('<br>')}</li>`);
      }
      const start = ordered && first !== '1' ? ` start="${Number(first)}"` : '';
      out.push(ordered ? `<ol${start}>${items.join('')}</ol>` : `<ul>${items.join('')}</ul>`);
      continue;
    }
    if (depth < MAX_QUOTE_DEPTH && QUOTE.test(line)) {
      flush();
      const body: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) {
        body.push(QUOTE.exec(lines[i]!)![1]!);
        i++;
      }
      out.push(`<blockquote>${renderMarkdown(body.join('\n'), depth + 1)}</blockquote>`);
      continue;
    }
    if (line.trim() === '') flush();
    else para.push(line.trim());
    i++;
  }
  flush();
  return out.join('\n');
}
