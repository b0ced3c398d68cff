// The `output-schema` input (CONTRACT §2, §9): inline JSON, or a path of a file in the workspace.
// Compiled at start-up, so a bad schema is an input error before any model request.
import { isAbsolute, join } from 'node:path';
import { readRegularFileSync } from '../tools/safe-fs.js';
import type { AnswerSchema } from '../tools/answer-schema.js';
import { InputError } from './inputs.js';

const MAX_SCHEMA_BYTES = 256 * 1024;

/** The compiled schema, or undefined when the input is empty; throws InputError saying what is wrong. */
export async function loadOutputSchema(raw: string, workspace: string): Promise<AnswerSchema | undefined> {
  if (!raw) return undefined;
  let text = raw;
  let where = 'Input output-schema';
  if (!raw.startsWith('{')) {
    if (isAbsolute(raw) || raw.split(/[\\/]/).includes('..'))
      throw new InputError(
        `Input output-schema is neither inline JSON (starting with "{") nor a path inside the workspace: "${raw}".`,
      );
    where = `The output-schema file ${raw}`;
    try {
      // No symlink out of the checkout, no FIFO to hang on.
      text = readRegularFileSync(join(workspace, raw), MAX_SCHEMA_BYTES, {
        followSymlinks: true,
        within: workspace,
      }).toString('utf8');
    } catch (err) {
      throw new InputError(`${where} could not be read: ${(err as Error).message}.`);
    }
  }
  // ajv is loaded only by runs that have a schema.
  const { compileAnswerSchema } = await import('../tools/answer-schema.js');
  try {
    return compileAnswerSchema(text);
  } catch (err) {
    throw new InputError(`${where} is not a usable JSON Schema: ${(err as Error).message}.`);
  }
}
