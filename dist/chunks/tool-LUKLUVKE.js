import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as y}from"./chunk-WY6C3K6K.js";import{a as x,e as v}from"./chunk-MQVFZVUF.js";import{l as g,o as h,v as b}from"./chunk-HLBT23ZS.js";import"./chunk-3IBCUXDU.js";import"./chunk-U7UEP7I2.js";import"./chunk-UKD6SYP5.js";import{a as l}from"./chunk-ET5RDWSM.js";import"./chunk-GBMTFJE3.js";import"./chunk-IOAEYSBX.js";import"./chunk-UGPXGKM2.js";import"./chunk-IUQPCJRX.js";import"./chunk-XNCLI7GH.js";import{a as r}from"./chunk-4X7ZATFQ.js";import{statSync as R}from"node:fs";import{resolve as k}from"node:path";var A=`Usage: patchloop tool NAME 'ARGS' [--repo DIR] [--allow-bash] [--test-command C] [--sandbox auto|off]
                      [--command-env NAMES]

Runs one tool call exactly as the agent would and prints the toolResult message as one JSON line.
ARGS is the raw argument text a model would send (it may be invalid; that gives an error result).
run_tests and bash run their command as with \`patchloop run\` (--sandbox, default auto), with the
variables --command-env names (comma-separated) besides the neutral ones; the sandbox's state is
removed when the call ends, however it ends.
Exit status 0 whether or not the result is an error; 2 for a usage error.`,B=r(async(i,e)=>{let{flags:t,positionals:d}=x(i,{repo:"string","allow-bash":"boolean","test-command":"string",sandbox:"string","command-env":"string",help:"boolean"});if(t.help)return e.stdout.write(`${A}

${T(e.cwd)}
`),0;let[s,c="",...m]=d;if(!s)throw new l("missing the tool NAME");if(m.length>0)throw new l(`unexpected argument "${m[0]}" (quote ARGS as one argument)`);let a=k(e.cwd,t.repo??".");if(!N(a))throw new l(`--repo ${a} is not a folder`);let o=t.sandbox??"auto";if(o!=="auto"&&o!=="off")throw new l(`--sandbox must be auto or off, got "${o}"`);let w=v(t["command-env"]),E=s==="run_tests"||s==="bash",p=y(()=>{$()}),n,S,f=r(()=>S??=n?.kind==="isolated"?n.dispose().catch(u=>{e.stderr.write(`patchloop tool: the sandbox was not taken down: ${u.message}
`)}):Promise.resolve(),"dispose");async function $(){await f(),process.exit(130)}r($,"disposeThenExit");try{n=E?await b({workspace:a,mode:o,env:e.env,commandEnv:w}):void 0;let u=h({root:a,allowBash:t["allow-bash"]===!0,testCommand:t["test-command"],env:e.env,commandEnv:{pass:w},...n?.kind==="isolated"?{sandbox:n.sandbox}:{}}),C=await new g(u).execute({type:"toolCall",id:"cli-1",name:s,input:c},p.signal);return e.stdout.write(`${JSON.stringify(C)}
`),p.received?130:0}finally{await f(),p.dispose(),n?.kind==="isolated"&&await n.dispose().catch(()=>{})}},"toolCommand");function T(i){let e=h({root:i,allowBash:!0,testCommand:"true"}),t=["Tools (bash only with --allow-bash):"];for(let d of e){let s=d.parameters??{},c=new Set(s.required??[]),m=Object.keys(s.properties??{}).map(o=>c.has(o)?o:`${o}?`).join(", "),a=d.description.split(/(?<=\.)\s/)[0].replace(/\s+/g," ");t.push(`  ${d.name}(${m})`,`      ${a}`)}return t.push("",`Example: patchloop tool read_file '{"path": "src/math.js", "limit": 20}'`),t.join(`
`)}r(T,"toolList");function N(i){try{return R(i).isDirectory()}catch{return!1}}r(N,"isDirectory");export{A as TOOL_USAGE,B as toolCommand,T as toolList};
