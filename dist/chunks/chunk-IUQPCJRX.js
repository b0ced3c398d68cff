import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as e}from"./chunk-4X7ZATFQ.js";function d(t){if(t===void 0||!Number.isFinite(t))return"0";let n=String(Math.abs(Math.round(t))).replace(/\B(?=(\d{3})+(?!\d))/g,",");return t<0&&Math.round(t)!==0?`-${n}`:n}e(d,"formatCount");function s(t){if(t===void 0||!Number.isFinite(t)||t<0)return"?";if(t<1e3)return`${Math.round(t)} ms`;let n=t/1e3;if(n<59.95)return`${n.toFixed(1)} s`;let r=Math.round(n),o=Math.floor(r/3600),i=Math.floor(r%3600/60),u=r%60;return[o>0?`${d(o)} h`:"",i>0?`${i} min`:"",u>0?`${u} s`:""].filter(Boolean).join(" ")}e(s,"formatDuration");export{d as a,s as b};
