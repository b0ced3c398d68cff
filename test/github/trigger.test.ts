import { describe, expect, it } from 'vitest';
import { isOwnText, mentionsPhrase, TRACKING_MARKER } from '../../src/github/context/trigger.js';

describe('the trigger phrase', () => {
  it.each([
    ['/patchloop fix the divide-by-zero', true],
    ['Could you take this? /PatchLoop', true],
    ['please\n/patchloop\nthanks', true],
    ['(/patchloop) fix it', true],
    ['/patchloop, fix it.', true],
    ['/patchloopy fix it', false],
    ['/patchloop-bot fix it', false],
    ['see https://example.com/patchloop for docs', false],
    ['foo/patchloop', false],
    ['patchloop alone, no slash', false],
    ['`/patchloop` is how you call it', false],
    ['```\n/patchloop fix\n```\nthat is the syntax', false],
    ['> /patchloop fix it\n\nquoting the earlier request', false],
    ['<!-- /patchloop hidden -->visible text', false],
    ['<div hidden>/patchloop fix</div>visible text', false],
    ['<span title="/patchloop fix">hover me</span>', false],
    ['[x]: https://example.com "/patchloop fix"', false],
    ['/patch\u200Bloop fix', true],
    ['&#47;patchloop fix', true],
  ])('%j → %s', (text, expected) => {
    expect(mentionsPhrase(text, '/patchloop')).toBe(expected);
  });

  it('works for phrases with and without punctuation, and never for an empty one', () => {
    expect(mentionsPhrase('hey @fixer please', '@fixer')).toBe(true);
    expect(mentionsPhrase('mail me@fixer.dev', '@fixer')).toBe(false);
    expect(mentionsPhrase('Run The Bot now', 'run the bot')).toBe(true);
    expect(mentionsPhrase('anything', '  ')).toBe(false);
  });
});

describe('the run’s own text', () => {
  it('is recognised by its marker or by the bot login', () => {
    expect(isOwnText(`Working on it\n${TRACKING_MARKER}`, 'alice', ['github-actions[bot]'])).toBe(true);
    expect(isOwnText('/patchloop again', 'GitHub-Actions[bot]', ['github-actions[bot]'])).toBe(true);
    expect(isOwnText('/patchloop again', 'alice', ['github-actions[bot]'])).toBe(false);
  });
});
