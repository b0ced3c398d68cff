import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{b as c}from"./chunk-GJ5IXCND.js";import{a as w}from"./chunk-MQVFZVUF.js";import{a as m}from"./chunk-PGSMIOL6.js";import"./chunk-RMAB5O5E.js";import"./chunk-GB6UQMVG.js";import"./chunk-3IBCUXDU.js";import"./chunk-UKD6SYP5.js";import{a as p}from"./chunk-ET5RDWSM.js";import"./chunk-IOAEYSBX.js";import"./chunk-IUQPCJRX.js";import{a as s}from"./chunk-4X7ZATFQ.js";import{mkdir as E,stat as x,writeFile as F}from"node:fs/promises";import{basename as f,dirname as A,join as $,resolve as y}from"node:path";function l(t){return/\.jsonl?$/i.test(t)?t.replace(/\.jsonl?$/i,".html"):`${t}.html`}s(l,"defaultHtmlPath");var C=`Usage: patchloop export FILE.jsonl [-o OUT.html | -o FOLDER/]

Writes the run as one self-contained HTML page (it loads nothing from the network).
  -o, --output OUT   where to write it: a file (its folders are made as needed), or a folder
                     (an existing one, or a path ending in /) to write FILE.html into
                     (default: FILE with .html instead of .jsonl, beside it); - for stdout`;async function D(t,o,e){let n=y(o,t);return/[/\\]$/.test(t)||await x(n).then(u=>u.isDirectory(),()=>!1)?$(n,f(l(e))):n}s(D,"outputPath");var M=s(async(t,o)=>{let{flags:e,positionals:n}=w(t,{output:"string",help:"boolean"},{output:"o"});if(e.help)return o.stdout.write(`${C}
`),0;if(e.output!==void 0&&e.output.trim()==="")throw new p("-o needs a path");let{path:r,view:u}=await c("export",n,o);if(e.output==="-")return o.stdout.write(m(u,{source:f(r),generatedAt:new Date})),0;let i=e.output!==void 0?await D(e.output,o.cwd,r):l(r);if(i===r)throw new p("the output would overwrite the transcript; choose another -o");let h=m(u,{source:f(r),generatedAt:new Date});try{await E(A(i),{recursive:!0}),await F(i,h,"utf8")}catch(d){let a=d.code,g=a==="EACCES"||a==="EPERM"?"permission denied":a==="ENOTDIR"||a==="EEXIST"?"a part of the path is a file, not a folder":a==="EISDIR"?"it is a folder":d.message;throw new Error(`cannot write ${i}: ${g}`,{cause:d})}return o.stdout.write(`${i}
`),0},"exportCommand");export{C as EXPORT_USAGE,l as defaultHtmlPath,M as exportCommand};
