import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a}from"./chunk-4X7ZATFQ.js";async function*v(l){let n=new TextDecoder("utf-8",{ignoreBOM:!1}),s="",f=null,i=null,c=!1,A=!0,h=R(l);try{for(;;){let{value:g,done:u}=await h.read(),e=u?n.decode():n.decode(g,{stream:!0});A&&e&&(A=!1,e.charCodeAt(0)===65279&&(e=e.slice(1))),e=s+e;let x=!u&&e.endsWith("\r");x&&(e=e.slice(0,-1)),e.includes("\r")&&(e=e.replace(/\r\n?/g,`
`));let y=[],o=0;for(let d=e.indexOf(`
`);d>=0;d=e.indexOf(`
`,o)){let r=e.slice(o,d);if(o=d+1,r===""){c&&y.push({event:f,data:i??""}),f=null,i=null,c=!1;continue}let t=r.indexOf(":");if(t===0)continue;let p=t<0?r:r.slice(0,t),m=t<0?"":r.slice(r.charCodeAt(t+1)===32?t+2:t+1);p==="event"?(f=m,c=!0):p==="data"&&(i=i===null?m:`${i}
${m}`,c=!0)}if(s=e.slice(o)+(x?"\r":""),y.length>0&&(yield y),u)return}}finally{h.stop()}}a(v,"sseBatches");function R(l){if(!(l instanceof ReadableStream)){let s=l[Symbol.asyncIterator]();return{read:a(()=>s.next(),"read"),stop:a(()=>{s.return?.()?.catch(()=>{})},"stop")}}let n=l.getReader();return{read:a(()=>n.read(),"read"),stop(){n.cancel().catch(()=>{});try{n.releaseLock()}catch{}}}}a(R,"chunkReader");export{v as a};
