import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as g}from"./chunk-DYRBYDBF.js";import{a as w}from"./chunk-QEGPPV7X.js";import{f}from"./chunk-T45SGQ36.js";import{l as h,o as u}from"./chunk-LDZVIREE.js";import"./chunk-NQHI6V7R.js";import{a as i}from"./chunk-ET5RDWSM.js";import"./chunk-GBMTFJE3.js";import"./chunk-IOAEYSBX.js";import"./chunk-UGPXGKM2.js";import"./chunk-IUQPCJRX.js";import"./chunk-XNCLI7GH.js";import{a as m}from"./chunk-4X7ZATFQ.js";import{statSync as C}from"node:fs";import{resolve as $}from"node:path";var S=`Usage: patchloop tool NAME 'ARGS' [--repo DIR] [--allow-bash] [--test-command C] [--sandbox auto|off]

Runs one tool call exactly as the agent would and prints the toolResult message as one JSON line.
ARGS is the raw argument text a model would send (it may be invalid; that gives an error result).
run_tests and bash run their command as with \`patchloop run\` (--sandbox, default auto).
Exit status 0 whether or not the result is an error; 2 for a usage error.`,_=m(async(n,o)=>{let{flags:t,positionals:a}=w(n,{repo:"string","allow-bash":"boolean","test-command":"string",sandbox:"string",help:"boolean"});if(t.help)return o.stdout.write(`${S}

${v(o.cwd)}
`),0;let[s,c="",...l]=a;if(!s)throw new i("missing the tool NAME");if(l.length>0)throw new i(`unexpected argument "${l[0]}" (quote ARGS as one argument)`);let r=$(o.cwd,t.repo??".");if(!R(r))throw new i(`--repo ${r} is not a folder`);let e=t.sandbox??"auto";if(e!=="auto"&&e!=="off")throw new i(`--sandbox must be auto or off, got "${e}"`);let p=s==="run_tests"||s==="bash"?await f({workspace:r,mode:e,env:o.env}):void 0,b=u({root:r,allowBash:t["allow-bash"]===!0,testCommand:t["test-command"],env:o.env,...p?.kind==="isolated"?{sandbox:p.sandbox}:{}}),x=new h(b),d=g();try{let y=await x.execute({type:"toolCall",id:"cli-1",name:s,input:c},d.signal);return o.stdout.write(`${JSON.stringify(y)}
`),d.received?130:0}finally{d.dispose()}},"toolCommand");function v(n){let o=u({root:n,allowBash:!0,testCommand:"true"}),t=["Tools (bash only with --allow-bash):"];for(let a of o){let s=a.parameters??{},c=new Set(s.required??[]),l=Object.keys(s.properties??{}).map(e=>c.has(e)?e:`${e}?`).join(", "),r=a.description.split(/(?<=\.)\s/)[0].replace(/\s+/g," ");t.push(`  ${a.name}(${l})`,`      ${r}`)}return t.push("",`Example: patchloop tool read_file '{"path": "src/math.js", "limit": 20}'`),t.join(`
`)}m(v,"toolList");function R(n){try{return C(n).isDirectory()}catch{return!1}}m(R,"isDirectory");export{S as TOOL_USAGE,_ as toolCommand,v as toolList};
