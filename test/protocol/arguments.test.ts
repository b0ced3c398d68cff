import { describe, expect, it, vi } from 'vitest';
import { compileValidator, findLoneSurrogate, parseArguments } from '../../src/protocol/arguments.js';

describe('parseArguments: argument text is untrusted', () => {
  it('parses a JSON object', () => {
    expect(parseArguments('{"path":"a.txt","limit":3}')).toEqual({
      ok: true,
      value: { path: 'a.txt', limit: 3 },
    });
  });

  it('treats empty text as no arguments', () => {
    expect(parseArguments('  ')).toEqual({ ok: true, value: {} });
  });

  const bad: [string, string, RegExp][] = [
    ['invalid JSON', '{path: a.txt}', /not valid JSON/],
    ['a bad escape', '{"path":"a\\q.txt"}', /not valid JSON/],
    ['truncated JSON', '{"path":"src/ma', /not valid JSON/],
    ['an array', '[1,2]', /must be a JSON object, but they were an array/],
    ['a string', '"x"', /must be a JSON object, but they were a string/],
    ['null', 'null', /must be a JSON object, but they were null/],
    ['a number', '42', /must be a JSON object, but they were a number/],
    ['a lone high surrogate', '{"path":"\\ud800.txt"}', /unpaired UTF-16 surrogate escape at path/],
    [
      'a lone low surrogate in a nested key value',
      '{"a":{"b":["ok","\\udc00"]}}',
      /unpaired UTF-16 surrogate escape at a\.b\[1\]/,
    ],
  ];
  for (const [name, text, expected] of bad) {
    it(`gives an error for ${name}, echoing what was received`, () => {
      const r = parseArguments(text);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error).toMatch(expected);
      expect(r.error).toContain(`Received: ${text}`);
    });
  }

  it('accepts a valid surrogate pair', () => {
    const r = parseArguments('{"s":"\\ud83d\\ude00"}');
    expect(r).toEqual({ ok: true, value: { s: '😀' } });
  });

  it('shortens a huge echo', () => {
    const text = `{"x": ${'['.repeat(10)}`.padEnd(100_000, ' ');
    const r = parseArguments(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.length).toBeLessThan(3000);
      expect(r.error).toMatch(/more characters\)$/);
    }
  });

  it('finds lone surrogates by index', () => {
    expect(findLoneSurrogate('ab')).toBe(-1);
    expect(findLoneSurrogate('a\ud800')).toBe(1);
    expect(findLoneSurrogate('\udfffa')).toBe(0);
    expect(findLoneSurrogate('😀')).toBe(-1);
  });
});

describe('compileValidator', () => {
  const validate = compileValidator({
    name: 'read_file',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, offset: { type: 'integer', minimum: 1 } },
      required: ['path'],
      additionalProperties: false,
    },
  });

  it('accepts valid arguments', async () => {
    expect(await validate({ path: 'a', offset: 2 })).toEqual({ ok: true });
  });

  it('lists every problem and echoes the arguments', async () => {
    const r = await validate({ offset: 'x', colour: 'red' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toContain('Invalid arguments for read_file');
    expect(r.error).toContain('missing required parameter "path"');
    expect(r.error).toContain('unknown parameter "colour"');
    expect(r.error).toContain('"offset" must be integer');
    expect(r.error).toContain('Received: {"offset":"x","colour":"red"}');
  });

  it('reports a schema that cannot be compiled as an error result instead of throwing', async () => {
    const broken = compileValidator({ name: 'broken', parameters: { type: 'no-such-type' } });
    const r = await broken({});
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toContain('The schema of broken could not be compiled');
  });

  it('a format it does not know (an MCP server’s "uri") is left to the server, with nothing on the log', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const v = compileValidator({
        name: 'mcp__x__fetch',
        parameters: {
          type: 'object',
          properties: { url: { type: 'string', format: 'uri' } },
          required: ['url'],
        },
      });
      expect(await v({ url: 'not a uri' })).toEqual({ ok: true });
      const r = await v({});
      expect(r.ok).toBe(false);
      expect([...warn.mock.calls, ...log.mock.calls]).toEqual([]);
    } finally {
      warn.mockRestore();
      log.mockRestore();
    }
  });
});
