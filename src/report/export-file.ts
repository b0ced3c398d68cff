import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { renderHtml } from './html.js';
import { loadRunView } from './load.js';

/** `run.jsonl` → `run.html` beside it; other names get `.html` appended. */
export function defaultHtmlPath(transcriptPath: string): string {
  return /\.jsonl?$/i.test(transcriptPath)
    ? transcriptPath.replace(/\.jsonl?$/i, '.html')
    : `${transcriptPath}.html`;
}

/**
 * Writes the HTML page of a transcript file and returns its path. Throws TranscriptFileError for
 * a file that cannot be read or is not a transcript, and the write error when the page cannot be written.
 */
export async function exportTranscriptHtml(
  transcriptPath: string,
  htmlPath = defaultHtmlPath(transcriptPath),
  options: { generatedAt?: Date } = {},
): Promise<string> {
  const view = await loadRunView(transcriptPath);
  await mkdir(dirname(htmlPath), { recursive: true });
  await writeFile(
    htmlPath,
    renderHtml(view, { source: basename(transcriptPath), generatedAt: options.generatedAt }),
    'utf8',
  );
  return htmlPath;
}
