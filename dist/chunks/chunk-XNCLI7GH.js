import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as n,d as i}from"./chunk-4X7ZATFQ.js";var r=i(u=>{"use strict";Object.defineProperty(u,"__esModule",{value:!0});function f(l){let c=l.length,d=0,e=0,t;for(;e<c;)d++,t=l.charCodeAt(e++),t>=55296&&t<=56319&&e<c&&(t=l.charCodeAt(e),(t&64512)===56320&&e++);return d}n(f,"ucs2length");u.default=f;f.code='require("ajv/dist/runtime/ucs2length").default'});export{r as a};
