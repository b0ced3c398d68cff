#!/usr/bin/env node
import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as i,b as c}from"./chunks/chunk-ET5RDWSM.js";import{a as s}from"./chunks/chunk-3PGLJCS4.js";import{a as r}from"./chunks/chunk-4X7ZATFQ.js";var m=`patchloop ${s.version}: run an LLM coding agent on a git checkout

Usage:
  patchloop run [--repo DIR] [--provider P] [--model M] [--base-url U] [--branch B] "task"
  patchloop tool NAME 'ARGS' [--repo DIR] [--allow-bash] [--test-command C]
  patchloop inspect FILE.jsonl [--json]
  patchloop export FILE.jsonl [-o OUT.html]
  patchloop replay FILE.jsonl [--repo DIR]

Run \`patchloop COMMAND --help\` for a command's options.
  --help       show this text
  --version    print the version`,l={run:r(async()=>(await import("./chunks/run-I7LMKCRP.js")).runCommand,"run"),tool:r(async()=>(await import("./chunks/tool-EL46T4T3.js")).toolCommand,"tool"),inspect:r(async()=>(await import("./chunks/inspect-PYPHUF66.js")).inspectCommand,"inspect"),export:r(async()=>(await import("./chunks/export-23EY2MFQ.js")).exportCommand,"export"),replay:r(async()=>(await import("./chunks/replay-HSZ6AKS2.js")).replayCommand,"replay")};async function d(e,t){let[o,...u]=e;if(o===void 0||o==="--help"||o==="-h"||o==="help")return(o===void 0?t.stderr:t.stdout).write(`${m}
`),o===void 0?2:0;if(o==="--version"||o==="-v")return t.stdout.write(`${s.version}
`),0;let a=Object.hasOwn(l,o)?l[o]:void 0;if(!a)return t.stderr.write(`patchloop: unknown command "${o}"

${m}
`),2;try{return await(await a())(u,t)}catch(n){let p=(n instanceof Error?n.message:String(n)).replace(new RegExp(`^(?:patchloop )?${o}: `),"");return n instanceof i?(t.stderr.write(`patchloop ${o}: ${p}
Run \`patchloop ${o} --help\` for usage.
`),2):(t.stderr.write(`patchloop ${o}: ${p}
`),1)}}r(d,"main");function h(e){return new Promise(t=>e.write("",()=>t()))}r(h,"flush");process.title="patchloop";for(let e of[process.stdout,process.stderr])e.on("error",t=>{throw t.code==="EPIPE"&&process.exit(0),t});var w=await d(process.argv.slice(2),c());await Promise.all([h(process.stdout),h(process.stderr)]);process.exit(w);
