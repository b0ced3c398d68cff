// The `output-schema` of a run (CONTRACT §9), compiled once with the ajv of its draft (2020-12
// or 07), and the `{"answer": SCHEMA}` parameters submit_answer shows the model. ajv is loaded
// only by runs that have a schema (the action imports this file when the input is set).
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../protocol/tool.js';

export type SchemaDraft = '2020-12' | '07';

/** An output schema compiled for its draft, with the parameters the model is shown. */
export interface AnswerSchema {
  schema: JsonSchema;
  draft: SchemaDraft;
  validate: ValidateFunction;
  /** `{"answer": SCHEMA}` as one object schema (the schema's definitions lifted to its root). */
  parameters: JsonSchema;
}

const OPTIONS = { allErrors: true, strict: false, logger: false } as const;

/** The draft a schema declares; one without `$schema` is read as 2020-12, the current draft. */
export function draftOf(schema: JsonSchema): SchemaDraft {
  const declared = schema.$schema;
  if (declared === undefined) return '2020-12';
  if (typeof declared !== 'string') throw new Error('its "$schema" is not a string');
  if (/draft\/2020-12\/schema#?$/.test(declared)) return '2020-12';
  if (/draft-07\/schema#?$/.test(declared)) return '07';
  throw new Error(
    `its "$schema" is ${JSON.stringify(declared)}; draft 2020-12 (https://json-schema.org/draft/2020-12/schema) and draft 07 (http://json-schema.org/draft-07/schema#) are supported`,
  );
}

/**
 * Parses and compiles an output schema given as JSON text. Throws an Error whose message says
 * what is wrong (not JSON, not an object, an unknown draft, a schema its draft rejects).
 */
export function compileAnswerSchema(text: string): AnswerSchema {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (err) {
    throw new Error(`it is not valid JSON (${(err as Error).message})`, { cause: err });
  }
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema))
    throw new Error('it must be a JSON object (a JSON Schema)');
  const s = schema as JsonSchema;
  const draft = draftOf(s);
  const ajv = draft === '2020-12' ? new Ajv2020(OPTIONS) : new Ajv(OPTIONS);
  const validate: ValidateFunction = ajv.compile(s);
  return { schema: s, draft, validate, parameters: answerParameters(s) };
}

/**
 * `{"answer": SCHEMA}`: the schema nested under `answer`, its `$defs`/`definitions` lifted to the
 * root so that its `#/$defs/…` references still point at them, and its other local references
 * (`#`, `#/properties/…`) moved under `#/properties/answer`.
 */
export function answerParameters(schema: JsonSchema): JsonSchema {
  const { $schema: _draft, $id: _id, $defs, definitions, ...rest } = schema;
  const moved = moveRefs(rest) as JsonSchema;
  return {
    type: 'object',
    properties: { answer: moved },
    required: ['answer'],
    additionalProperties: false,
    ...($defs !== undefined ? { $defs: moveRefs($defs) } : {}),
    ...(definitions !== undefined ? { definitions: moveRefs(definitions) } : {}),
  };
}

function moveRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(moveRefs);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if ((k === '$ref' || k === '$dynamicRef') && typeof v === 'string' && v.startsWith('#')) {
      const pointer = v.slice(1);
      out[k] =
        pointer === '' || pointer === '/'
          ? '#/properties/answer'
          : /^\/(\$defs|definitions)(\/|$)/.test(pointer) || !pointer.startsWith('/')
            ? v
            : `#/properties/answer${pointer}`;
    } else out[k] = moveRefs(v);
  }
  return out;
}
