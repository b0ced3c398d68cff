import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as n}from"./chunk-55G3MQVF.js";function i(s=()=>process.exit(130)){let o=new AbortController,r,e=n(t=>{if(r){s();return}r=t,o.abort(new Error(`interrupted by ${t}`))},"handler");return process.on("SIGINT",e),process.on("SIGTERM",e),{signal:o.signal,get received(){return r},dispose(){process.off("SIGINT",e),process.off("SIGTERM",e)}}}n(i,"watchInterrupts");export{i as a};
