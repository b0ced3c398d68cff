import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{c as p}from"./chunk-TUNR2STM.js";import{a as s}from"./chunk-EBJXV5HL.js";import{a as m}from"./chunk-7VO57KGE.js";import"./chunk-YVMVOLE2.js";import"./chunk-UKG3WI52.js";import{a}from"./chunk-7UTX5QUX.js";import"./chunk-ZB7HBFPX.js";import{a as r}from"./chunk-55G3MQVF.js";import{writeFile as c}from"node:fs/promises";import{basename as h,resolve as g}from"node:path";function l(t){return/\.jsonl?$/i.test(t)?t.replace(/\.jsonl?$/i,".html"):`${t}.html`}r(l,"defaultHtmlPath");var x=`Usage: patchloop export FILE.jsonl [-o OUT.html]

Writes the run as one self-contained HTML page (it loads nothing from the network).
  -o, --output OUT.html   where to write it (default: FILE with .html instead of .jsonl)`,L=r(async(t,e)=>{let{flags:n,positionals:u}=s(t,{output:"string",help:"boolean"},{output:"o"});if(n.help)return e.stdout.write(`${x}
`),0;let{path:i,view:f}=await p("export",u,e),o=n.output!==void 0?g(e.cwd,n.output):l(i);if(o===i)throw new a("export: the output would overwrite the transcript; choose another -o");let w=m(f,{source:h(i),generatedAt:new Date});try{await c(o,w,"utf8")}catch(d){throw new a(`export: cannot write ${o}: ${d.message}`)}return e.stdout.write(`${o}
`),0},"exportCommand");export{x as EXPORT_USAGE,l as defaultHtmlPath,L as exportCommand};
