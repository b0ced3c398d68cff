import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as d}from"./chunk-MQVFZVUF.js";import{h as l,i as p,k as c}from"./chunk-RMAB5O5E.js";import{a,c as m,d as u}from"./chunk-ET5RDWSM.js";import{a as i}from"./chunk-4X7ZATFQ.js";import{resolve as f}from"node:path";var h=`Usage: patchloop inspect FILE.jsonl [--json]

Prints a run's timeline: the task, each turn (model, stop reason, tokens, cost), each tool call
(arguments, ok or error, duration, first lines of output), events, errors and totals.
  --json   one JSON object instead: turns, totals, tools (calls and errors per tool), errors, events`;async function g(s,t,r){let[n,...e]=t;if(!n)throw new a(`missing the transcript FILE.jsonl (patchloop ${s} FILE.jsonl)`);if(e.length>0)throw new a(`unexpected argument "${e[0]}"`);let o=f(r.cwd,n);return{path:o,view:await c(o)}}i(g,"loadFromArgs");var y=i(async(s,t)=>{let{flags:r,positionals:n}=d(s,{json:"boolean",help:"boolean"});if(r.help)return t.stdout.write(`${h}
`),0;let{view:e}=await g("inspect",n,t);if(r.json)return t.stdout.write(`${JSON.stringify(p(e),null,2)}
`),0;let o=t.stdout,w=u(o,t.env);return t.stdout.write(l(e,{color:w,width:o.isTTY?m(o):120})),0},"inspectCommand");export{h as a,g as b,y as c};
