// What Octokit parses its JSON answers and serialises its request bodies with, in the bundle
// (scripts/bundle.mjs puts this module in place of json-with-bigint for @octokit/request). That
// library reads every answer twice so that integers beyond 2^53 become BigInts: a regular
// expression over the whole text, then JSON.parse with a reviver called for every value. An
// integer that large needs sixteen digits in a row: a text without such a run (GitHub's ids are
// far shorter) is parsed by JSON.parse alone, with the same result; any other text, and any call
// with a reviver or replacer, goes to the library as before.
import { JSONParse as parseWithBigInts, JSONStringify as stringifyWithBigInts } from 'json-with-bigint';

const SIXTEEN_DIGITS = /\d{16}/;

export const JSONParse: typeof JSON.parse = (text, reviver) => {
  if (reviver === undefined && typeof text === 'string' && !SIXTEEN_DIGITS.test(text))
    return JSON.parse(text);
  try {
    return parseWithBigInts(text, reviver);
  } catch (err) {
    // On Node 24 the library fails on an object with a key such as "toString" (it turns each value's
    // source into a primitive): a text JSON.parse reads is then read by JSON.parse, as when it holds
    // no integer past 2^53; a text that is not JSON still says so.
    if (err instanceof SyntaxError || typeof text !== 'string') throw err;
    return JSON.parse(text, reviver);
  }
};

export const JSONStringify = ((value: unknown, replacer?: unknown, space?: string | number) => {
  if (replacer === undefined || replacer === null) {
    try {
      return JSON.stringify(value, null, space);
    } catch (err) {
      // a BigInt anywhere in the value: JSON.stringify refuses it, the library writes it out
      if (!(err instanceof TypeError)) throw err;
    }
  }
  return stringifyWithBigInts(value, replacer as never, space);
}) as typeof JSON.stringify;
