import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as c,b as a,d as p,e as m}from"./chunk-2OIUKXWA.js";import{a as n}from"./chunk-ET5RDWSM.js";import{a as s}from"./chunk-3PGLJCS4.js";import{a as i}from"./chunk-4X7ZATFQ.js";import{readFileSync as d}from"node:fs";import{resolve as f}from"node:path";function x(t,r){let e=t;if(!t.trimStart().startsWith("{"))try{e=d(f(r,t),"utf8")}catch(o){throw new n(`--mcp-config ${t}: ${o.code??String(o)}`)}try{return a(e)}catch(o){throw o instanceof c?new n(`--mcp-config: ${o.message.replace(/^mcp-config: /,"")}`):o}}i(x,"readMcpFlag");async function v(t,r){let e=await p(t,{root:r.root,commands:r.commands??!0,sandbox:r.sandbox,commandsReady:r.commandsReady,env:r.env,redact:r.redact,artifactsDir:r.artifactsDir,clientVersion:s.version});for(let o of m(e.servers))r.io.stderr.write(`patchloop: ${o}
`);return e}i(v,"startCliMcp");export{x as a,v as b};
