import { describe, expect, it } from 'vitest';
import { buildSystemPrompt } from '../../src/agent/system-prompt.js';

describe('the system prompt of a review and of a run with an output schema', () => {
  it('a review is told to change nothing, to place remarks with add_review_comment and to lead with a verdict', () => {
    const p = buildSystemPrompt({
      mode: 'review',
      repository: 'o/r',
      toolNames: ['read_file', 'add_review_comment'],
      agentsMd: 'Use tabs.',
    });
    expect(p).toContain('code reviewer working in a git checkout of o/r');
    expect(p).toContain('You change nothing');
    expect(p).toContain('add_review_comment');
    expect(p).toContain('first line your verdict');
    expect(p).not.toContain('your changes are committed');
    expect(p).toContain('<agents-md>\nUse tabs.\n</agents-md>');
    expect(p).toContain('Tools: read_file, add_review_comment.');
  });

  it('a run with an output schema is told to end with submit_answer', () => {
    expect(buildSystemPrompt({ structuredAnswer: true })).toContain('call submit_answer with {"answer": …}');
    expect(buildSystemPrompt({})).not.toContain('submit_answer');
  });
});
