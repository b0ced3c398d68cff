import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as n}from"./chunk-BY4APVAC.js";import{a as s,h as l}from"./chunk-QQPML6Y5.js";import"./chunk-M5KGM5RL.js";import"./chunk-YLRRE4DE.js";import{k as i}from"./chunk-YC7YJLLK.js";import"./chunk-P43YWJFO.js";import"./chunk-H7G2H6GM.js";import"./chunk-GBMTFJE3.js";import"./chunk-IOAEYSBX.js";import"./chunk-UGPXGKM2.js";import"./chunk-IUQPCJRX.js";import"./chunk-SRJU3RMV.js";import"./chunk-DJO2DK2E.js";import"./chunk-XNCLI7GH.js";import{a as o}from"./chunk-4X7ZATFQ.js";function d(e){let t=new i,{google:r}=e,p=new s({vertexai:!0,project:r.project,location:r.location,googleAuthOptions:{credentials:r.credentials,projectId:r.project,scopes:n},httpOptions:{...e.baseUrl?{baseUrl:e.baseUrl.replace(/\/+$/,"").replace(/\/v1$/,"")}:{},fetch:t.fetch}});return l({name:"google-vertex",model:e.model,client:p,meter:t,secrets:r.secrets,...e.retry?{retry:e.retry}:{},...e.hints?{hints:e.hints}:{}})}o(d,"createGoogleVertexProvider");export{d as createGoogleVertexProvider};
