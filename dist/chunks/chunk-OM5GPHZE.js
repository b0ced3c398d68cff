import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as e}from"./chunk-4X7ZATFQ.js";var i=class{constructor(t){this.source=t}source;static{e(this,"SdkNotices")}seen=new Set;pending=[];add(t){let n=t.trim();!n||this.seen.has(n)||(this.seen.add(n),this.pending.push(n))}logger(){let t=e((s,...a)=>this.add([s,...a].map(o).join(" ")),"keep"),n=e(()=>{},"drop");return{error:t,warn:t,info:n,debug:n}}capture(t){let n=console.warn;console.warn=(...s)=>this.add(s.map(o).join(" "));try{return t()}finally{console.warn=n}}drain(){if(this.pending.length===0)return[];let t=this.pending.map(n=>({type:"notice",source:this.source,message:n}));return this.pending=[],t}};function o(r){if(typeof r=="string")return r;if(r instanceof Error)return r.message;try{return JSON.stringify(r)}catch{return String(r)}}e(o,"textOf");export{i as a};
