import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{b as a,c as b,d as c,e as d,f as e,g as f,h as g}from"./chunk-QQPML6Y5.js";import"./chunk-M5KGM5RL.js";import"./chunk-YLRRE4DE.js";import"./chunk-YC7YJLLK.js";import"./chunk-P43YWJFO.js";import"./chunk-H7G2H6GM.js";import"./chunk-GBMTFJE3.js";import"./chunk-IOAEYSBX.js";import"./chunk-UGPXGKM2.js";import"./chunk-IUQPCJRX.js";import"./chunk-SRJU3RMV.js";import"./chunk-DJO2DK2E.js";import"./chunk-XNCLI7GH.js";import"./chunk-4X7ZATFQ.js";export{a as GOOGLE_PROVIDER,d as buildGeminiConfig,g as createGeminiProvider,f as createGoogleProvider,e as readGeminiStream,b as toGeminiContents,c as toGeminiTools};
