import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/protocol/execute.js';
import { compileAnswerSchema } from '../../src/tools/answer-schema.js';
import { createSubmitAnswerTool } from '../../src/tools/submit-answer.js';

const TRIAGE_2020 = JSON.stringify({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    labels: { type: 'array', items: { $ref: '#/$defs/label' }, minItems: 1 },
    pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
  },
  required: ['labels'],
  additionalProperties: false,
  $defs: { label: { enum: ['bug', 'feature', 'question'] } },
});

function registryFor(text: string) {
  const answers: unknown[] = [];
  const compiled = compileAnswerSchema(text);
  const registry = new ToolRegistry([createSubmitAnswerTool(compiled, (a) => answers.push(a))]);
  let n = 0;
  const call = (input: unknown) =>
    registry.execute(
      { type: 'toolCall', id: `c${++n}`, name: 'submit_answer', input: input as Record<string, unknown> },
      new AbortController().signal,
    );
  return { compiled, answers, call };
}

const textOf = (r: { content: { type: string; text?: string }[] }) =>
  r.content.map((c) => c.text ?? '').join('');

describe('submit_answer', () => {
  it('shows the model {"answer": SCHEMA} with the definitions at the root, where its $refs point', () => {
    const { compiled } = registryFor(TRIAGE_2020);
    expect(compiled.draft).toBe('2020-12');
    expect(compiled.parameters).toMatchObject({
      type: 'object',
      required: ['answer'],
      properties: { answer: { properties: { labels: { items: { $ref: '#/$defs/label' } } } } },
      $defs: { label: { enum: ['bug', 'feature', 'question'] } },
    });
    expect(JSON.stringify(compiled.parameters)).not.toContain('$schema');
  });

  it('an invalid answer gets an error result naming each problem; a valid one is kept', async () => {
    const { answers, call } = registryFor(TRIAGE_2020);
    const bad = await call({ answer: { labels: ['bug', 'urgent'], pair: ['a', 1, 2], extra: true } });
    expect(bad.isError).toBe(true);
    const text = textOf(bad);
    expect(text).toContain('answer.labels[1]');
    expect(text).toContain('"bug", "feature", "question"');
    // prefixItems/items:false is a 2020-12 rule: checked by the 2020 validator
    expect(text).toContain('answer.pair: must NOT have more than 2 items');
    expect(text).toContain('"extra"');
    expect(answers).toEqual([]);
    const good = await call({ answer: { labels: ['bug'], pair: ['a', 1] } });
    expect(good.isError).toBe(false);
    expect(answers).toEqual([{ labels: ['bug'], pair: ['a', 1] }]);
  });

  it('a missing answer is an error of the arguments, not a crash', async () => {
    const { call, answers } = registryFor(TRIAGE_2020);
    const r = await call({});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('answer');
    expect(answers).toEqual([]);
  });

  it('draft 07 schemas are compiled as draft 07 (definitions, root $ref)', async () => {
    const { compiled, call } = registryFor(
      JSON.stringify({
        $schema: 'http://json-schema.org/draft-07/schema#',
        definitions: { node: { type: 'object', properties: { next: { $ref: '#' } } } },
        $ref: '#/definitions/node',
      }),
    );
    expect(compiled.draft).toBe('07');
    expect(compiled.parameters).toMatchObject({
      properties: { answer: { $ref: '#/definitions/node' } },
      definitions: { node: { properties: { next: { $ref: '#/properties/answer' } } } },
    });
    expect((await call({ answer: { next: { next: {} } } })).isError).toBe(false);
    const bad = await call({ answer: { next: 3 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('answer.next: must be object');
  });

  it.each([
    ['not JSON', '{labels', /not valid JSON/],
    ['not an object', '[1]', /must be a JSON object/],
    ['an unknown draft', '{"$schema":"http://json-schema.org/draft-04/schema#"}', /draft 2020-12/],
    ['a schema its draft rejects', '{"type":"nope"}', /schema is invalid/],
  ])('a bad schema (%s) is refused with the reason', (_what, text, reason) => {
    expect(() => compileAnswerSchema(text)).toThrow(reason);
  });
});
