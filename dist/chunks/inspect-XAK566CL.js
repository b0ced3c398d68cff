import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a,b,c}from"./chunk-GJ5IXCND.js";import"./chunk-MQVFZVUF.js";import"./chunk-RMAB5O5E.js";import"./chunk-GB6UQMVG.js";import"./chunk-3IBCUXDU.js";import"./chunk-UKD6SYP5.js";import"./chunk-ET5RDWSM.js";import"./chunk-IOAEYSBX.js";import"./chunk-IUQPCJRX.js";import"./chunk-4X7ZATFQ.js";export{a as INSPECT_USAGE,c as inspectCommand,b as loadFromArgs};
