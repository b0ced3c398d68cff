import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../../src/protocol/transcript.js';
import { renderHtml } from '../../src/report/html.js';
import { inspectJson, renderInspectText } from '../../src/report/inspect.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { buildRunView } from '../../src/report/model.js';

// Transcripts are files people download and may be damaged or hand-edited: every reader must
// take any line shapes without throwing.

const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(
    1e300,
    -1e20,
    8.64e15 + 1,
    '2026-13-45',
    '<script>x</script>',
    '\x1b[2J',
    null,
    '__proto__',
    'constructor',
  ),
);

const line = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom('session', 'summary', 'event', 'weird'),
      event: anyValue,
      startedAt: anyValue,
      usage: anyValue,
      conclusion: anyValue,
      models: anyValue,
      timestamp: anyValue,
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({
    type: fc.constant('message'),
    message: fc.oneof(
      anyValue,
      fc.record(
        {
          role: fc.constantFrom('user', 'assistant', 'toolResult', 'system'),
          content: fc.oneof(
            anyValue,
            fc.array(
              fc.record(
                {
                  type: fc.constantFrom('text', 'toolCall', 'image', 'thinking', 'x'),
                  text: anyValue,
                  id: anyValue,
                  name: anyValue,
                  input: anyValue,
                  data: anyValue,
                  mimeType: anyValue,
                },
                { requiredKeys: ['type'] },
              ),
              { maxLength: 4 },
            ),
          ),
          toolCallId: anyValue,
          toolName: anyValue,
          usage: anyValue,
          stopReason: anyValue,
          timestamp: anyValue,
          details: anyValue,
          isError: anyValue,
        },
        { requiredKeys: ['role'] },
      ),
    ),
  }),
);

describe('readers on hostile transcripts', () => {
  it('never throw, whatever the lines hold', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.boolean(), (lines, tear) => {
        let text = lines.map((l) => JSON.stringify(l)).join('\n');
        if (tear) text = text.slice(0, Math.floor(text.length * 0.9));
        const view = buildRunView(parseTranscript(text));
        const html = renderHtml(view);
        expect(html.startsWith('<!doctype html>')).toBe(true);
        expect(html).not.toContain('<script>x</script>');
        const out = renderInspectText(view, { color: true });
        expect(out).not.toContain('\x1b[2J');
        expect(() => JSON.stringify(inspectJson(view))).not.toThrow();
        expect(({} as Record<string, unknown>).calls).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  // found by the property above (seed -327840141): String() of an object whose toString is not a
  // function throws, and an event's kind or a boundary's count is the line's own value
  it('render an event whose kind is an object with a toString that is not a function', () => {
    const text = [
      JSON.stringify({ type: 'event', event: { toString: 0 } }),
      JSON.stringify({ type: 'event', event: 'continue', earlierMessages: { valueOf: 1, toString: 2 } }),
    ].join('\n');
    const view = buildRunView(parseTranscript(text));
    expect(renderHtml(view)).toContain('{&quot;toString&quot;:0}');
    expect(renderInspectText(view, { color: false })).toContain('{"toString":0}');
  });

  it('counts a tool named __proto__ like any other, without touching Object.prototype', () => {
    const text = [
      {
        type: 'message',
        message: {
          role: 'assistant',
          model: 'm',
          stopReason: 'toolUse',
          timestamp: 1,
          content: [{ type: 'toolCall', id: 'a', name: '__proto__', input: {} }],
        },
      },
      {
        type: 'message',
        message: {
          role: 'toolResult',
          toolCallId: 'a',
          toolName: '__proto__',
          isError: true,
          content: [{ type: 'text', text: 'no' }],
          timestamp: 2,
        },
      },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const view = buildRunView(parseTranscript(text));
    expect(Object.entries(view.tools)).toEqual([['__proto__', { calls: 1, errors: 1 }]]);
    expect(JSON.parse(JSON.stringify(inspectJson(view))).tools).toEqual(
      JSON.parse('{"__proto__":{"calls":1,"errors":1}}'),
    );
    expect(({} as Record<string, unknown>).calls).toBeUndefined();
  });

  it('renders any Markdown without letting a tag through', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            '<',
            '>',
            '"',
            "'",
            '&',
            '*',
            '_',
            '`',
            '[',
            ']',
            '(',
            ')',
            '#',
            '-',
            '\n',
            ' ',
            'a',
            'h',
            't',
            'p',
            '2',
            '.',
            '```js\n',
            '<script>',
            ':',
            '/',
          ),
          maxLength: 200,
        }),
        (src) => {
          const html = renderMarkdown(src);
          const withoutOurs = html
            .replace(
              /<\/?(p|br|h[3-6]|ul|ol|li|strong|em|code|pre|blockquote)( class="md-code"( data-lang="[^"<>]*")?| start="\d+")?>/g,
              '',
            )
            .replace(
              /<a href="https?:\/\/[^"]*" rel="noopener noreferrer nofollow" target="_blank">|<\/a>/g,
              '',
            );
          expect(withoutOurs).not.toMatch(/[<>]/);
        },
      ),
      { numRuns: 500 },
    );
  });
});
