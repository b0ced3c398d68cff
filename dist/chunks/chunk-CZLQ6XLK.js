import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as i}from"./chunk-7UTX5QUX.js";import{a as s}from"./chunk-55G3MQVF.js";import{statSync as a}from"node:fs";import{parseArgs as f}from"node:util";function m(n,r,e={}){let g={};for(let[t,o]of Object.entries(r)){let d=e[t];g[t]=d?{type:o,short:d}:{type:o}}try{let{values:t,positionals:o}=f({args:n,options:g,allowPositionals:!0,strict:!0});return{flags:t,positionals:o}}catch(t){throw new i(t instanceof Error?t.message.replace(/\.?\s*To specify a positional.*$/s,"."):String(t))}}s(m,"parseFlags");function l(n,r){if(r!==void 0){if(!/^\d+$/.test(r.trim())||Number(r)<1)throw new i(`--${n} must be a positive whole number, got "${r}"`);return Number(r)}}s(l,"positiveInt");function F(n,r){if(r===void 0)return;let e=Number(r);if(r.trim()===""||!Number.isFinite(e)||e<=0)throw new i(`--${n} must be a positive number, got "${r}"`);return e}s(F,"positiveNumber");function b(n,r){let e=!1;try{e=a(r).isDirectory()}catch{}if(!e)throw new i(`--${n} ${r} is not a folder`);return r}s(b,"existingFolder");export{m as a,l as b,F as c,b as d};
