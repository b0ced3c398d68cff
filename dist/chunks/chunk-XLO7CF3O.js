import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as X}from"./chunk-QFNVMKBO.js";import{c as W,e as x,f as V,g as T,h as M,i as k,l as E,m as R,n as G}from"./chunk-K2JPVHVE.js";import{a as c}from"./chunk-55G3MQVF.js";import{createHash as me}from"node:crypto";function y(e){return String(Math.round(e*10)/10)}c(y,"r");function J(e,t={}){let r=t.width??800,n=t.height??140,i=14,s=n-i-16,l=e.length;if(l===0)return"";let u=e.map(h=>h.inputTokens+h.cacheReadTokens+h.cacheWriteTokens),a=e.map(h=>h.outputTokens),p=Math.max(1,...u.map((h,w)=>h+a[w])),g=r/l,f=Math.max(.5,g*.8),b="",C="";for(let h=0;h<l;h++){let w=h*g+(g-f)/2,A=u[h]/p*s,D=a[h]/p*s,N=i+s;A>0&&(b+=`M${y(w)} ${y(N-A)}h${y(f)}v${y(A)}h${y(-f)}z`),D>0&&(C+=`M${y(w)} ${y(N-A-D)}h${y(f)}v${y(D)}h${y(-f)}z`)}return[`<svg class="chart" viewBox="0 0 ${r} ${n}" role="img" data-turns="${l}">`,"<title>Tokens per turn: context read (input and cache) and output written</title>",`<line x1="0" y1="${i+s}" x2="${r}" y2="${i+s}" class="axis"/>`,`<path class="c-ctx" d="${b}"/>`,`<path class="c-out" d="${C}"/>`,`<rect class="c-hover" x="0" y="${i}" width="${y(g)}" height="${s}" visibility="hidden"/>`,`<text x="2" y="10" class="c-label">${x(p)} tokens</text>`,`<text x="2" y="${n-3}" class="c-label">turn 1</text>`,`<text x="${r-2}" y="${n-3}" class="c-label" text-anchor="end">turn ${l}</text>`,"</svg>"].join("")}c(J,"tokensChartSvg");var ie={"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"};function d(e){return e.replace(/[&<>"']/g,t=>ie[t])}c(d,"escapeHtml");function K(e){return/^@@ .* @@/m.test(e)||/^--- /m.test(e)&&/^\+\+\+ /m.test(e)}c(K,"looksLikeDiff");function ae(e){if(e.startsWith("+++")||e.startsWith("---"))return"d-file";if(e.startsWith("@@"))return"d-hunk";if(e.startsWith("+"))return"d-add";if(e.startsWith("-"))return"d-del";if(e.startsWith("\\"))return"d-meta"}c(ae,"lineClass");function L(e){return`<pre class="diff">${e.replace(/\n$/,"").split(`
`).map(n=>{let i=ae(n),o=d(n);return i?`<span class="${i}">${o}</span>`:o}).join(`
`)}</pre>`}c(L,"renderDiffHtml");var Q=`
:root{--bg:#fff;--fg:#1f2328;--dim:#656d76;--line:#d0d7de;--card:#f6f8fa;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;
--add:#dafbe1;--del:#ffebe9;--hunk:#ddf4ff;--ctx:#54aeff;--out:#fb8f44;--errbg:#fff5f5}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--dim:#8d96a0;--line:#30363d;--card:#161b22;--ok:#3fb950;
--bad:#f85149;--warn:#d29922;--add:#12261e;--del:#2d1214;--hunk:#121d2f;--errbg:#1f1214}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
.wrap{max-width:1100px;margin:0 auto;padding:16px 20px 40px}
h1{font-size:20px;margin:0 0 8px}h2{font-size:16px;margin:20px 0 8px}
pre,code{font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{margin:4px 0;padding:8px 10px;background:var(--card);border:1px solid var(--line);border-radius:6px;overflow:auto;
max-height:480px;white-space:pre-wrap;word-break:break-word}
code{background:var(--card);padding:0 3px;border-radius:4px}
pre code{background:none;padding:0}
a{color:#0969da}
[hidden]{display:none!important}
.badge{display:inline-block;padding:1px 10px;border-radius:12px;font-size:13px;font-weight:600;color:#fff;vertical-align:middle}
.o-ok{background:var(--ok)}.o-bad{background:var(--bad)}.o-other{background:var(--dim)}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0}
.facts dt{color:var(--dim)}.facts dd{margin:0}
.box{border:1px solid var(--line);border-radius:6px;padding:6px 12px;margin:8px 0}
.box.errors{border-color:var(--bad);background:var(--errbg)}.box.warnings{border-color:var(--warn)}
.box ul{margin:4px 0;padding-left:20px}
.chart{width:100%;height:auto;max-height:200px;display:block;cursor:pointer}
.chart .axis{stroke:var(--line)}.c-ctx{fill:var(--ctx)}.c-out{fill:var(--out)}.c-hover{fill:var(--fg);opacity:.12}
.c-label{font-size:10px;fill:var(--dim)}
.legend{color:var(--dim);font-size:12px}.legend i{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px}
.controls{position:sticky;top:0;z-index:2;background:var(--bg);padding:8px 0;border-bottom:1px solid var(--line);
display:flex;gap:10px;align-items:center;flex-wrap:wrap}
.controls select,.controls button{font:inherit;padding:2px 8px}
.turn{border:1px solid var(--line);border-left:4px solid var(--line);border-radius:6px;margin:8px 0;background:var(--bg);
content-visibility:auto;contain-intrinsic-size:auto 36px}
.turn.failed{border-left-color:var(--bad)}
.turn>summary{cursor:pointer;padding:6px 10px;list-style-position:inside}
.turn>summary .n{font-weight:600;margin-right:6px}
.turn .meta{color:var(--dim);font-size:12.5px}
.turn .chips{margin-left:6px}
.chip{display:inline-block;font-size:12px;padding:0 6px;margin:1px 2px;border-radius:10px;border:1px solid var(--line)}
.chip.e{border-color:var(--bad);color:var(--bad)}
.tb{padding:4px 14px 10px}
.md p{margin:6px 0}.md ul,.md ol{margin:6px 0;padding-left:22px}
.md blockquote{margin:6px 0;padding-left:10px;border-left:3px solid var(--line);color:var(--dim)}
.merr{color:var(--bad);font-weight:600;margin:6px 0}
.call{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:6px 10px}
.call.e{border-color:var(--bad);background:var(--errbg)}
.ch .mk{font-weight:700}.call .mk{color:var(--ok)}.call.e .mk{color:var(--bad)}.call.u .mk{color:var(--warn)}
.ch b{font-family:ui-monospace,monospace}
.dim{color:var(--dim);font-size:12.5px}
.kv{margin:2px 0}.kv .k{color:var(--dim);margin-right:6px}
.lbl{color:var(--dim);font-size:12px;margin-top:6px}
.call.e pre.out{border-color:var(--bad)}
.diff .d-add{background:var(--add);display:inline-block;min-width:100%}
.diff .d-del{background:var(--del);display:inline-block;min-width:100%}
.diff .d-hunk{background:var(--hunk);color:var(--dim);display:inline-block;min-width:100%}
.diff .d-file{font-weight:600}
.event{margin:6px 0;padding:3px 10px;border-left:3px solid var(--warn);color:var(--dim);font-size:12.5px}
.event.e{border-left-color:var(--bad);color:var(--bad)}
.event .ek{font-weight:600;margin-right:6px}
.user{border:1px dashed var(--line);border-radius:6px;padding:4px 12px;margin:8px 0}
img.shot{max-width:100%;border:1px solid var(--line);margin:4px 0}
footer{color:var(--dim);font-size:12px;margin-top:24px}
.chip .ca{color:var(--dim);font-family:ui-monospace,monospace;font-size:11.5px}
.why{color:var(--bad);font:12.5px/1.45 ui-monospace,monospace;margin:4px 0;white-space:pre-wrap;word-break:break-word}
.d-a{color:var(--ok)}.d-r{color:var(--bad)}
.box details.more>summary,.box.setup>summary,.whole-diff>summary,.tooldef>summary{cursor:pointer}
.box.changes ul{columns:2 320px}
.tooldef{margin:4px 0}
.controls input{font:inherit;padding:2px 6px}
`,z=`(() => {
  const $ = (s, el = document) => el.querySelector(s);
  const $$ = (s, el = document) => Array.from(el.querySelectorAll(s));
  const kind = $('#f-kind');
  const tool = $('#f-tool');
  const count = $('#f-count');
  const find = $('#f-text');
  const turns = $$('details.turn');
  // Lower-cased text of each element, made on the first search (a long run has thousands).
  const texts = new Map();
  const textOf = (el) => {
    let t = texts.get(el);
    if (t === undefined) { t = el.textContent.toLowerCase(); texts.set(el, t); }
    return t;
  };
  function apply() {
    const onlyErrors = kind.value === 'errors';
    const name = tool.value;
    const needle = find.value.trim().toLowerCase();
    const filtering = onlyErrors || name !== '' || needle !== '';
    let shown = 0;
    for (const turn of turns) {
      const hasText = needle === '' || textOf(turn).includes(needle);
      let match = false;
      for (const call of $$('.call', turn)) {
        const ok = (!onlyErrors || call.dataset.error === '1') && (name === '' || call.dataset.tool === name) &&
          (needle === '' || textOf(call).includes(needle) || !$$('.call', turn).some((c) => textOf(c).includes(needle)));
        call.hidden = filtering && !ok;
        if (ok) match = true;
      }
      if (onlyErrors && name === '' && turn.classList.contains('failed')) match = true;
      if (!onlyErrors && name === '') match = true;
      const show = !filtering || (match && hasText);
      turn.hidden = !show;
      if (show) {
        shown++;
        if (filtering) turn.open = true;
      }
    }
    for (const ev of $$('.event')) {
      const kindOk = !(onlyErrors || name !== '') || (onlyErrors && name === '' && ev.classList.contains('e'));
      ev.hidden = filtering && !(kindOk && (needle === '' || textOf(ev).includes(needle)));
    }
    for (const u of $$('.user')) u.hidden = filtering && !(needle !== '' && !onlyErrors && name === '' && textOf(u).includes(needle));
    count.textContent = filtering ? shown + ' of ' + turns.length + ' turns' : turns.length + ' turns';
  }
  kind.addEventListener('change', apply);
  tool.addEventListener('change', apply);
  let typing;
  find.addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(apply, 150); });
  $('#expand').addEventListener('click', () => { for (const t of turns) if (!t.hidden) t.open = true; });
  $('#collapse').addEventListener('click', () => { for (const t of turns) t.open = false; });
  function openTarget() {
    const el = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (el && el.tagName === 'DETAILS') { el.hidden = false; el.open = true; el.scrollIntoView({ block: 'start' }); }
  }
  window.addEventListener('hashchange', openTarget);
  const svg = $('svg.chart');
  if (svg && turns.length) {
    const n = turns.length;
    const hover = $('.c-hover', svg);
    const tip = $('#chart-tip');
    const width = svg.viewBox.baseVal.width;
    const at = (ev) => {
      const box = svg.getBoundingClientRect();
      return Math.min(n - 1, Math.max(0, Math.floor(((ev.clientX - box.left) / box.width) * n)));
    };
    svg.addEventListener('mousemove', (ev) => {
      const i = at(ev);
      hover.setAttribute('x', String((i * width) / n));
      hover.setAttribute('visibility', 'visible');
      tip.textContent = 'Turn ' + (i + 1) + ': context ' + turns[i].dataset.ctx + ' tokens, output ' + turns[i].dataset.out + ' tokens';
    });
    svg.addEventListener('mouseleave', () => { hover.setAttribute('visibility', 'hidden'); tip.textContent = ''; });
    svg.addEventListener('click', (ev) => {
      const t = turns[at(ev)];
      t.hidden = false;
      t.open = true;
      t.scrollIntoView({ block: 'start' });
    });
  }
  apply();
  openTarget();
})();`;var q="\uE000",de=4e3,le=4;function U(e){if(e.length>de)return d(e);let t=[],r=c(i=>`${q}${t.push(i)-1}${q}`,"hold"),n=e.replace(/\uE000/g,"\uFFFD");n=n.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g,(i,o,s)=>r(`<code>${d(s.replace(/^ (.*) $/s,"$1"))}</code>`)),n=d(n),n=n.replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s()\uE000]+)\)/g,(i,o,s)=>r(`<a href="${s}" rel="noopener noreferrer nofollow" target="_blank">${Y(o)}</a>`)),n=Y(n);for(let i=0;i<3&&n.includes(q);i++)n=n.replace(/\uE000(\d+)\uE000/g,(o,s)=>t[Number(s)]??"");return n}c(U,"inline");function Y(e){return e.replace(/\*\*(?=\S)([^*\n]*?\S)\*\*/g,"<strong>$1</strong>").replace(/(^|[^\w])__(?=\S)([^_\n]*?\S)__(?!\w)/g,"$1<strong>$2</strong>").replace(/(^|[^*\w])\*(?=[^\s*])([^*\n]*?[^\s*])?\*(?![*\w])/g,(t,r,n)=>n===void 0?t:`${r}<em>${n}</em>`).replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g,"$1<em>$2</em>")}c(Y,"emphasis");var ce=/^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/,ue=/^ {0,3}(#{1,6})\s+(.*)$/,O=/^\s*[-*+]\s+(.*)$/,_=/^\s*(\d{1,9})[.)]\s+(.*)$/,B=/^ {0,3}>\s?(.*)$/;function S(e,t=0){let r=e.replace(/\r\n?/g,`
`).split(`
`),n=[],i=[],o=c(()=>{i.length&&n.push(`<p>${i.map(U).join("<br>")}</p>`),i=[]},"flush"),s=0;for(;s<r.length;){let l=r[s],u=ce.exec(l);if(u){o();let p=u[1],g=[];for(s++;s<r.length&&!new RegExp(`^ {0,3}${p[0]==="`"?"`":"~"}{${p.length},}\\s*$`).test(r[s]);)g.push(r[s]),s++;s++;let f=u[2]?` data-lang="${d(u[2])}"`:"";n.push(`<pre class="md-code"${f}><code>${d(g.join(`
`))}</code></pre>`);continue}let a=l.length<=300?ue.exec(l):null;if(a){o();let p=Math.min(6,a[1].length+2);n.push(`<h${p}>${U(a[2].replace(/\s+#+\s*$/,""))}</h${p}>`),s++;continue}if(O.test(l)||_.test(l)){o();let p=!O.test(l),g=p?_:O,f=p?_.exec(l)[1]:"",b=[];for(;s<r.length&&g.test(r[s]);){let h=g.exec(r[s]),w=[p?h[2]:h[1]];for(s++;s<r.length&&/^\s{2,}\S/.test(r[s])&&!O.test(r[s])&&!_.test(r[s]);)w.push(r[s].trim()),s++;b.push(`<li>${w.map(U).join("<br>")}</li>`)}let C=p&&f!=="1"?` start="${Number(f)}"`:"";n.push(p?`<ol${C}>${b.join("")}</ol>`:`<ul>${b.join("")}</ul>`);continue}if(t<le&&B.test(l)){o();let p=[];for(;s<r.length&&B.test(r[s]);)p.push(B.exec(r[s])[1]),s++;n.push(`<blockquote>${S(p.join(`
`),t+1)}</blockquote>`);continue}l.trim()===""?o():i.push(l.trim()),s++}return o(),n.join(`
`)}c(S,"renderMarkdown");function pe(e){let t=0,r=0;for(let n of e.split(`
`))n.startsWith("+++")||n.startsWith("---")||(n.startsWith("+")?t++:n.startsWith("-")&&r++);return{added:t,removed:r}}c(pe,"countLines");function I(e){return e!==null&&typeof e=="object"&&!Array.isArray(e)}c(I,"isObj");function Z(e){let t=e.summary??{},r=typeof t.diff=="string"&&t.diff.trim()?t.diff:void 0,n=new Map;for(let i of e.turns)for(let o of i.calls){if(o.isError||o.name!=="edit_file"&&o.name!=="write_file")continue;let s=o.result?.details;if(!I(s)||typeof s.path!="string")continue;let l=n.get(s.path)??{path:s.path,added:0,removed:0,diffs:[]};if(typeof s.diff=="string"&&s.diff){let u=pe(s.diff);l.added+=u.added,l.removed+=u.removed,l.diffs.push(s.diff)}n.set(s.path,l)}if(Array.isArray(t.changedFiles)){let i=[];for(let o of t.changedFiles)!I(o)||typeof o.path!="string"||i.push({path:o.path,added:typeof o.added=="number"?o.added:0,removed:typeof o.removed=="number"?o.removed:0,diffs:n.get(o.path)?.diffs??[]});return{files:i,source:"summary",...r?{diff:r}:{}}}return{files:[...n.values()],source:"tools",...r?{diff:r}:{}}}c(Z,"runChanges");var fe=/^https?:\/\/[^\s"'<>]+$/;function H(e){return typeof e=="string"&&fe.test(e)?e:void 0}c(H,"url");function ee(e){let t=e.session??{},r=e.summary??{},n={};n.run=H(t.runUrl);let i=typeof t.number=="number"&&Number.isInteger(t.number)?t.number:void 0,o=n.run?.replace(/\/actions\/runs\/\d+(\/.*)?$/,"");o&&o!==n.run&&i!==void 0&&(n.issue=`${o}/issues/${i}`),n.pullRequest=H(r.prUrl);for(let l of e.events)l.event==="pull-request"&&!n.pullRequest&&(n.pullRequest=H(l.url)),l.event==="comment"&&!n.comment&&(n.comment=H(l.url));let s=t.continues;I(s)&&o&&typeof s.runId=="string"&&/^\d+$/.test(s.runId)&&(n.earlierRun=`${o}/actions/runs/${s.runId}`);for(let l of Object.keys(n))n[l]===void 0&&delete n[l];return n}c(ee,"runLinks");function te(e){let t=e.session??{},r=Array.isArray(t.tools)?t.tools.flatMap(n=>I(n)&&typeof n.name=="string"?[{name:n.name,description:typeof n.description=="string"?n.description:"",parameters:n.parameters}]:[]):[];return{...typeof t.systemPrompt=="string"?{systemPrompt:t.systemPrompt}:{},tools:r}}c(te,"runSetup");function m(e){return typeof e=="string"&&e!==""?k(e):void 0}c(m,"str");function $(e){return typeof e=="number"&&Number.isFinite(e)?e:void 0}c($,"num");function ne(e){let t=e,r=m(t.message)??m(t.reason)??m(t.error);switch(e.event){case"retry":{let n=$(t.delayMs),i=$(t.status);return`Retried the model request${$(t.attempt)!==void 0?` (attempt ${$(t.attempt)})`:""}${n!==void 0?` after ${T(n)}`:""}${r||i!==void 0?`: ${[m(t.errorKind),i!==void 0?`HTTP ${i}`:void 0,r].filter(Boolean).join(", ")}`:""}`}case"fallback":return`Moved the session from ${m(t.from)??"?"} to ${m(t.to)??"?"}${r?`: ${r}`:""}`;case"compaction":return`Folded ${R($(t.removedMessages)??0,"earlier message")} into a summary${$(t.tokensBefore)!==void 0?` (${$(t.tokensBefore)} \u2192 ${$(t.tokensAfter)??"?"} tokens)`:""}${m(t.reason)?`, ${m(t.reason)}`:""}`;case"budget":return`The ${m(t.budget)??""} budget is used up${$(t.used)!==void 0?` (${$(t.used)} of ${$(t.limit)??"?"})`:""}`.replace("The  budget","A budget");case"cancel":return`Cancelled${r?`: ${r}`:""}`;case"error":return`Error: ${r??"no message"}`;case"commit":return`Committed ${m(t.sha)?.slice(0,12)??""}${$(t.files)!==void 0?` (${R($(t.files),"file")})`:""}`;case"push":return`Pushed ${m(t.branch)??"the branch"}${m(t.sha)?` at ${m(t.sha).slice(0,12)}`:""}${t.rebased===!0?" (rebased on the remote first)":""}`;case"pull-request":return`Pull request${$(t.number)!==void 0?` #${$(t.number)}`:""}: ${m(t.kind)??""}${m(t.url)?` ${m(t.url)}`:""}${r?` (${r})`:""}`;case"comment":return`Tracking comment${m(t.url)?` ${m(t.url)}`:""}`;case"continue":return t.reason==="length"?"The reply was cut at the output limit; the model was asked to go on":t.reason==="empty"?"The model stopped without a word; it was asked to finish or say why not":t.reason==="malformed_call"?"The model sent a tool call that could not be read; it was told so":`Continued an earlier session${m(t.sessionId)?` (${m(t.sessionId)})`:""}`;case"notice":return`Notice${m(t.source)?` from ${m(t.source)}`:""}: ${m(t.message)??""}`;default:return Object.entries(t).filter(([n])=>n!=="type"&&n!=="event"&&n!=="timestamp").map(([n,i])=>`${n}=${M(typeof i=="string"?k(i):E(i),200)}`).join(" ")}}c(ne,"describeEvent");function se(e,t=40){if(typeof e.input=="string")return M(k(e.input),t);for(let r of["path","pattern","command","args"]){let n=e.input[r];if(typeof n=="string"&&n)return M(k(n),t)}return""}c(se,"tellingArgument");var P=64e3,ge=new Set(["image/png","image/jpeg","image/gif","image/webp"]),he=new Set(["success","no-changes"]),$e=new Set(["failure","budget-exceeded","cancelled","unauthorized"]);function v(e,t=""){let r=e.length>P?e.slice(0,P):e,n=e.length>P?`
\u2026 ${e.length-P} more characters not shown here (the transcript has them)`:"";return`<pre${t?` class="${t}"`:""}>${d(r)}${d(n)}</pre>`}c(v,"pre");function be(e){return!ge.has(e.mimeType)||!/^[A-Za-z0-9+/]*={0,2}$/.test(e.data)?`<div class="dim">[image of type ${d(e.mimeType)} not shown]</div>`:`<img class="shot" alt="image returned by the tool" src="data:${e.mimeType};base64,${e.data}">`}c(be,"image");function xe(e){if(typeof e=="string")return`<div class="lbl">Arguments (not valid JSON, as the model sent them)</div>${v(e)}`;let t=Object.entries(e).map(([r,n])=>{if(typeof n=="string"&&!n.includes(`
`)&&n.length<=120)return`<div class="kv"><span class="k">${d(r)}</span><code>${d(n)}</code></div>`;let i=typeof n=="string"?n:E(n,2);return`<div class="kv"><span class="k">${d(r)}</span>${v(i)}</div>`});return t.length?t.join(""):'<div class="kv dim">(no arguments)</div>'}c(xe,"argsHtml");function ye(e){if(e==null)return"";let t="";if(typeof e=="string")t=K(e)?L(e):v(e);else if(typeof e=="object"&&!Array.isArray(e)){let{diff:n,patch:i,...o}=e,s=typeof n=="string"?n:typeof i=="string"?i:void 0;s!==void 0&&(t+=L(s));let l=s===void 0?e:o;Object.keys(l).length>0&&(t+=v(E(l,2)))}else t=v(E(e,2));return`<details class="det"${t.includes('class="diff"')?" open":""}><summary class="lbl">Details (not sent to the model)</summary>${t}</details>`}c(ye,"detailsHtml");function ve(e){let t=e.result?e.isError?" e":"":" u",r=e.result?e.isError?"\u2717":"\u2713":"?",n=e.durationMs!==void 0?` \xB7 ${T(e.durationMs)}`:"",i=[`<div class="call${t}" data-tool="${d(e.name)}" data-error="${e.isError?1:0}">`,`<div class="ch"><span class="mk">${r}</span> <b>${d(e.name)}</b> <span class="dim">${d(e.id)}${n}</span></div>`,xe(e.input)];if(!e.result)i.push('<div class="lbl">No result recorded (the run ended before it).</div>');else{if(e.isError){let o=G(e.output,6);o.length&&o.join(`
`)!==e.output.trim()&&i.push(`<div class="why">${o.map(s=>d(s)).join("<br>")}</div>`)}i.push(`<div class="lbl">Result${e.isError?" (error)":""}, as the model saw it</div>`);for(let o of e.result.content)i.push(o.type==="text"?v(o.text,"out"):be(o));i.push(ye(e.result.details))}return i.push("</div>"),i.join("")}c(ve,"callHtml");function ke(e){let t=e.stopReason==="error"||e.stopReason==="aborted"||e.calls.some(u=>u.isError),r=[...new Set(e.calls.map(u=>u.name))],n=V(e.usage.costUsd),i=[d(e.model),d(e.stopReason),e.durationMs!==void 0?T(e.durationMs):"",`in ${x(e.usage.inputTokens)} \xB7 out ${x(e.usage.outputTokens)}`+(e.usage.cacheReadTokens||e.usage.cacheWriteTokens?` \xB7 cache r ${x(e.usage.cacheReadTokens)} w ${x(e.usage.cacheWriteTokens)}`:""),n??""].filter(Boolean),o=e.calls.map(u=>{let a=se(u);return`<span class="chip${u.isError?" e":""}">${u.isError?"\u2717 ":""}${d(u.name)}${a?` <span class="ca">${d(a)}</span>`:""}</span>`}).join(""),s=e.calls.length===0&&e.text?` <span class="dim">${d(k(e.text).slice(0,90))}</span>`:"",l=[];e.errorMessage&&l.push(`<div class="merr">Model error: ${d(e.errorMessage)}</div>`),e.thinking&&l.push(`<details><summary class="lbl">Reasoning</summary>${v(e.thinking)}</details>`),e.text&&l.push(`<div class="md">${S(e.text)}</div>`);for(let u of e.calls)l.push(ve(u));return`<details class="turn${t?" failed":""}" id="turn-${e.index}" data-tools="${d(r.join(" "))}" data-ctx="${X(e.usage)}" data-out="${e.usage.outputTokens}"><summary><span class="n">Turn ${e.index}</span><span class="meta">${i.join(" \xB7 ")}</span><span class="chips">${o}</span>${s}</summary><div class="tb">${l.join("")}</div></details>`}c(ke,"turnHtml");function we(e){return W(e)?Te(e):`<div class="event${e.event==="error"||e.event==="cancel"?" e":""}" data-kind="${d(String(e.event))}"><span class="ek">${d(String(e.event))}</span>${d(ne(e))}</div>`}c(we,"eventHtml");var Ee=".event.boundary{margin:14px 0;padding:6px 10px;border-left:0;border-top:2px dashed var(--warn);border-bottom:2px dashed var(--warn);color:inherit}";function Te(e){let t=typeof e.runUrl=="string"&&/^https?:\/\//.test(e.runUrl)?e.runUrl:void 0,r=typeof e.sessionId=="string"?` (session ${d(e.sessionId)})`:"";return`<div class="event boundary" data-kind="continue" id="earlier-session-end"><span class="ek">continue</span>Above: ${t?j(t,"the earlier run"):"the earlier session"}${r}, ${String(e.earlierMessages)} recorded messages. Below: this session, continuing it.</div>`}c(Te,"boundaryHtml");function j(e,t){return`<a href="${d(e)}" rel="noopener noreferrer">${d(t)}</a>`}c(j,"link");var re=5,F=4e5;function oe(e){let t=e.turns.slice(0,8).map(i=>`<a href="#turn-${i}">${i}</a>`);e.turns.length>8&&t.push("\u2026");let r=e.turns.length?`${e.turns.length>1?"turns":"turn"} ${t.join(", ")}`:d(e.source),n=e.count>1?` (${e.count} times)`:"";return`<li>${r}${e.tool?` \xB7 <code>${d(e.tool)}</code>`:""}${n}: ${d(e.message)}</li>`}c(oe,"errorItem");function Re(e){let t=e.errors;if(t.length===0)return"";let r=new Map,n=new Map;for(let a of t){let p=a.tool??a.source;r.set(p,(r.get(p)??0)+1);let g=`${a.source}\0${a.tool??""}\0${a.message}`,f=n.get(g)??{tool:a.tool,source:a.source,message:a.message,turns:[],count:0};f.count++,a.turn!==void 0&&!f.turns.includes(a.turn)&&f.turns.push(a.turn),n.set(g,f)}let i=[...r.entries()].sort((a,p)=>p[1]-a[1]).map(([a,p])=>`<code>${d(a)}</code> ${p}`).join(" \xB7 "),o=[...n.values()],s=o.slice(0,re).map(oe).join(""),l=o.slice(re),u=l.length?`<details class="more"><summary>${l.length} more</summary><ul>${l.map(oe).join("")}</ul></details>`:"";return`<div class="box errors" id="errors"><b>Errors (${t.length})</b> <span class="dim">${i}</span><ul>${s}</ul>${u}</div>`}c(Re,"errorsHtml");function Se(e){let t=Z(e);if(t.files.length===0&&!t.diff)return"";let r=t.files.reduce((a,p)=>a+p.added,0),n=t.files.reduce((a,p)=>a+p.removed,0),i=t.files.map(a=>`<li><code>${d(a.path)}</code> <span class="d-a">+${a.added}</span> <span class="d-r">\u2212${a.removed}</span></li>`).join(""),o=t.source==="tools"?'<div class="dim">As edited by the file tools during the run; commands may have changed more, and the commit is what counts.</div>':"",s=t.diff??t.files.flatMap(a=>a.diffs).join(`
`),l="";s.length>F&&(l=`<div class="dim">\u2026 ${s.length-F} more characters of the diff are in the transcript.</div>`,s=s.slice(0,F));let u=s.trim()?`<details class="whole-diff"><summary>${t.diff?"The whole diff":"The edits, file by file"}</summary>${L(s)}${l}</details>`:"";return`<div class="box changes" id="changes"><b>Changed files (${R(t.files.length,"file")}, +${r} \u2212${n})</b><ul>${i}</ul>${o}${u}</div>`}c(Se,"changesHtml");function je(e){let t=te(e);if(t.systemPrompt===void 0&&t.tools.length===0)return"";let r=[];if(t.systemPrompt!==void 0&&r.push(`<div class="lbl">System prompt</div>${v(t.systemPrompt)}`),t.tools.length){r.push(`<div class="lbl">Tool definitions (${t.tools.length})</div>`);for(let n of t.tools)r.push(`<details class="tooldef"><summary><code>${d(n.name)}</code> <span class="dim">${d(k(n.description).slice(0,140))}</span></summary>${v(n.description)}${n.parameters!==void 0?v(E(n.parameters,2)):""}</details>`)}return`<details class="box setup" id="setup"><summary><b>System prompt and tools</b> <span class="dim">what the model was given before the task</span></summary>${r.join("")}</details>`}c(je,"setupHtml");function Ce(e){let t=e.conclusion??"incomplete",r=he.has(t)?"o-ok":$e.has(t)||!e.complete?"o-bad":"o-other",n=Object.values(e.tools).reduce((f,b)=>f+b.calls,0),i=Object.values(e.tools).reduce((f,b)=>f+b.errors,0),o=e.totals,s=[[e.models.length>1?"Models":"Model",e.models.map(f=>`<code>${d(f)}</code>`).join(", ")||"(none)"]];e.repository&&s.push(["Repository",d(e.repository)]),e.trigger&&s.push(["Trigger",d(e.trigger)]),e.startedAt!==void 0&&s.push(["Started",d(new Date(e.startedAt).toISOString())]),s.push(["Duration",T(e.durationMs)]),s.push(["Turns",String(e.turns.length)]),s.push(["Tool calls",`${n} (${R(i,"error")})`]),s.push(["Tokens",`input ${x(o.inputTokens)} \xB7 output ${x(o.outputTokens)} \xB7 cache read ${x(o.cacheReadTokens)} \xB7 cache write ${x(o.cacheWriteTokens)}`]);let l=V(o.costUsd);s.push(["Cost",l?`${l} (estimated)`:"unknown (no price for this model)"]);let u=e.summary??{};typeof u.branch=="string"&&s.push(["Branch",`<code>${d(u.branch)}</code>`]),typeof u.commitSha=="string"&&s.push(["Commit",`<code>${d(u.commitSha)}</code>`]);let a=ee(e),p=e.session&&typeof e.session.number=="number"?e.session.number:void 0;a.issue&&s.push(["Issue or PR",j(a.issue,`#${p??""}`)]),a.pullRequest&&s.push(["Pull request",j(a.pullRequest,a.pullRequest)]),a.run&&s.push(["Workflow run",j(a.run,a.run)]),a.comment&&s.push(["Summary comment",j(a.comment,a.comment)]),a.earlierRun&&s.push(["Continues",j(a.earlierRun,"the earlier run")]);let g=[`<h1>patchloop run <span class="badge ${r}">${d(t)}</span></h1>`,`<dl class="facts">${s.map(([f,b])=>`<dt>${f}</dt><dd>${b}</dd>`).join("")}</dl>`];return g.push(Se(e),Re(e)),e.warnings.length&&g.push(`<div class="box warnings"><b>About this transcript</b><ul>${e.warnings.map(f=>`<li>${d(f)}</li>`).join("")}</ul></div>`),g.join("")}c(Ce,"headerHtml");function Ae(e){return`<div class="controls"><label>Show <select id="f-kind"><option value="all">all turns</option><option value="errors">only errors</option></select></label><label>Tool <select id="f-tool"><option value="">any tool</option>${Object.keys(e.tools).sort().map(r=>`<option value="${d(r)}">${d(r)} (${e.tools[r].calls})</option>`).join("")}</select></label><label>Find <input type="search" id="f-text" placeholder="text in the run" size="22"></label><button type="button" id="expand">Expand all</button><button type="button" id="collapse">Collapse all</button><span id="f-count" class="dim"></span></div>`}c(Ae,"controlsHtml");function nt(e,t={}){let r=`patchloop run ${e.id??""} \u2014 ${e.conclusion??"incomplete"}`,i=`default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-${me("sha256").update(z).digest("base64")}'; base-uri 'none'; form-action 'none'`,o=[Ce(e)];e.turns.length&&o.push(`<h2>Tokens per turn</h2>${J(e.turns.map(a=>a.usage))}<div class="legend"><i class="c-ctx" style="background:var(--ctx)"></i>context read (input + cache)<i style="background:var(--out)"></i>output <span id="chart-tip"></span></div>`);let s=e.turns[e.turns.length-1];s&&s.calls.length===0&&s.text&&o.push(`<h2>Final message</h2><div class="md box">${S(s.text)}</div>`),o.push(je(e)),o.push("<h2>Timeline</h2>",Ae(e));for(let a of e.timeline)a.kind==="turn"?o.push(ke(a.turn)):a.kind==="event"?o.push(we(a.event)):a.kind==="task"?o.push(`<details class="user" open><summary class="lbl">Task</summary><div class="md">${S(a.text)}</div></details>`):o.push(`<div class="user"><div class="lbl">User</div><div class="md">${S(a.text)}</div></div>`);let l=t.generatedAt?` on ${d(t.generatedAt.toISOString())}`:"";o.push(`<footer>Exported by patchloop${t.source?` from ${d(t.source)}`:""}${l}.</footer>`);let u=["<!doctype html>",'<html lang="en"><head><meta charset="utf-8">',`<meta http-equiv="Content-Security-Policy" content="${i}">`,'<meta name="viewport" content="width=device-width,initial-scale=1">','<meta name="referrer" content="no-referrer">',`<title>${d(r)}</title>`,`<style>${Q}${Ee}</style></head>`,`<body><div class="wrap">${o.join(`
`)}</div>`,`<script>${z}</script>`,"</body></html>",""].join(`
`);return t.redact?t.redact(u):u}c(nt,"renderHtml");export{nt as a};
