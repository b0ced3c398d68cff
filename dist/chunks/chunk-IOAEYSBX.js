import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as n}from"./chunk-4X7ZATFQ.js";var s=["stop","toolUse","length","error","aborted"];function r(){return{inputTokens:0,outputTokens:0,cacheReadTokens:0,cacheWriteTokens:0}}n(r,"emptyUsage");function i(e,t){let o={inputTokens:e.inputTokens+t.inputTokens,outputTokens:e.outputTokens+t.outputTokens,cacheReadTokens:e.cacheReadTokens+t.cacheReadTokens,cacheWriteTokens:e.cacheWriteTokens+t.cacheWriteTokens};return(e.costUsd!==void 0||t.costUsd!==void 0)&&(o.costUsd=(e.costUsd??0)+(t.costUsd??0)),o}n(i,"addUsage");function a(e){return typeof e=="string"?e:e.filter(t=>t.type==="text").map(t=>t.text).join("")}n(a,"textOf");function g(e){return e.content.filter(t=>t.type==="toolCall")}n(g,"toolCallsOf");export{s as a,r as b,i as c,a as d,g as e};
