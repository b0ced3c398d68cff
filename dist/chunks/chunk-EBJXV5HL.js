import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as o}from"./chunk-7UTX5QUX.js";import{a as i}from"./chunk-55G3MQVF.js";import{parseArgs as d}from"node:util";function u(n,r,t={}){let g={};for(let[e,s]of Object.entries(r)){let a=t[e];g[e]=a?{type:s,short:a}:{type:s}}try{let{values:e,positionals:s}=d({args:n,options:g,allowPositionals:!0,strict:!0});return{flags:e,positionals:s}}catch(e){throw new o(e instanceof Error?e.message.replace(/\.?\s*To specify a positional.*$/s,"."):String(e))}}i(u,"parseFlags");function c(n,r){if(r!==void 0){if(!/^\d+$/.test(r.trim())||Number(r)<1)throw new o(`--${n} must be a positive whole number, got "${r}"`);return Number(r)}}i(c,"positiveInt");function m(n,r){if(r===void 0)return;let t=Number(r);if(r.trim()===""||!Number.isFinite(t)||t<=0)throw new o(`--${n} must be a positive number, got "${r}"`);return t}i(m,"positiveNumber");export{u as a,c as b,m as c};
