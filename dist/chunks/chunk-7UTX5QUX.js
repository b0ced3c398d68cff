import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as e}from"./chunk-55G3MQVF.js";var r=class extends Error{static{e(this,"UsageError")}constructor(s){super(s),this.name="UsageError"}};function o(){return{stdout:process.stdout,stderr:process.stderr,cwd:process.cwd(),env:process.env}}e(o,"processIO");export{r as a,o as b};
