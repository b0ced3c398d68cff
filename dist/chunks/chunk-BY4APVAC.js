import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as p}from"./chunk-M5KGM5RL.js";import{a as t,f as r}from"./chunk-4X7ZATFQ.js";var e=r(p(),1);var l="https://www.googleapis.com/auth/cloud-platform";function n(o){return new e.GoogleAuth({credentials:o.credentials,projectId:o.project,scopes:l})}t(n,"googleAuthFor");export{l as a,n as b};
