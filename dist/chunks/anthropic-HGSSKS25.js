import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a,b,c,d}from"./chunk-RA2SABLB.js";import"./chunk-PSIKS37F.js";import"./chunk-NA6CNMAY.js";import"./chunk-OM5GPHZE.js";import"./chunk-NT3HITXA.js";import"./chunk-IOP277XT.js";import"./chunk-632XOFLL.js";import"./chunk-2MWDULEO.js";import"./chunk-IOAEYSBX.js";import"./chunk-YMAC7JUA.js";import"./chunk-XNCLI7GH.js";import"./chunk-4X7ZATFQ.js";export{a as argumentPiece,d as createAnthropicMessagesProvider,c as createAnthropicProvider,b as toAnthropicMessages};
