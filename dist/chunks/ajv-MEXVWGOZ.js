import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{q as a}from"./chunk-PXTGU36H.js";import"./chunk-XNCLI7GH.js";import"./chunk-4X7ZATFQ.js";export default a();
