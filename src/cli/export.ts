import { writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { defaultHtmlPath } from '../report/export-file.js';
import { renderHtml } from '../report/html.js';
import { parseFlags } from './args.js';
import { loadFromArgs } from './inspect.js';
import { UsageError, type CliCommand } from './io.js';

export { defaultHtmlPath };

export const EXPORT_USAGE = `Usage: patchloop export FILE.jsonl [-o OUT.html]

Writes the run as one self-contained HTML page (it loads nothing from the network).
  -o, --output OUT.html   where to write it (default: FILE with .html instead of .jsonl)`;

export const exportCommand: CliCommand = async (argv, io) => {
  const { flags, positionals } = parseFlags(argv, { output: 'string', help: 'boolean' }, { output: 'o' });
  if (flags.help) {
    io.stdout.write(`${EXPORT_USAGE}\n`);
    return 0;
  }
  const { path, view } = await loadFromArgs('export', positionals, io);
  const out = flags.output !== undefined ? resolve(io.cwd, flags.output) : defaultHtmlPath(path);
  if (out === path)
    throw new UsageError('export: the output would overwrite the transcript; choose another -o');
  const html = renderHtml(view, { source: basename(path), generatedAt: new Date() });
  try {
    await writeFile(out, html, 'utf8');
  } catch (err) {
    throw new UsageError(`export: cannot write ${out}: ${(err as Error).message}`);
  }
  io.stdout.write(`${out}\n`);
  return 0;
};
