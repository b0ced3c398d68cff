import { describe, expect, it } from 'vitest';
import { createWorkspaceTools } from '../../src/tools/index.js';
import { tempDir } from './helpers.js';

const parameters: Record<string, string[]> = {
  read_file: ['path', 'offset', 'limit'],
  edit_file: ['path', 'oldText', 'newText'],
  write_file: ['path', 'content'],
  grep: ['pattern', 'path', 'glob', 'ignoreCase', 'literal', 'context', 'limit'],
  find_files: ['pattern', 'path', 'limit'],
  list_dir: ['path', 'limit'],
  run_tests: ['args'],
  bash: ['command', 'timeout'],
};

describe('createWorkspaceTools', () => {
  const dir = tempDir();
  const tools = createWorkspaceTools({ root: dir.path, allowBash: true });
  dir.cleanup();

  it('offers every tool of the contract with exactly its parameters', () => {
    expect(tools.map((t) => t.name)).toEqual(Object.keys(parameters));
    for (const tool of tools) {
      expect(Object.keys((tool.parameters as { properties: object }).properties)).toEqual(
        parameters[tool.name],
      );
      expect(tool.parameters.additionalProperties).toBe(false);
    }
  });

  it('marks the tools that never change the workspace as read-only', () => {
    expect(tools.filter((t) => t.readOnly).map((t) => t.name)).toEqual([
      'read_file',
      'grep',
      'find_files',
      'list_dir',
    ]);
  });

  it('keeps the definitions sent on every request small', () => {
    const json = JSON.stringify(
      tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
    );
    // Grew from 3700 when the caps and the saved-output paths (CONTRACT §6) were stated.
    expect(json.length).toBeLessThan(4000);
    for (const tool of tools) expect(tool.description.length).toBeLessThan(300);
  });

  it('states each limit the code applies', () => {
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.description]));
    expect(byName.read_file).toMatch(/2000 lines \/ 50 KB.*offset/);
    expect(byName.grep).toMatch(/at most 100 matches.*500 chars, 50 KB in all/);
    expect(byName.find_files).toMatch(/default and max 1000.*50 KB in all/);
    expect(byName.list_dir).toMatch(/default 500, max 1000.*50 KB in all/);
    expect(byName.run_tests).toMatch(/last 2000 lines \/ 50 KB.*10 min/);
    expect(byName.bash).toMatch(/last 2000 lines \/ 50 KB.*default 120, max 1800/);
  });
});
