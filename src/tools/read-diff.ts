// read_diff (CONTRACT §9): a review of a pull request too large to show whole reads the diffs it
// was not shown, one page of one file at a time, numbered as the first message numbers diffs (the
// right-side line numbers add_review_comment takes). Which pages were read is told to the caller,
// so the summary can say what was not reviewed.
import { defineTool, type AgentTool } from '../protocol/tool.js';

export interface ReadDiffOptions {
  /** The pages of a file's numbered diff; undefined for a file that is not under review. */
  pages(path: string): string[] | undefined;
  /** Each page as it is read (1-based). */
  onRead(path: string, page: number): void;
}

const PARAMETERS = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File path as the list of diffs names it.' },
    page: { type: 'integer', minimum: 1, description: 'Page of that diff, from 1 (default 1).' },
  },
  required: ['path'],
  additionalProperties: false,
} as const;

export function createReadDiffTool(options: ReadDiffOptions): AgentTool {
  return defineTool({
    name: 'read_diff',
    description:
      "Read one page of the pull request's diff of one file: each line led by its number on the right side (the pull request's version), the numbers add_review_comment takes. For the files whose diffs the first message lists but does not show.",
    parameters: PARAMETERS,
    readOnly: true,
    execute(args) {
      const pages = options.pages(args.path);
      if (!pages)
        return Promise.resolve({
          content: [
            {
              type: 'text',
              text: `${args.path} is not among the files under review; the list of diffs names them.`,
            },
          ],
          isError: true,
        });
      const page = args.page ?? 1;
      if (page > pages.length)
        return Promise.resolve({
          content: [{ type: 'text', text: `The diff of ${args.path} has ${pages.length} page(s).` }],
          isError: true,
        });
      options.onRead(args.path, page);
      const more =
        page < pages.length
          ? `\n\n(page ${page} of ${pages.length}; read page ${page + 1} next)`
          : pages.length > 1
            ? `\n\n(page ${page} of ${pages.length}, the last)`
            : '';
      return Promise.resolve({
        content: [{ type: 'text', text: `Diff of ${args.path}:\n\n${pages[page - 1]}${more}` }],
        details: { path: args.path, page, pages: pages.length },
      });
    },
  });
}
