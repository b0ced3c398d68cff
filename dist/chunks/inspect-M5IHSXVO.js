import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{b as a,c as b,d as c}from"./chunk-EYFU7VLB.js";import"./chunk-CZLQ6XLK.js";import"./chunk-QFNVMKBO.js";import"./chunk-K2JPVHVE.js";import"./chunk-7UTX5QUX.js";import"./chunk-LBQNWF4J.js";import"./chunk-55G3MQVF.js";export{a as INSPECT_USAGE,c as inspectCommand,b as loadFromArgs};
