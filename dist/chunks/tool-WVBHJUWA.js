import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as h}from"./chunk-BJ4HFNIP.js";import{a as f}from"./chunk-EBJXV5HL.js";import{c as p}from"./chunk-B4OK6UYL.js";import{a as u,b as c}from"./chunk-CI2KE5Q3.js";import{a as e}from"./chunk-7UTX5QUX.js";import"./chunk-A5L6G5YS.js";import"./chunk-ZB7HBFPX.js";import{a as i}from"./chunk-55G3MQVF.js";import{statSync as C}from"node:fs";import{resolve as v}from"node:path";var S=`Usage: patchloop tool NAME 'ARGS' [--repo DIR] [--allow-bash] [--test-command C] [--sandbox auto|off]

Runs one tool call exactly as the agent would and prints the toolResult message as one JSON line.
ARGS is the raw argument text a model would send (it may be invalid; that gives an error result).
run_tests and bash run their command as with \`patchloop run\` (--sandbox, default auto).
Exit status 0 whether or not the result is an error; 2 for a usage error.`,U=i(async(a,o)=>{let{flags:t,positionals:w}=f(a,{repo:"string","allow-bash":"boolean","test-command":"string",sandbox:"string",help:"boolean"});if(t.help)return o.stdout.write(`${S}
`),0;let[r,g="",...m]=w;if(!r)throw new e("tool: missing the tool NAME");if(m.length>0)throw new e(`tool: unexpected argument "${m[0]}" (quote ARGS as one argument)`);let n=v(o.cwd,t.repo??".");if(!R(n))throw new e(`tool: --repo ${n} is not a folder`);let s=t.sandbox??"auto";if(s!=="auto"&&s!=="off")throw new e(`tool: --sandbox must be auto or off, got "${s}"`);let d=r==="run_tests"||r==="bash"?await p({workspace:n,mode:s,env:o.env}):void 0,b=c({root:n,allowBash:t["allow-bash"]===!0,testCommand:t["test-command"],env:o.env,...d?.sandbox?{sandbox:d.sandbox}:{}}),x=new u(b),l=h();try{let y=await x.execute({type:"toolCall",id:"cli-1",name:r,input:g},l.signal);return o.stdout.write(`${JSON.stringify(y)}
`),l.received?130:0}finally{l.dispose()}},"toolCommand");function R(a){try{return C(a).isDirectory()}catch{return!1}}i(R,"isDirectory");export{S as TOOL_USAGE,U as toolCommand};
