import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCommand } from '../../src/cli/tool.js';
import type { ToolResultMessage } from '../../src/protocol/types.js';
import { gitRepo, tempDir } from './helpers.js';

// `patchloop tool NAME 'ARGS' --repo DIR` for every tool, on a real checkout.

let repo: ReturnType<typeof tempDir>;
beforeAll(() => {
  repo = tempDir();
  gitRepo(repo.path, {
    'package.json': JSON.stringify({ name: 'demo', version: '1.0.0', scripts: { test: 'node test.js' } }),
    'test.js': 'console.log("1 test passed");\n',
    'src/math.ts': 'export function divide(a: number, b: number) {\n  return a / b;\n}\n',
  });
});
afterAll(() => repo.cleanup());

async function tool(...argv: string[]): Promise<{ status: number; result: ToolResultMessage }> {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  const status = await toolCommand([...argv, '--repo', repo.path], {
    stdout,
    stderr: new PassThrough(),
    cwd: repo.path,
    env: process.env,
  });
  return { status, result: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ToolResultMessage };
}

const text = (r: ToolResultMessage) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('patchloop tool', () => {
  it.each([
    ['read_file', '{"path":"src/math.ts"}', /return a \/ b;/],
    ['list_dir', '{}', /^package\.json\nsrc\/\ntest\.js$/],
    ['find_files', '{"pattern":"*.ts"}', /^src\/math\.ts$/],
    ['grep', '{"pattern":"divide","context":1}', /^src\/math\.ts:1: export function divide/],
    ['run_tests', '{}', /\$ npm test .*\nExit code 0 .*1 test passed/s],
    ['bash', '{"command":"git status --porcelain | wc -l"}', /^Exit code 0 .*\n0$/s],
  ])('%s %s', async (name, args, expected) => {
    const extra = name === 'bash' ? ['--allow-bash'] : [];
    const { status, result } = await tool(name, args, ...extra);
    expect(status).toBe(0);
    expect(result).toMatchObject({ role: 'toolResult', toolName: name, isError: false });
    expect(text(result)).toMatch(expected);
  });

  it('edits and writes files', async () => {
    const edit = await tool(
      'edit_file',
      JSON.stringify({
        path: 'src/math.ts',
        oldText: '  return a / b;',
        newText: '  if (b === 0) throw new Error("b is 0");\n  return a / b;',
      }),
    );
    expect(edit.result.isError).toBe(false);
    expect(readFileSync(join(repo.path, 'src/math.ts'), 'utf8')).toContain('if (b === 0)');
    const write = await tool('write_file', '{"path":"src/new.ts","content":"export {};\\n"}');
    expect(write.result.isError).toBe(false);
    expect(readFileSync(join(repo.path, 'src/new.ts'), 'utf8')).toBe('export {};\n');
  });

  it('answers bad argument text with an error result and exit 0', async () => {
    const missing = await tool('read_file', '{}');
    expect(missing.status).toBe(0);
    expect(missing.result.isError).toBe(true);
    expect(text(missing.result)).toMatch(/"path"/);
    const broken = await tool('grep', '{"pattern": "x"');
    expect(broken.result.isError).toBe(true);
    expect(text(broken.result)).toMatch(/not valid JSON/);
    const noBash = await tool('bash', '{"command":"true"}');
    expect(text(noBash.result)).toMatch(/Unknown tool "bash"/);
  });
});
