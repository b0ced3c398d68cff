// submit_answer (CONTRACT §9, structured answers): the model hands in a JSON value that must be
// valid against the workflow's `output-schema` (compiled in answer-schema.ts); an answer that
// does not validate gets an error result listing what is wrong, so the model can correct it and
// call again.
import type { ErrorObject } from 'ajv';
import type { AgentTool } from '../protocol/tool.js';
import type { AnswerSchema } from './answer-schema.js';

/** ajv's errors as lines a model (or a person) can act on: where, and what is wrong. */
export function describeAnswerErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  const lines = (errors ?? []).map((e) => {
    const where = `answer${e.instancePath.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.')}`;
    const p = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'required':
        return `${where}: missing required property "${String(p.missingProperty)}"`;
      case 'additionalProperties':
        return `${where}: has a property the schema does not allow: "${String(p.additionalProperty)}"`;
      case 'enum':
        return `${where}: must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
      case 'const':
        return `${where}: must be ${JSON.stringify(p.allowedValue)}`;
      default:
        return `${where}: ${e.message ?? 'is invalid'}`;
    }
  });
  return [...new Set(lines)];
}

export interface SubmitAnswerDetails {
  valid: boolean;
  errors?: string[];
}

/**
 * The submit_answer tool for one compiled schema. `onAnswer` gets each valid answer (the last
 * one counts); an invalid one is an error result naming every problem.
 */
export function createSubmitAnswerTool(
  compiled: AnswerSchema,
  onAnswer: (answer: unknown) => void,
): AgentTool<{ answer: unknown }, SubmitAnswerDetails> {
  return {
    name: 'submit_answer',
    description:
      'Submit the answer this run must end with: a JSON value under "answer" that is valid against the schema of its parameters. An answer that is not valid gets an error listing what is wrong; correct it and call again. Call it once you have the answer, before your final message; a later valid call replaces an earlier one.',
    parameters: compiled.parameters,
    readOnly: true,
    // The answer is checked by the schema's own draft in execute; here only the envelope.
    checkArguments(args) {
      const extra = Object.keys(args).filter((k) => k !== 'answer');
      if (!('answer' in args))
        return 'Invalid arguments for submit_answer: missing required parameter "answer" (the answer goes under "answer").';
      if (extra.length > 0)
        return `Invalid arguments for submit_answer: unknown parameter(s) ${extra.map((k) => `"${k}"`).join(', ')}; the answer goes under "answer".`;
      return undefined;
    },
    execute(args) {
      const answer = args.answer;
      if (!compiled.validate(answer)) {
        const errors = describeAnswerErrors(compiled.validate.errors);
        return Promise.resolve({
          content: [
            {
              type: 'text',
              text: `The answer is not valid against the output schema:\n${errors.map((e) => `- ${e}`).join('\n')}\nCorrect it and call submit_answer again.`,
            },
          ],
          details: { valid: false, errors },
          isError: true,
        });
      }
      onAnswer(answer);
      return Promise.resolve({
        content: [
          {
            type: 'text',
            text: 'Answer accepted. Finish with a short final message (no more tool calls needed).',
          },
        ],
        details: { valid: true },
      });
    },
  };
}
