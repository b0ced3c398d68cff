import { describe, expect, expectTypeOf, it } from 'vitest';
import { ToolRegistry } from '../../src/protocol/execute.js';
import { defineTool, textOutput, type ArgsOf } from '../../src/protocol/tool.js';
import { textOf } from '../../src/protocol/types.js';
import type {
  BashArgs,
  EditFileArgs,
  FindFilesArgs,
  GrepArgs,
  ListDirArgs,
  ReadFileArgs,
  RunTestsArgs,
  WriteFileArgs,
} from '../../src/tools/index.js';

// A tool's argument type comes from its schema: change one and the other follows, or the build fails.

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    limit: { type: 'integer' },
    literal: { type: 'boolean' },
    mode: { enum: ['head', 'tail'] },
    globs: { type: 'array', items: { type: 'string' } },
  },
  required: ['path'],
  additionalProperties: false,
} as const;

describe('tool arguments derived from the schema', () => {
  it('types required and optional properties from the schema', () => {
    expectTypeOf<ArgsOf<typeof schema>>().toEqualTypeOf<{
      path: string;
      limit?: number;
      literal?: boolean;
      mode?: 'head' | 'tail';
      globs?: string[];
    }>();
  });

  it('gives execute the schema’s type, and the registry validates against the same schema', async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: 'peek',
      description: 'Shows a path.',
      parameters: schema,
      async execute(args) {
        expectTypeOf(args.path).toEqualTypeOf<string>();
        expectTypeOf(args.mode).toEqualTypeOf<'head' | 'tail' | undefined>();
        seen.push(args);
        return textOutput(`${args.path} ${args.mode ?? 'head'}`);
      },
    });
    const registry = new ToolRegistry([tool]);
    const ok = await registry.execute(
      { type: 'toolCall', id: 'c1', name: 'peek', input: { path: 'a.ts', mode: 'tail' } },
      new AbortController().signal,
    );
    expect(textOf(ok.content)).toBe('a.ts tail');
    const bad = await registry.execute(
      { type: 'toolCall', id: 'c2', name: 'peek', input: { mode: 'middle' } },
      new AbortController().signal,
    );
    expect(bad.isError).toBe(true);
    expect(seen).toHaveLength(1);
  });
});

// The built-in tools' argument types come from their schemas; each must stay the shape `execute` was written for.
describe('built-in tools’ argument types', () => {
  it('read_file', () => {
    expectTypeOf<ReadFileArgs>().toEqualTypeOf<{ path: string; offset?: number; limit?: number }>();
  });

  it('edit_file', () => {
    expectTypeOf<EditFileArgs>().toEqualTypeOf<{ path: string; oldText: string; newText: string }>();
  });

  it('write_file', () => {
    expectTypeOf<WriteFileArgs>().toEqualTypeOf<{ path: string; content: string }>();
  });

  it('grep', () => {
    expectTypeOf<GrepArgs>().toEqualTypeOf<{
      pattern: string;
      path?: string;
      glob?: string;
      ignoreCase?: boolean;
      literal?: boolean;
      context?: number;
      limit?: number;
    }>();
  });

  it('find_files', () => {
    expectTypeOf<FindFilesArgs>().toEqualTypeOf<{ pattern: string; path?: string; limit?: number }>();
  });

  it('list_dir', () => {
    expectTypeOf<ListDirArgs>().toEqualTypeOf<{ path?: string; limit?: number }>();
  });

  it('run_tests', () => {
    expectTypeOf<RunTestsArgs>().toEqualTypeOf<{ args?: string }>();
  });

  it('bash', () => {
    expectTypeOf<BashArgs>().toEqualTypeOf<{ command: string; timeout?: number }>();
  });
});
