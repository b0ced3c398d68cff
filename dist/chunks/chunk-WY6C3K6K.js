import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{x as r}from"./chunk-HLBT23ZS.js";import{a as t}from"./chunk-4X7ZATFQ.js";function n(e=()=>process.exit(130)){return r(e)}t(n,"watchInterrupts");export{n as a};
