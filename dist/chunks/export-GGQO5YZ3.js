import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{c}from"./chunk-EYFU7VLB.js";import{a as f}from"./chunk-CZLQ6XLK.js";import{a as d}from"./chunk-XLO7CF3O.js";import"./chunk-QFNVMKBO.js";import"./chunk-K2JPVHVE.js";import{a as l}from"./chunk-7UTX5QUX.js";import"./chunk-LBQNWF4J.js";import{a as s}from"./chunk-55G3MQVF.js";import{mkdir as E,stat as x,writeFile as F}from"node:fs/promises";import{basename as w,dirname as $,join as y,resolve as A}from"node:path";function p(t){return/\.jsonl?$/i.test(t)?t.replace(/\.jsonl?$/i,".html"):`${t}.html`}s(p,"defaultHtmlPath");var C=`Usage: patchloop export FILE.jsonl [-o OUT.html | -o FOLDER/]

Writes the run as one self-contained HTML page (it loads nothing from the network).
  -o, --output OUT   where to write it: a file (its folders are made as needed), or a folder
                     (an existing one, or a path ending in /) to write FILE.html into
                     (default: FILE with .html instead of .jsonl, beside it)`;async function I(t,o,e){let r=A(o,t);return/[/\\]$/.test(t)||await x(r).then(m=>m.isDirectory(),()=>!1)?y(r,w(p(e))):r}s(I,"outputPath");var M=s(async(t,o)=>{let{flags:e,positionals:r}=f(t,{output:"string",help:"boolean"},{output:"o"});if(e.help)return o.stdout.write(`${C}
`),0;if(e.output!==void 0&&e.output.trim()==="")throw new l("-o needs a path");let{path:n,view:m}=await c("export",r,o),i=e.output!==void 0?await I(e.output,o.cwd,n):p(n);if(i===n)throw new l("the output would overwrite the transcript; choose another -o");let h=d(m,{source:w(n),generatedAt:new Date});try{await E($(i),{recursive:!0}),await F(i,h,"utf8")}catch(u){let a=u.code,g=a==="EACCES"||a==="EPERM"?"permission denied":a==="ENOTDIR"||a==="EEXIST"?"a part of the path is a file, not a folder":a==="EISDIR"?"it is a folder":u.message;throw new Error(`cannot write ${i}: ${g}`,{cause:u})}return o.stdout.write(`${i}
`),0},"exportCommand");export{C as EXPORT_USAGE,p as defaultHtmlPath,M as exportCommand};
