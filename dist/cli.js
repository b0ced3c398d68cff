#!/usr/bin/env node
import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as m,b as l}from"./chunks/chunk-ET5RDWSM.js";import{a as s}from"./chunks/chunk-3PGLJCS4.js";import{a as t}from"./chunks/chunk-4X7ZATFQ.js";var d=`patchloop ${s.version}: run an LLM coding agent on a git checkout

Usage:
  patchloop run [--repo DIR] [--provider P] [--model M] [--base-url U] [--branch B] "task"
  patchloop tool NAME 'ARGS' [--repo DIR] [--allow-bash] [--test-command C] [--command-env NAMES]
  patchloop inspect FILE.jsonl [--json]
  patchloop export FILE.jsonl [-o OUT.html]
  patchloop replay FILE.jsonl [--repo DIR] [--run-commands]

Run \`patchloop COMMAND --help\` (or \`patchloop help COMMAND\`) for a command's options.
  --help       show this text
  --version    print the version`,h={run:t(async()=>(await import("./chunks/run-JVY7JT5D.js")).runCommand,"run"),tool:t(async()=>(await import("./chunks/tool-LUKLUVKE.js")).toolCommand,"tool"),inspect:t(async()=>(await import("./chunks/inspect-XAK566CL.js")).inspectCommand,"inspect"),export:t(async()=>(await import("./chunks/export-GUMX7RLR.js")).exportCommand,"export"),replay:t(async()=>(await import("./chunks/replay-BRERURIX.js")).replayCommand,"replay")};async function u(r,e){let[w,...a]=r,p=w==="help"&&a.length>0?a[0]:void 0,[o,...C]=p!==void 0?[p,"--help"]:r;if(o===void 0||o==="--help"||o==="-h"||o==="help")return(o===void 0?e.stderr:e.stdout).write(`${d}
`),o===void 0?2:0;if(o==="--version"||o==="-v")return e.stdout.write(`${s.version}
`),0;let i=Object.hasOwn(h,o)?h[o]:void 0;if(!i)return e.stderr.write(`patchloop: unknown command "${o}"

${d}
`),2;try{return await(await i())(C,e)}catch(n){let c=(n instanceof Error?n.message:String(n)).replace(new RegExp(`^(?:patchloop )?${o}: `),"");return n instanceof m?(e.stderr.write(`patchloop ${o}: ${c}
Run \`patchloop ${o} --help\` for usage.
`),2):(e.stderr.write(`patchloop ${o}: ${c}
`),1)}}t(u,"main");function f(r){return new Promise(e=>r.write("",()=>e()))}t(f,"flush");process.title="patchloop";for(let r of[process.stdout,process.stderr])r.on("error",e=>{throw e.code==="EPIPE"&&process.exit(0),e});var g=await u(process.argv.slice(2),l());await Promise.all([f(process.stdout),f(process.stderr)]);process.exit(g);
