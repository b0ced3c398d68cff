import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as r}from"./chunk-4X7ZATFQ.js";var s=class extends Error{static{r(this,"UsageError")}constructor(e){super(e),this.name="UsageError"}};function n(){return{stdout:process.stdout,stderr:process.stderr,cwd:process.cwd(),env:process.env}}r(n,"processIO");function i(o,e=80){let t=o.columns;return typeof t=="number"&&Number.isFinite(t)&&t>0?t:e}r(i,"terminalWidth");function u(o,e){return o.isTTY===!0&&!("NO_COLOR"in e&&e.NO_COLOR!=="")&&e.TERM!=="dumb"}r(u,"useColour");export{s as a,n as b,i as c,u as d};
