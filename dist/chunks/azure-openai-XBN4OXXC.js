import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{c as m}from"./chunk-OOGHDMNH.js";import{b as a}from"./chunk-5EWS436B.js";import"./chunk-NA6CNMAY.js";import{a as p}from"./chunk-OM5GPHZE.js";import{k as s}from"./chunk-G6BRV3KU.js";import"./chunk-IOP277XT.js";import"./chunk-H7G2H6GM.js";import"./chunk-GBMTFJE3.js";import"./chunk-IOAEYSBX.js";import"./chunk-UGPXGKM2.js";import"./chunk-IUQPCJRX.js";import"./chunk-YMAC7JUA.js";import"./chunk-XNCLI7GH.js";import{a as o}from"./chunk-4X7ZATFQ.js";function A(e){let i=new p("openai"),n=new s,{azure:r}=e,t=r.adToken,l=new a({logger:i.logger(),baseURL:`${r.endpoint.replace(/\/+$/,"")}/openai`,apiVersion:r.apiVersion,deployment:e.model,...t?{azureADTokenProvider:o(()=>Promise.resolve(t),"azureADTokenProvider"),apiKey:null}:{apiKey:r.apiKey},maxRetries:0,fetch:n.fetch});return m({name:"azure-openai",model:e.model,client:l,meter:n,notices:i,secrets:[r.apiKey??"",t??""].filter(Boolean),priceByServedModel:!0,...e.retry?{retry:e.retry}:{},...e.hints?{hints:e.hints}:{}})}o(A,"createAzureOpenAIProvider");export{A as createAzureOpenAIProvider};
