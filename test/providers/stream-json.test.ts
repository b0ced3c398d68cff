import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseArguments } from '../../src/protocol/arguments.js';
import { StreamJsonReader } from '../../src/protocol/stream-json.js';

function feed(text: string, cuts: number[]): { reader: StreamJsonReader; completions: number } {
  const reader = new StreamJsonReader();
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  let last = 0;
  let completions = 0;
  for (const p of [...points, text.length]) {
    if (reader.push(text.slice(last, p))) completions++;
    last = p;
  }
  return { reader, completions };
}

function topLevelScalars(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v === null || typeof v !== 'object'));
}

describe('StreamJsonReader', () => {
  it('exposes top-level scalar fields as soon as each completes', () => {
    const reader = new StreamJsonReader();
    expect(reader.push('{"path": "src/a')).toBe(false);
    expect(reader.fields).toEqual({});
    expect(reader.push('.ts", "n": 1')).toBe(true);
    expect(reader.fields).toEqual({ path: 'src/a.ts' });
    expect(reader.push('2, "ok": true, "nested": {"x": "}"}, "arr": [1, "]"], "z": null}')).toBe(true);
    expect(reader.fields).toEqual({ path: 'src/a.ts', n: 12, ok: true, z: null });
    expect(reader.complete).toBe(true);
    expect(reader.finish()).toEqual({
      ok: true,
      value: { path: 'src/a.ts', n: 12, ok: true, nested: { x: '}' }, arr: [1, ']'], z: null },
    });
  });

  it('handles an escape split across chunks', () => {
    const reader = new StreamJsonReader();
    for (const piece of ['{"content": "a\\', '"b\\', '\\c\\u00', '41"', ', "path": "x\\"y"}'])
      reader.push(piece);
    expect(reader.fields).toEqual({ content: 'a"b\\cA', path: 'x"y' });
    expect(reader.finish()).toEqual({ ok: true, value: { content: 'a"b\\cA', path: 'x"y' } });
  });

  it('skips values longer than the field limit but still parses them at the end', () => {
    const reader = new StreamJsonReader(16);
    const long = 'x'.repeat(100);
    const text = JSON.stringify({ content: long, path: 'p' });
    for (let i = 0; i < text.length; i += 7) reader.push(text.slice(i, i + 7));
    expect(reader.fields).toEqual({ path: 'p' });
    expect(reader.finish()).toEqual({ ok: true, value: { content: long, path: 'p' } });
  });

  it('reports invalid or truncated text only at the end, through parseArguments', () => {
    const cut = new StreamJsonReader();
    cut.push('{"path": "a.ts", "content": "unfinished');
    expect(cut.fields).toEqual({ path: 'a.ts' });
    const result = cut.finish();
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain('not valid JSON');

    const array = new StreamJsonReader();
    array.push('[1, 2]');
    expect(array.fields).toEqual({});
    const arr = array.finish();
    expect(arr.ok).toBe(false);
    if (!arr.ok) expect(arr.error).toContain('must be a JSON object');
  });

  it('agrees with JSON.parse for any object split anywhere', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.boolean(),
        (obj, cuts, pretty) => {
          const text = pretty ? JSON.stringify(obj, null, 2) : JSON.stringify(obj);
          const { reader } = feed(text, cuts);
          const expected = JSON.parse(text) as Record<string, unknown>;
          expect(reader.fields).toEqual(topLevelScalars(expected));
          expect(reader.complete).toBe(true);
          expect(reader.finish()).toEqual({ ok: true, value: expected });
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('StreamJsonReader keys', () => {
  it('treats a "__proto__" key as a plain field', () => {
    const reader = new StreamJsonReader();
    reader.push('{"__proto__": "x", "a": 1}');
    expect(Object.keys(reader.fields)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(reader.fields)).toBe(Object.prototype);
  });
});

describe('StreamJsonReader surrogates', () => {
  const cases = [
    '{"a": "x\\ud83d"}',
    '{"a": "\\uDC00 tail"}',
    '{"a": "ok \\ud83d\\ude00"}',
    `{"a": "raw ${String.fromCharCode(0xd83d)} lone"}`,
    `{"a": "raw pair \u{1F600}"}`,
    `{"k${String.fromCharCode(0xdc00)}": 1}`,
  ];
  it('gives the same result as parseArguments wherever the text is split', () => {
    for (const text of cases) {
      const whole = parseArguments(text);
      for (let cut = 0; cut <= text.length; cut++) {
        for (const size of [1, 2, 3]) {
          const reader = new StreamJsonReader();
          reader.push(text.slice(0, cut));
          for (let i = cut; i < text.length; i += size) reader.push(text.slice(i, i + size));
          expect(reader.finish()).toEqual(whole);
        }
      }
    }
    expect(parseArguments(cases[0]!).ok).toBe(false);
    expect(parseArguments(cases[2]!).ok).toBe(true);
  });
});
