import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{b as a,c as b,d as c}from"./chunk-XVU3GVSL.js";import"./chunk-QEGPPV7X.js";import"./chunk-HOZRKWZW.js";import"./chunk-SEGQDI2I.js";import"./chunk-ET5RDWSM.js";import"./chunk-IOAEYSBX.js";import"./chunk-IUQPCJRX.js";import"./chunk-4X7ZATFQ.js";export{a as INSPECT_USAGE,c as inspectCommand,b as loadFromArgs};
