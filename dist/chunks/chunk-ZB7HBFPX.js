import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as n}from"./chunk-55G3MQVF.js";var s=["stop","toolUse","length","error","aborted"];function r(){return{inputTokens:0,outputTokens:0,cacheReadTokens:0,cacheWriteTokens:0}}n(r,"emptyUsage");function a(e,t){let o={inputTokens:e.inputTokens+t.inputTokens,outputTokens:e.outputTokens+t.outputTokens,cacheReadTokens:e.cacheReadTokens+t.cacheReadTokens,cacheWriteTokens:e.cacheWriteTokens+t.cacheWriteTokens};return(e.costUsd!==void 0||t.costUsd!==void 0)&&(o.costUsd=(e.costUsd??0)+(t.costUsd??0)),o}n(a,"addUsage");function i(e){return typeof e=="string"?e:e.filter(t=>t.type==="text").map(t=>t.text).join("")}n(i,"textOf");function p(e){return e.content.filter(t=>t.type==="toolCall")}n(p,"toolCallsOf");export{s as a,r as b,a as c,i as d,p as e};
