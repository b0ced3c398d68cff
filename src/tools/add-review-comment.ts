// add_review_comment (CONTRACT §9): a remark on lines of the pull request's diff, kept until the
// review is posted whole at the end. Where a comment may sit is the caller's to say (`place`,
// from the diff); a comment that cannot sit in the diff is not an error: it goes into the
// review's body, and the result says so, so the model learns where lines are and goes on.
import { defineTool, type AgentTool } from '../protocol/tool.js';

export interface DraftComment {
  path: string;
  line: number;
  startLine?: number;
  body: string;
  /** the replacement text for lines startLine..line (or line), shown as a ```suggestion block */
  suggestion?: string;
  /** false: it goes into the review body, with `reason` */
  inDiff: boolean;
  reason?: string;
}

export interface AddReviewCommentOptions {
  /** Whether the lines are right-side lines of one hunk of `path`'s diff, and why not. */
  place(path: string, line: number, startLine?: number): { ok: true } | { ok: false; reason: string };
  /** Each comment as it is added. */
  onComment(comment: DraftComment): void;
}

const PARAMETERS = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      description: 'File path as the diff names it (relative to the repository root).',
    },
    line: {
      type: 'integer',
      minimum: 1,
      description:
        "The line the comment is on: its number on the right side of the diff (the pull request's version), as the diff you were given numbers it. For a range, the last line.",
    },
    start_line: {
      type: 'integer',
      minimum: 1,
      description: 'First line of a multi-line comment (same hunk as line).',
    },
    body: { type: 'string', minLength: 1, description: 'The remark, in Markdown.' },
    suggestion: {
      type: 'string',
      description:
        'Only when the fix is a concrete replacement: the exact new text for lines start_line..line (or line), without a code fence. It is shown as a suggestion the author can apply.',
    },
  },
  required: ['path', 'line', 'body'],
  additionalProperties: false,
} as const;

export function createAddReviewCommentTool(options: AddReviewCommentOptions): AgentTool {
  return defineTool({
    name: 'add_review_comment',
    description:
      "Add an inline comment to the review on lines of the pull request's diff (right side). Comments are posted together, as one review, when you finish. A comment on a line outside the diff is moved into the review's body (the result says so). Use it for specific remarks; say the overall verdict in your final message.",
    parameters: PARAMETERS,
    // It changes only the review being drafted, never the workspace.
    readOnly: true,
    execute(args) {
      const startLine = args.start_line === args.line ? undefined : args.start_line;
      const placed = options.place(args.path, args.line, startLine);
      const comment: DraftComment = {
        path: args.path,
        line: args.line,
        ...(startLine !== undefined ? { startLine } : {}),
        body: args.body,
        ...(args.suggestion !== undefined ? { suggestion: args.suggestion } : {}),
        inDiff: placed.ok,
        ...(placed.ok ? {} : { reason: placed.reason }),
      };
      options.onComment(comment);
      const where = `${args.path} line ${startLine !== undefined ? `${startLine}–` : ''}${args.line}`;
      const text = placed.ok
        ? `Comment added on ${where}; it is posted with the review when you finish.`
        : `Not on the diff: ${placed.reason}. The comment on ${where} goes into the review's body instead (nothing is lost). To place it inline, add it again on a numbered line of the diff.`;
      return Promise.resolve({ content: [{ type: 'text', text }], details: comment });
    },
  });
}
