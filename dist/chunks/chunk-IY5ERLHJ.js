import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a,b as p}from"./chunk-7V4BCPZL.js";import{a as s}from"./chunk-ET5RDWSM.js";import{a as c}from"./chunk-3PGLJCS4.js";import{a as i}from"./chunk-4X7ZATFQ.js";import{readFileSync as d}from"node:fs";import{resolve as f}from"node:path";function C(t,r){let e=t;if(!t.trimStart().startsWith("{"))try{e=d(f(r,t),"utf8")}catch(o){throw new s(`--mcp-config ${t}: ${o.code??String(o)}`)}try{return p(e)}catch(o){throw o instanceof a?new s(`--mcp-config: ${o.message.replace(/^mcp-config: /,"")}`):o}}i(C,"readMcpFlag");async function v(t,r){let{describeMcpServers:e,startMcpServers:o}=await import("./servers-YTIUWG73.js"),n=await o(t,{root:r.root,commands:r.commands??!0,sandbox:r.sandbox,commandsReady:r.commandsReady,env:r.env,redact:r.redact,artifactsDir:r.artifactsDir,clientVersion:c.version});for(let m of e(n.servers))r.io.stderr.write(`patchloop: ${m}
`);return n}i(v,"startCliMcp");export{C as a,v as b};
