import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a,b,c,d,e,f,g}from"./chunk-24ZUJ5J7.js";import"./chunk-4X7ZATFQ.js";export{a as child_process,b as crypto,c as fs,d as os,e as path,f as stream,g as util};
