import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as m}from"./chunk-55G3MQVF.js";async function*A(p){let d=new TextDecoder("utf-8",{ignoreBOM:!1}),u="",a=null,i=[],r=!1,h=!0,c=p.getReader();try{for(;;){let{value:v,done:f}=await c.read(),e=f?d.decode():d.decode(v,{stream:!0});h&&e&&(h=!1,e.charCodeAt(0)===65279&&(e=e.slice(1))),e=u+e;let x=!f&&e.endsWith("\r");x&&(e=e.slice(0,-1)),e.includes("\r")&&(e=e.replace(/\r\n?/g,`
`));let o=[],s=0;for(let l=e.indexOf(`
`);l>=0;l=e.indexOf(`
`,s)){let n=e.slice(s,l);if(s=l+1,n===""){r&&o.push({event:a,data:i.join(`
`)}),a=null,i=[],r=!1;continue}let t=n.indexOf(":");if(t===0)continue;let g=t<0?n:n.slice(0,t),y=t<0?"":n.slice(n.charCodeAt(t+1)===32?t+2:t+1);g==="event"?(a=y,r=!0):g==="data"&&(i.push(y),r=!0)}if(u=e.slice(s)+(x?"\r":""),o.length>0&&(yield o),f)return}}finally{c.cancel().catch(()=>{});try{c.releaseLock()}catch{}}}m(A,"sseBatches");export{A as a};
