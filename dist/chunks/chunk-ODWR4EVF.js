import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as p,b as m}from"./chunk-JUS4TRNC.js";import{p as d}from"./chunk-HLBT23ZS.js";import{a as s}from"./chunk-ET5RDWSM.js";import{a}from"./chunk-3PGLJCS4.js";import{a as i}from"./chunk-4X7ZATFQ.js";import{readFileSync as f}from"node:fs";import{resolve as g}from"node:path";function v(t,r){let e=t;if(!t.trimStart().startsWith("{"))try{e=f(g(r,t),"utf8")}catch(o){throw new s(`--mcp-config ${t}: ${o.code??String(o)}`)}try{return m(e)}catch(o){throw o instanceof p?new s(`--mcp-config: ${o.message.replace(/^mcp-config: /,"")}`):o}}i(v,"readMcpFlag");async function w(t,r){let{describeMcpServers:e,startMcpServers:o}=await import("./servers-UNPSOSB2.js"),c=await o(t,{root:r.root,commands:r.commands??!0,sandbox:r.sandbox,sandboxDir:d,onDropped:i(n=>r.io.stderr.write(`patchloop: ${n}
`),"onDropped"),commandsReady:r.commandsReady,env:r.env,redact:r.redact,artifactsDir:r.artifactsDir,clientVersion:a.version});for(let n of e(c.servers))r.io.stderr.write(`patchloop: ${n}
`);return c}i(w,"startCliMcp");export{v as a,w as b};
