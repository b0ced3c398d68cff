import fc from 'fast-check';
import { JSONParse as libraryParse, JSONStringify as libraryStringify } from 'json-with-bigint';
import { describe, expect, it } from 'vitest';
import { JSONParse, JSONStringify } from '../../src/github/octokit-json.js';

// The bundle's stand-in for json-with-bigint (scripts/bundle.mjs): the same values as the library
// for every text and value, BigInts included.

/** JSON texts as GitHub might answer, with integers of any size and strings that look like the library's marks. */
const texts = fc.oneof(
  fc.json(),
  fc
    .array(
      fc.oneof(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
        fc.bigInt({ min: 0n, max: 10n ** 20n }).map((n) => JSON.stringify(`${n}n`)),
        fc.integer().map((n) => JSON.stringify({ id: n, body: `${n}` })),
        fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
        fc.string().map((s) => JSON.stringify(s)),
      ),
    )
    .map((xs) => `[${xs.join(',')}]`),
);

describe('octokit-json', () => {
  it('parses every text to what json-with-bigint gives', () => {
    fc.assert(
      fc.property(texts, (text) => {
        let expected: unknown;
        try {
          expected = libraryParse(text);
        } catch (err) {
          // On Node 24 (seen with 24.21) the library's own parse (through JSON.parse's source text) fails
          // on an object with a key such as "toString" ("Cannot convert object to primitive
          // value"); there the text is one JSON.parse reads as well, and the bundle's stand-in
          // must give what JSON.parse gives.
          if (err instanceof SyntaxError) throw err;
          expected = JSON.parse(text);
        }
        // Where the text holds no run of sixteen digits (no integer JSON.parse could round), the
        // library's answer must be JSON.parse's; where it is not, the library is wrong (it reads
        // the key "0n" as "0nn", seed 2024973225) and the stand-in must give JSON.parse's.
        if (!/\d{16}/.test(text)) expected = JSON.parse(text);
        expect(JSONParse(text)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps integers past 2^53 exact, as BigInts, and reads the usual answer as JSON.parse does', () => {
    const big = '{"id":12345678901234567890,"small":9007199254740991,"text":"12345678901234567890n"}';
    expect(JSONParse(big)).toEqual({
      id: 12345678901234567890n,
      small: 9007199254740991,
      text: '12345678901234567890n',
    });
    const usual = '[{"id":2190123456,"body":"fix it","user":{"login":"alice"}}]';
    expect(JSONParse(usual)).toEqual(JSON.parse(usual));
    // where json-with-bigint itself throws on Node 24 (GitHub's runners), the bundle's parse does not
    expect(JSONParse('{"toString":"","valueOf":"x","id":1}')).toEqual({ toString: '', valueOf: 'x', id: 1 });
    // and where such a text also holds a run of sixteen digits (the library's own way then), found
    // by the property above on Node 24 (seed -1355020023)
    const found = '{"toString":null,"":-1.0000528689148923e+72}';
    // a key that looks like the library's mark for a BigInt stays as written (the library gives "0nn")
    expect(JSONParse('{"0n":""}')).toEqual({ '0n': '' });
    expect(JSONParse(found)).toEqual(JSON.parse(found));
    expect(() => JSONParse('')).toThrow(SyntaxError);
    expect(() => JSONParse('{"a":')).toThrow(SyntaxError);
  });

  it('serialises every value to what json-with-bigint gives, BigInts included', () => {
    const values = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(
        fc.string(),
        fc.oneof(fc.bigInt(), fc.string(), fc.integer(), fc.constant(null), fc.boolean()),
      ),
    );
    fc.assert(
      fc.property(values, fc.constantFrom(undefined, 2), (value, space) => {
        expect(JSONStringify(value, null, space)).toBe(libraryStringify(value, null, space));
        expect(JSONStringify(value)).toBe(libraryStringify(value));
      }),
      { numRuns: 500 },
    );
    expect(JSONStringify({ id: 12345678901234567890n })).toBe('{"id":12345678901234567890}');
  });
});
