import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as l,b,d as i}from"./chunk-4X7ZATFQ.js";var c=i((a,p)=>{var u=b("buffer"),e=u.Buffer;function m(r,f){for(var n in r)f[n]=r[n]}l(m,"copyProps");e.from&&e.alloc&&e.allocUnsafe&&e.allocUnsafeSlow?p.exports=u:(m(u,a),a.Buffer=o);function o(r,f,n){return e(r,f,n)}l(o,"SafeBuffer");o.prototype=Object.create(e.prototype);m(e,o);o.from=function(r,f,n){if(typeof r=="number")throw new TypeError("Argument must not be a number");return e(r,f,n)};o.alloc=function(r,f,n){if(typeof r!="number")throw new TypeError("Argument must be a number");var t=e(r);return f!==void 0?typeof n=="string"?t.fill(f,n):t.fill(f):t.fill(0),t};o.allocUnsafe=function(r){if(typeof r!="number")throw new TypeError("Argument must be a number");return e(r)};o.allocUnsafeSlow=function(r){if(typeof r!="number")throw new TypeError("Argument must be a number");return u.SlowBuffer(r)}});export{c as a};
