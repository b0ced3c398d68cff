import { mkdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { defaultHtmlPath } from '../report/export-file.js';
import { renderHtml } from '../report/html.js';
import { parseFlags } from './args.js';
import { loadFromArgs } from './inspect.js';
import { UsageError, type CliCommand } from './io.js';

export { defaultHtmlPath };

export const EXPORT_USAGE = `Usage: patchloop export FILE.jsonl [-o OUT.html | -o FOLDER/]

Writes the run as one self-contained HTML page (it loads nothing from the network).
  -o, --output OUT   where to write it: a file (its folders are made as needed), or a folder
                     (an existing one, or a path ending in /) to write FILE.html into
                     (default: FILE with .html instead of .jsonl, beside it); - for stdout`;

/** Where `-o` says to write: into a folder when it names one, else the file itself. */
async function outputPath(given: string, cwd: string, transcript: string): Promise<string> {
  const out = resolve(cwd, given);
  const isFolder =
    /[/\\]$/.test(given) ||
    (await stat(out).then(
      (s) => s.isDirectory(),
      () => false,
    ));
  return isFolder ? join(out, basename(defaultHtmlPath(transcript))) : out;
}

export const exportCommand: CliCommand = async (argv, io) => {
  const { flags, positionals } = parseFlags(argv, { output: 'string', help: 'boolean' }, { output: 'o' });
  if (flags.help) {
    io.stdout.write(`${EXPORT_USAGE}\n`);
    return 0;
  }
  if (flags.output !== undefined && flags.output.trim() === '') throw new UsageError('-o needs a path');
  const { path, view } = await loadFromArgs('export', positionals, io);
  if (flags.output === '-') {
    io.stdout.write(renderHtml(view, { source: basename(path), generatedAt: new Date() }));
    return 0;
  }
  const out =
    flags.output !== undefined ? await outputPath(flags.output, io.cwd, path) : defaultHtmlPath(path);
  if (out === path) throw new UsageError('the output would overwrite the transcript; choose another -o');
  const html = renderHtml(view, { source: basename(path), generatedAt: new Date() });
  try {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, html, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'ENOTDIR' || code === 'EEXIST'
          ? 'a part of the path is a file, not a folder'
          : code === 'EISDIR'
            ? 'it is a folder'
            : (err as Error).message;
    throw new Error(`cannot write ${out}: ${why}`, { cause: err });
  }
  io.stdout.write(`${out}\n`);
  return 0;
};
