import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,t as s}from"./chunk-3LPHFOLJ.js";import"./chunk-PZKYYKKF.js";import"./chunk-4X7ZATFQ.js";s();export{c as EventStreamCodec,m as EventStreamMarshaller,r as EventStreamSerde,b as HeaderMarshaller,a as Int64,d as MessageDecoderStream,e as MessageEncoderStream,f as SmithyMessageDecoderStream,g as SmithyMessageEncoderStream,k as UniversalEventStreamMarshaller,n as eventStreamSerdeProvider,h as getChunkedStream,j as getMessageUnmarshaller,i as getUnmarshalledStream,p as iterableToReadableStream,o as readableStreamToIterable,q as resolveEventStreamSerdeConfig,l as universalEventStreamSerdeProvider};
