import { readFile } from 'node:fs/promises';
import { parseTranscript } from '../protocol/transcript.js';
import { buildRunView, type RunView } from './model.js';

/** A transcript file that cannot be read or holds no transcript at all. */
export class TranscriptFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranscriptFileError';
  }
}

/** Reads and parses a transcript file into a run view; unreadable or foreign files throw TranscriptFileError. */
export async function loadRunView(path: string): Promise<RunView> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (err as Error).message;
    throw new TranscriptFileError(`cannot read transcript ${path}: ${why}`);
  }
  const parsed = parseTranscript(text);
  if (parsed.lines.length === 0) {
    throw new TranscriptFileError(
      `${path} holds no transcript lines (${parsed.invalid.length} lines are not JSON, ${parsed.unknown.length} have an unknown type); is it a patchloop .jsonl transcript?`,
    );
  }
  return buildRunView(parsed);
}
