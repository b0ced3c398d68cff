import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{b as J,e as z}from"./chunk-VBCPIGEE.js";import{f as D,h as y,i as q,j as I,k as v,n as R,o as T,p as K}from"./chunk-GB6UQMVG.js";import{b as j}from"./chunk-IUQPCJRX.js";import{a as c}from"./chunk-4X7ZATFQ.js";import{createHash as be}from"node:crypto";function w(e){return String(Math.round(e*10)/10)}c(w,"r");function Q(e,t={}){let r=t.width??800,n=t.height??140,i=14,s=n-i-16,d=e.length;if(d===0)return"";let m=e.map(u=>u.inputTokens+u.cacheReadTokens+u.cacheWriteTokens),g=e.map(u=>u.outputTokens),a=Math.max(1,...m.map((u,x)=>u+g[x])),f=r/d,$=Math.max(.5,f*.8),h="",k="";for(let u=0;u<d;u++){let x=u*f+(f-$)/2,S=m[u]/a*s,A=g[u]/a*s,C=i+s;S>0&&(h+=`M${w(x)} ${w(C-S)}h${w($)}v${w(S)}h${w(-$)}z`),A>0&&(k+=`M${w(x)} ${w(C-S-A)}h${w($)}v${w(A)}h${w(-$)}z`)}return[`<svg class="chart" viewBox="0 0 ${r} ${n}" role="img" data-turns="${d}">`,"<title>Tokens per turn: context read (input and cache) and output written</title>",`<line x1="0" y1="${i+s}" x2="${r}" y2="${i+s}" class="axis"/>`,`<path class="c-ctx" d="${h}"/>`,`<path class="c-out" d="${k}"/>`,`<rect class="c-hover" x="0" y="${i}" width="${w(f)}" height="${s}" visibility="hidden"/>`,`<text x="2" y="10" class="c-label">${y(a)} tokens</text>`,`<text x="2" y="${n-3}" class="c-label">turn 1</text>`,`<text x="${r-2}" y="${n-3}" class="c-label" text-anchor="end">turn ${d}</text>`,"</svg>"].join("")}c(Q,"tokensChartSvg");var ce={"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"};function l(e){return e.replace(/[&<>"']/g,t=>ce[t])}c(l,"escapeHtml");function Y(e){return/^@@ .* @@/m.test(e)||/^--- /m.test(e)&&/^\+\+\+ /m.test(e)}c(Y,"looksLikeDiff");function ue(e){if(e.startsWith("+++")||e.startsWith("---"))return"d-file";if(e.startsWith("@@"))return"d-hunk";if(e.startsWith("+"))return"d-add";if(e.startsWith("-"))return"d-del";if(e.startsWith("\\"))return"d-meta"}c(ue,"lineClass");function _(e){return`<pre class="diff">${e.replace(/\n$/,"").split(`
`).map(n=>{let i=ue(n),o=l(n);return i?`<span class="${i}">${o}</span>`:o}).join(`
`)}</pre>`}c(_,"renderDiffHtml");var Z=`
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
.box.final{border-color:var(--ok);border-left-width:4px}.box.final .md>:first-child{margin-top:4px}
.earlier-session{border:1px dashed var(--line);border-radius:6px;padding:4px 10px;margin:8px 0}
.earlier-session>summary{cursor:pointer}
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
.task{margin:4px 0 8px;font-size:15px;overflow-wrap:anywhere}.task .lbl{margin-right:6px}
.turn .narr{display:block;color:var(--fg);opacity:.85;font-size:13px;margin:2px 0 0 18px;overflow:hidden;
text-overflow:ellipsis;white-space:nowrap}
mark.hit{background:#fff8c5;color:inherit;border-radius:2px}mark.hit.cur{background:#ffd33d;outline:2px solid var(--warn)}
@media (prefers-color-scheme:dark){mark.hit{background:#5a4a00}mark.hit.cur{background:#9e6a03}}
.hits button{min-width:28px}#f-hit{margin-left:4px}
.facts dd,.box li,.chip,.kv,.event,.ch,.md,.why{overflow-wrap:anywhere;min-width:0}
.chip{max-width:100%}
@media (max-width:600px){.wrap{padding:10px 10px 30px}.facts{gap:2px 10px}.box.changes ul{columns:1}.tb{padding:4px 6px 8px}.controls{gap:6px}.controls input{width:10em}
.turn .narr{margin-left:0}.call{padding:6px}}
`,F=`(() => {
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
    // a follow-up's earlier session opens when something in it is shown by a filter
    const earlier = $('.earlier-session');
    if (earlier && filtering) earlier.open = $$('details.turn, .event, .user', earlier).some((el) => !el.hidden);
    const noun = turns.length === 1 ? ' turn' : ' turns';
    count.textContent = filtering ? shown + ' of ' + turns.length + noun : turns.length + noun;
    highlight(needle);
  }
  // Search hits: each match in the shown timeline wrapped in <mark>, stepped through with \u2191 and \u2193.
  const MAX_HITS = 2000;
  let hits = [];
  let current = -1;
  const hitLabel = $('#f-hit');
  function clearHits() {
    for (const m of $$('mark.hit')) {
      const parent = m.parentNode;
      parent.replaceChild(document.createTextNode(m.textContent), m);
      parent.normalize();
    }
    hits = [];
    current = -1;
  }
  function highlight(needle) {
    clearHits();
    if (needle !== '') {
      const roots = $$('details.turn, .event, .user').filter((el) => !el.hidden);
      for (const root of roots) {
        if (hits.length >= MAX_HITS) break;
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        const nodes = [];
        for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.nodeValue.toLowerCase().includes(needle)) nodes.push(n);
        for (const node of nodes) {
          let rest = node;
          let at = rest.nodeValue.toLowerCase().indexOf(needle);
          while (at >= 0 && hits.length < MAX_HITS) {
            const match = rest.splitText(at);
            rest = match.splitText(needle.length);
            const mark = document.createElement('mark');
            mark.className = 'hit';
            match.parentNode.replaceChild(mark, match);
            mark.appendChild(match);
            if (!mark.closest('[hidden]')) hits.push(mark);
            at = rest.nodeValue.toLowerCase().indexOf(needle);
          }
        }
      }
    }
    hitLabel.textContent = needle === '' ? '' : hits.length === 0 ? 'no match' : hits.length + (hits.length >= MAX_HITS ? '+' : '') + ' matches';
  }
  function go(step) {
    if (hits.length === 0) return;
    if (current >= 0) hits[current].classList.remove('cur');
    current = (current + step + hits.length) % hits.length;
    const mark = hits[current];
    mark.classList.add('cur');
    for (let el = mark.parentElement; el; el = el.parentElement) if (el.tagName === 'DETAILS') el.open = true;
    mark.scrollIntoView({ block: 'center' });
    hitLabel.textContent = (current + 1) + ' of ' + hits.length;
  }
  $('#f-next').addEventListener('click', () => go(1));
  $('#f-prev').addEventListener('click', () => go(-1));
  find.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') { ev.preventDefault(); clearTimeout(typing); if (hits.length === 0) apply(); go(ev.shiftKey ? -1 : 1); }
  });
  kind.addEventListener('change', apply);
  tool.addEventListener('change', apply);
  let typing;
  find.addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(apply, 150); });
  $('#expand').addEventListener('click', () => {
    for (const t of turns) if (!t.hidden) t.open = true;
    for (const e of $$('.earlier-session')) e.open = true;
  });
  $('#collapse').addEventListener('click', () => { for (const t of turns) t.open = false; });
  function openTarget() {
    const el = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (el && el.tagName === 'DETAILS') {
      el.hidden = false;
      el.open = true;
      for (let p = el.parentElement; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
      el.scrollIntoView({ block: 'start' });
    }
  }
  window.addEventListener('hashchange', openTarget);
  const svg = $('svg.chart');
  // the chart has this session's turns: a follow-up's earlier ones are not in it
  const charted = turns.filter((t) => !t.classList.contains('earlier'));
  if (svg && charted.length) {
    const n = charted.length;
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
      tip.textContent = 'Turn ' + (i + 1) + ': context ' + charted[i].dataset.ctx + ' tokens, output ' + charted[i].dataset.out + ' tokens';
    });
    svg.addEventListener('mouseleave', () => { hover.setAttribute('visibility', 'hidden'); tip.textContent = ''; });
    svg.addEventListener('click', (ev) => {
      const t = charted[at(ev)];
      t.hidden = false;
      t.open = true;
      t.scrollIntoView({ block: 'start' });
    });
  }
  apply();
  openTarget();
})();`;var U="\uE000",pe=4e3,fe=4;function W(e){if(e.length>pe)return l(e);let t=[],r=c(i=>`${U}${t.push(i)-1}${U}`,"hold"),n=e.replace(/\uE000/g,"\uFFFD");n=n.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g,(i,o,s)=>r(`<code>${l(s.replace(/^ (.*) $/s,"$1"))}</code>`)),n=l(n),n=n.replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s()\uE000]+)\)/g,(i,o,s)=>r(`<a href="${s}" rel="noopener noreferrer nofollow" target="_blank">${ee(o)}</a>`)),n=ee(n);for(let i=0;i<3&&n.includes(U);i++)n=n.replace(/\uE000(\d+)\uE000/g,(o,s)=>t[Number(s)]??"");return n}c(W,"inline");function ee(e){return e.replace(/\*\*(?=\S)([^*\n]*?\S)\*\*/g,"<strong>$1</strong>").replace(/(^|[^\w])__(?=\S)([^_\n]*?\S)__(?!\w)/g,"$1<strong>$2</strong>").replace(/(^|[^*\w])\*(?=[^\s*])([^*\n]*?[^\s*])?\*(?![*\w])/g,(t,r,n)=>n===void 0?t:`${r}<em>${n}</em>`).replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g,"$1<em>$2</em>")}c(ee,"emphasis");var me=/^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/,he=/^ {0,3}(#{1,6})\s+(.*)$/,H=/^\s*[-*+]\s+(.*)$/,O=/^\s*(\d{1,9})[.)]\s+(.*)$/,B=/^ {0,3}>\s?(.*)$/;function L(e,t=0){let r=e.replace(/\r\n?/g,`
`).split(`
`),n=[],i=[],o=c(()=>{i.length&&n.push(`<p>${i.map(W).join("<br>")}</p>`),i=[]},"flush"),s=0;for(;s<r.length;){let d=r[s],m=me.exec(d);if(m){o();let a=m[1],f=[];for(s++;s<r.length&&!new RegExp(`^ {0,3}${a[0]==="`"?"`":"~"}{${a.length},}\\s*$`).test(r[s]);)f.push(r[s]),s++;s++;let $=m[2]?` data-lang="${l(m[2])}"`:"";n.push(`<pre class="md-code"${$}><code>${l(f.join(`
`))}</code></pre>`);continue}let g=d.length<=300?he.exec(d):null;if(g){o();let a=Math.min(6,g[1].length+2);n.push(`<h${a}>${W(g[2].replace(/\s+#+\s*$/,""))}</h${a}>`),s++;continue}if(H.test(d)||O.test(d)){o();let a=!H.test(d),f=a?O:H,$=a?O.exec(d)[1]:"",h=[];for(;s<r.length&&f.test(r[s]);){let u=f.exec(r[s]),x=[a?u[2]:u[1]];for(s++;s<r.length&&/^\s{2,}\S/.test(r[s])&&!H.test(r[s])&&!O.test(r[s]);)x.push(r[s].trim()),s++;h.push(`<li>${x.map(W).join("<br>")}</li>`)}let k=a&&$!=="1"?` start="${Number($)}"`:"";n.push(a?`<ol${k}>${h.join("")}</ol>`:`<ul>${h.join("")}</ul>`);continue}if(t<fe&&B.test(d)){o();let a=[];for(;s<r.length&&B.test(r[s]);)a.push(B.exec(r[s])[1]),s++;n.push(`<blockquote>${L(a.join(`
`),t+1)}</blockquote>`);continue}d.trim()===""?o():i.push(d.trim()),s++}return o(),n.join(`
`)}c(L,"renderMarkdown");function ge(e){let t=0,r=0;for(let n of e.split(`
`))n.startsWith("+++")||n.startsWith("---")||(n.startsWith("+")?t++:n.startsWith("-")&&r++);return{added:t,removed:r}}c(ge,"countLines");function P(e){return e!==null&&typeof e=="object"&&!Array.isArray(e)}c(P,"isObj");function te(e){let t=e.summary??{},r=typeof t.diff=="string"&&t.diff.trim()?t.diff:void 0,n=new Map;for(let i of e.turns)for(let o of i.calls){if(o.isError||o.name!=="edit_file"&&o.name!=="write_file")continue;let s=o.result?.details;if(!P(s)||typeof s.path!="string")continue;let d=n.get(s.path)??{path:s.path,added:0,removed:0,diffs:[]};if(typeof s.diff=="string"&&s.diff){let m=ge(s.diff);d.added+=m.added,d.removed+=m.removed,d.diffs.push(s.diff)}n.set(s.path,d)}if(Array.isArray(t.changedFiles)){let i=[];for(let o of t.changedFiles)!P(o)||typeof o.path!="string"||i.push({path:o.path,added:typeof o.added=="number"?o.added:0,removed:typeof o.removed=="number"?o.removed:0,diffs:n.get(o.path)?.diffs??[]});return{files:i,source:"summary",...r?{diff:r}:{}}}return{files:[...n.values()],source:"tools",...r?{diff:r}:{}}}c(te,"runChanges");var $e=/^https?:\/\/[^\s"'<>]+$/;function N(e){return typeof e=="string"&&$e.test(e)?e:void 0}c(N,"url");function ne(e){let t=e.session??{},r=e.summary??{},n={};n.run=N(t.runUrl);let i=typeof t.number=="number"&&Number.isInteger(t.number)?t.number:void 0,o=n.run?.replace(/\/actions\/runs\/\d+(\/.*)?$/,"");o&&o!==n.run&&i!==void 0&&(n.issue=`${o}/issues/${i}`),n.pullRequest=N(r.prUrl);for(let d of e.events)d.event==="pull-request"&&!n.pullRequest&&(n.pullRequest=N(d.url)),d.event==="comment"&&!n.comment&&(n.comment=N(d.url));let s=t.continues;P(s)&&o&&typeof s.runId=="string"&&/^\d+$/.test(s.runId)&&(n.earlierRun=`${o}/actions/runs/${s.runId}`);for(let d of Object.keys(n))n[d]===void 0&&delete n[d];return n}c(ne,"runLinks");function re(e){let t=e.session??{},r=Array.isArray(t.tools)?t.tools.flatMap(n=>P(n)&&typeof n.name=="string"?[{name:n.name,description:typeof n.description=="string"?n.description:"",parameters:n.parameters}]:[]):[];return{...typeof t.systemPrompt=="string"?{systemPrompt:t.systemPrompt}:{},tools:r}}c(re,"runSetup");function p(e){return typeof e=="string"&&e!==""?v(e):void 0}c(p,"str");function b(e){return typeof e=="number"&&Number.isFinite(e)?e:void 0}c(b,"num");function se(e){let t=e,r=p(t.message)??p(t.reason)??p(t.error);switch(e.event){case"retry":{let n=b(t.delayMs),i=b(t.status);return`Retried the model request${b(t.attempt)!==void 0?` (attempt ${b(t.attempt)})`:""}${n!==void 0?` after ${j(n)}`:""}${r||i!==void 0?`: ${[p(t.errorKind),i!==void 0?`HTTP ${i}`:void 0,r].filter(Boolean).join(", ")}`:""}`}case"fallback":return`Moved the session from ${p(t.from)??"?"} to ${p(t.to)??"?"}${r?`: ${r}`:""}`;case"compaction":return`Folded ${T(b(t.removedMessages)??0,"earlier message")} into a summary${b(t.tokensBefore)!==void 0?` (${b(t.tokensBefore)} \u2192 ${b(t.tokensAfter)??"?"} tokens)`:""}${p(t.reason)?`, ${p(t.reason)}`:""}`;case"budget":return`The ${p(t.budget)??""} budget is used up${b(t.used)!==void 0?` (${b(t.used)} of ${b(t.limit)??"?"})`:""}`.replace("The  budget","A budget");case"cancel":return`Cancelled${r?`: ${r}`:""}`;case"error":return`Error: ${r??"no message"}`;case"commit":return`Committed ${p(t.sha)?.slice(0,12)??""}${b(t.files)!==void 0?` (${T(b(t.files),"file")})`:""}`;case"push":return`Pushed ${p(t.branch)??"the branch"}${p(t.sha)?` at ${p(t.sha).slice(0,12)}`:""}${t.rebased===!0?" (rebased on the remote first)":""}`;case"pull-request":return`Pull request${b(t.number)!==void 0?` #${b(t.number)}`:""}: ${p(t.kind)??""}${p(t.url)?` ${p(t.url)}`:""}${r?` (${r})`:""}`;case"comment":return`Tracking comment${p(t.url)?` ${p(t.url)}`:""}`;case"continue":return t.reason==="length"?"The reply was cut at the output limit; the model was asked to go on":t.reason==="empty"?"The model stopped without a word; it was asked to finish or say why not":t.reason==="malformed_call"?"The model sent a tool call that could not be read; it was told so":`Continued an earlier session${p(t.sessionId)?` (${p(t.sessionId)})`:""}`;case"approval":{let n=t.plan??{};return`Plan approved by @${p(t.by)??"?"}${p(t.at)?` at ${p(t.at)}`:""}${p(n.runUrl)?` (the plan of ${p(n.runUrl)}${p(n.sessionId)?`, session ${p(n.sessionId)}`:""})`:""}`}case"joined":return`A request from @${p(t.author)??"?"} joined the session while the run worked${p(t.createdAt)?` (written at ${p(t.createdAt)})`:""}${p(t.url)?`: ${p(t.url)}`:b(t.commentId)!==void 0?`: comment ${b(t.commentId)}`:""}`;case"notice":return`Notice${p(t.source)?` from ${p(t.source)}`:""}: ${p(t.message)??""}`;default:return Object.entries(t).filter(([n])=>n!=="type"&&n!=="event"&&n!=="timestamp").map(([n,i])=>`${n}=${I(typeof i=="string"?v(i):R(i),200)}`).join(" ")}}c(se,"describeEvent");function oe(e,t=40){if(typeof e.input=="string")return I(v(e.input),t);for(let r of["path","pattern","command","args"]){let n=e.input[r];if(typeof n=="string"&&n)return I(v(n),t)}return""}c(oe,"tellingArgument");var V=64e3,xe=new Set(["image/png","image/jpeg","image/gif","image/webp"]),ke=new Set(["success","no-changes"]),ye=new Set(["failure","budget-exceeded","cancelled","unauthorized"]);function E(e,t=""){let r=e.length>V?e.slice(0,V):e,n=e.length>V?`
\u2026 ${e.length-V} more characters not shown here (the transcript has them)`:"";return`<pre${t?` class="${t}"`:""}>${l(r)}${l(n)}</pre>`}c(E,"pre");function ve(e){return!xe.has(e.mimeType)||!/^[A-Za-z0-9+/]*={0,2}$/.test(e.data)?`<div class="dim">[image of type ${l(e.mimeType)} not shown]</div>`:`<img class="shot" alt="image returned by the tool" src="data:${e.mimeType};base64,${e.data}">`}c(ve,"image");function we(e){if(typeof e=="string")return`<div class="lbl">Arguments (not valid JSON, as the model sent them)</div>${E(e)}`;let t=Object.entries(e).map(([r,n])=>{if(typeof n=="string"&&!n.includes(`
`)&&n.length<=120)return`<div class="kv"><span class="k">${l(r)}</span><code>${l(n)}</code></div>`;let i=typeof n=="string"?n:R(n,2);return`<div class="kv"><span class="k">${l(r)}</span>${E(i)}</div>`});return t.length?t.join(""):'<div class="kv dim">(no arguments)</div>'}c(we,"argsHtml");function Te(e){if(e==null)return"";let t="";if(typeof e=="string")t=Y(e)?_(e):E(e);else if(typeof e=="object"&&!Array.isArray(e)){let{diff:n,patch:i,...o}=e,s=typeof n=="string"?n:typeof i=="string"?i:void 0;s!==void 0&&(t+=_(s));let d=s===void 0?e:o;Object.keys(d).length>0&&(t+=E(R(d,2)))}else t=E(R(e,2));return`<details class="det"${t.includes('class="diff"')?" open":""}><summary class="lbl">Details (not sent to the model)</summary>${t}</details>`}c(Te,"detailsHtml");function Ee(e){let t=e.result?e.isError?" e":"":" u",r=e.result?e.isError?"\u2717":"\u2713":"?",n=e.durationMs!==void 0?` \xB7 ${j(e.durationMs)}`:"",i=[`<div class="call${t}" data-tool="${l(e.name)}" data-error="${e.isError?1:0}">`,`<div class="ch"><span class="mk">${r}</span> <b>${l(e.name)}</b> <span class="dim">${l(e.id)}${n}</span></div>`,we(e.input)];if(!e.result)i.push('<div class="lbl">No result recorded (the run ended before it).</div>');else{if(e.isError){let o=K(e.output,6);o.length&&o.join(`
`)!==e.output.trim()&&i.push(`<div class="why">${o.map(s=>l(s)).join("<br>")}</div>`)}i.push(`<div class="lbl">Result${e.isError?" (error)":""}, as the model saw it</div>`);for(let o of e.result.content)i.push(o.type==="text"?E(o.text,"out"):ve(o));i.push(Te(e.result.details))}return i.push("</div>"),i.join("")}c(Ee,"callHtml");var X=140;function Re(e){let t=e.text.split(`
`).map(n=>n.replace(/^[#>*\-\s]+/,"").trim()).find(n=>n!=="");return t?t.length>X?`${t.slice(0,X-1)}\u2026`:t:e.errorMessage?`Model error: ${v(e.errorMessage).slice(0,X)}`:e.calls.length===0?"":`Called ${[...new Set(e.calls.map(n=>n.name))].join(", ")}`}c(Re,"narration");function Se(e){let t=e.stopReason==="error"||e.stopReason==="aborted"||e.calls.some(f=>f.isError),r=[...new Set(e.calls.map(f=>f.name))],n=q(e.usage.costUsd),i=[l(e.model),l(e.stopReason),e.durationMs!==void 0?j(e.durationMs):"",`in ${y(e.usage.inputTokens)} \xB7 out ${y(e.usage.outputTokens)}`+(e.usage.cacheReadTokens||e.usage.cacheWriteTokens?` \xB7 cache r ${y(e.usage.cacheReadTokens)} w ${y(e.usage.cacheWriteTokens)}`:""),n??""].filter(Boolean),o=e.calls.map(f=>{let $=oe(f);return`<span class="chip${f.isError?" e":""}">${f.isError?"\u2717 ":""}${l(f.name)}${$?` <span class="ca">${l($)}</span>`:""}</span>`}).join(""),s=Re(e),d=s?`<span class="narr">${l(s)}</span>`:"",m=[];e.errorMessage&&m.push(`<div class="merr">Model error: ${l(e.errorMessage)}</div>`),e.thinking&&m.push(`<details><summary class="lbl">Reasoning</summary>${E(e.thinking)}</details>`),e.text&&m.push(`<div class="md">${L(e.text)}</div>`);for(let f of e.calls)m.push(Ee(f));let g=e.earlier?`earlier-turn-${e.index}`:`turn-${e.index}`,a=e.earlier?`Earlier turn ${e.index}`:`Turn ${e.index}`;return`<details class="turn${t?" failed":""}${e.earlier?" earlier":""}" id="${g}" data-tools="${l(r.join(" "))}" data-ctx="${z(e.usage)}" data-out="${e.usage.outputTokens}"><summary><span class="n">${a}</span><span class="meta">${i.join(" \xB7 ")}</span><span class="chips">${o}</span>${d}</summary><div class="tb">${m.join("")}</div></details>`}c(Se,"turnHtml");function Ce(e){if(D(e))return je(e);let t=e.event==="error"||e.event==="cancel",r=typeof e.event=="string"?e.event:R(e.event);return`<div class="event${t?" e":""}" data-kind="${l(r)}"><span class="ek">${l(r)}</span>${l(se(e))}</div>`}c(Ce,"eventHtml");var Ae=".event.boundary{margin:14px 0;padding:6px 10px;border-left:0;border-top:2px dashed var(--warn);border-bottom:2px dashed var(--warn);color:inherit}";function je(e){let t=typeof e.runUrl=="string"&&/^https?:\/\//.test(e.runUrl)?e.runUrl:void 0,r=typeof e.sessionId=="string"?` (session ${l(e.sessionId)})`:"";return`<div class="event boundary" data-kind="continue" id="earlier-session-end"><span class="ek">continue</span>Above: ${t?M(t,"the earlier run"):"the earlier session"}${r}, ${typeof e.earlierMessages=="number"?e.earlierMessages:R(e.earlierMessages)} recorded messages. Below: this session, continuing it.</div>`}c(je,"boundaryHtml");function M(e,t){return`<a href="${l(e)}" rel="noopener noreferrer">${l(t)}</a>`}c(M,"link");var ie=5,G=4e5,Le=60;function ae(e){let t=e.turns.slice(0,8).map(i=>`<a href="#turn-${i}">${i}</a>`);e.turns.length>8&&t.push("\u2026");let r=e.turns.length?`${e.turns.length>1?"turns":"turn"} ${t.join(", ")}`:l(e.source),n=e.count>1?` (${e.count} times)`:"";return`<li>${r}${e.tool?` \xB7 <code>${l(e.tool)}</code>`:""}${n}: ${l(e.message)}</li>`}c(ae,"errorItem");function Me(e){let t=e.errors.filter(u=>!u.earlier),r=e.errors.length-t.length,n=t.filter(u=>!u.recovered),i=t.length-n.length,o=[];i&&o.push(`${T(i,n.length?"other error":"error")} the run recovered from ${i>1?"are":"is"} marked on ${i>1?"their turns":"its turn"}.`),r&&o.push(`${T(r,"error")} of the earlier session ${r>1?"are":"is"} marked on its turns.`);let s=o.map(u=>`<div class="dim">${u}</div>`).join("");if(n.length===0)return o.length?`<div class="box recovered">${s}</div>`:"";let d=new Map,m=new Map;for(let u of n){let x=u.message.trim(),S=m.get(x);if(S&&u.source!=="tool")continue;let A=u.tool??u.source;d.set(A,(d.get(A)??0)+1);let C=S??{tool:u.tool,source:u.source,message:u.message,turns:[],count:0};C.count++,u.turn!==void 0&&!C.turns.includes(u.turn)&&C.turns.push(u.turn),m.set(x,C)}let g=[...m.values()].reduce((u,x)=>u+x.count,0),a=[...d.entries()].sort((u,x)=>x[1]-u[1]).map(([u,x])=>`<code>${l(u)}</code> ${x}`).join(" \xB7 "),f=[...m.values()],$=f.slice(0,ie).map(ae).join(""),h=f.slice(ie),k=h.length?`<details class="more"><summary>${h.length} more</summary><ul>${h.map(ae).join("")}</ul></details>`:"";return`<div class="box errors" id="errors"><b>Errors (${g})</b> <span class="dim">${a}</span><ul>${$}</ul>${k}${s}</div>`}c(Me,"errorsHtml");function Ie(e){let t=te(e);if(t.files.length===0&&!t.diff)return"";let r=t.files.reduce((a,f)=>a+f.added,0),n=t.files.reduce((a,f)=>a+f.removed,0),i=t.files.map(a=>`<li><code>${l(a.path)}</code> <span class="d-a">+${a.added}</span> <span class="d-r">\u2212${a.removed}</span></li>`).join(""),o=t.source==="tools"?'<div class="dim">As edited by the file tools during the run; commands may have changed more, and the commit is what counts.</div>':"",s=t.diff??t.files.flatMap(a=>a.diffs).join(`
`),d="";s.length>G&&(d=`<div class="dim">\u2026 ${s.length-G} more characters of the diff are in the transcript.</div>`,s=s.slice(0,G));let m=s.split(`
`).length<=Le?" open":"",g=s.trim()?`<details class="whole-diff"${m}><summary>${t.diff?"The whole diff":"The edits, file by file"}</summary>${_(s)}${d}</details>`:"";return`<div class="box changes" id="changes"><b>Changed files (${T(t.files.length,"file")}, +${r} \u2212${n})</b><ul>${i}</ul>${o}${g}</div>`}c(Ie,"changesHtml");function _e(e){let t=re(e);if(t.systemPrompt===void 0&&t.tools.length===0)return"";let r=[];if(t.systemPrompt!==void 0&&r.push(`<div class="lbl">System prompt</div>${E(t.systemPrompt)}`),t.tools.length){r.push(`<div class="lbl">Tool definitions (${t.tools.length})</div>`);for(let n of t.tools)r.push(`<details class="tooldef"><summary><code>${l(n.name)}</code> <span class="dim">${l(v(n.description).slice(0,140))}</span></summary>${E(n.description)}${n.parameters!==void 0?E(R(n.parameters,2)):""}</details>`)}return`<details class="box setup" id="setup"><summary><b>System prompt and tools</b> <span class="dim">what the model was given before the task</span></summary>${r.join("")}</details>`}c(_e,"setupHtml");var He=300;function Oe(e){let t=e.conclusion??"incomplete",r=ke.has(t)?"o-ok":ye.has(t)||!e.complete?"o-bad":"o-other",n=Object.values(e.tools).reduce((h,k)=>h+k.calls,0),i=Object.values(e.tools).reduce((h,k)=>h+k.errors,0),o=e.totals,s=[[e.models.length>1?"Models":"Model",e.models.map(h=>`<code>${l(h)}</code>`).join(", ")||"(none)"]];e.repository&&s.push(["Repository",l(e.repository)]),e.trigger&&s.push(["Trigger",l(e.trigger)]),e.startedAt!==void 0&&s.push(["Started",l(new Date(e.startedAt).toISOString())]),s.push(["Duration",j(e.durationMs)]);let d=e.turns.filter(h=>!h.earlier).length;s.push(["Turns",e.earlierTurns!==void 0?`${d} (and ${e.earlierTurns} of the earlier session)`:String(d)]),s.push(["Tool calls",`${n} (${T(i,"error")})`]),s.push(["Tokens",`input ${y(o.inputTokens)} \xB7 output ${y(o.outputTokens)} \xB7 cache read ${y(o.cacheReadTokens)} \xB7 cache write ${y(o.cacheWriteTokens)}`]);let m=q(o.costUsd);s.push(["Cost",m?`${m} (estimated)`:"unknown (no price for this model)"]);let g=e.summary??{};typeof g.branch=="string"&&s.push(["Branch",`<code>${l(g.branch)}</code>`]),typeof g.commitSha=="string"&&s.push(["Commit",`<code>${l(g.commitSha)}</code>`]);let a=ne(e),f=e.session&&typeof e.session.number=="number"?e.session.number:void 0;a.issue&&s.push(["Issue or PR",M(a.issue,`#${f??""}`)]),a.pullRequest&&s.push(["Pull request",M(a.pullRequest,a.pullRequest)]),a.run&&s.push(["Workflow run",M(a.run,a.run)]),a.comment&&s.push(["Summary comment",M(a.comment,a.comment)]),a.earlierRun&&s.push(["Continues",M(a.earlierRun,"the earlier run")]);let $=[`<h1>patchloop run <span class="badge ${r}">${l(t)}</span></h1>`,Ne(e),Pe(e),Ie(e),Me(e)];return e.warnings.length&&$.push(`<div class="box warnings"><b>About this transcript</b><ul>${e.warnings.map(h=>`<li>${l(h)}</li>`).join("")}</ul></div>`),$.push(`<dl class="facts">${s.map(([h,k])=>`<dt>${h}</dt><dd>${k}</dd>`).join("")}</dl>`),$.join("")}c(Oe,"headerHtml");var le=c((e,t)=>e.length>t?`${e.slice(0,t-1)}\u2026`:e,"cutTo");function de(e){let t=J(e);return t?`${t.from}: ${v(t.text)}`:v(e)}c(de,"asked");function Ne(e){let t=e.earlierTurns!==void 0,r=[];if(e.task&&r.push(`<p class="task" id="task"><span class="lbl">${t?"Follow-up":"Task"}</span> ${l(le(de(e.task),He))}</p>`),t){let n=e.earlierTask?` that began with \u201C${l(le(de(e.earlierTask),160))}\u201D`:"";r.push(`<p class="dim" id="continues">Continues an earlier session of ${T(e.earlierTurns??0,"turn")}${n} (<a href="#earlier-session">shown below</a>). Turns are numbered within each session, as the live timeline numbered them.</p>`)}return r.join("")}c(Ne,"requestHtml");function Pe(e){let t=e.turns[e.turns.length-1];return!t||t.earlier||t.calls.length>0||!t.text?"":`<div class="box final" id="final"><b>Final message</b><div class="md">${L(t.text)}</div></div>`}c(Pe,"finalHtml");function Ve(e){return`<div class="controls"><label>Show <select id="f-kind"><option value="all">all turns</option><option value="errors">only errors</option></select></label><label>Tool <select id="f-tool"><option value="">any tool</option>${Object.keys(e.tools).sort().map(r=>`<option value="${l(r)}">${l(r)} (${e.tools[r].calls})</option>`).join("")}</select></label><label>Find <input type="search" id="f-text" placeholder="text in the run" size="22"></label><span class="hits"><button type="button" id="f-prev" title="Previous match" aria-label="Previous match">\u2191</button><button type="button" id="f-next" title="Next match" aria-label="Next match">\u2193</button><span id="f-hit" class="dim"></span></span><button type="button" id="expand">Expand all</button><button type="button" id="collapse">Collapse all</button><span id="f-count" class="dim"></span></div>`}c(Ve,"controlsHtml");function pt(e,t={}){let r=`patchloop run ${e.id??""} \u2014 ${e.conclusion??"incomplete"}${e.task?` \u2014 ${v(e.task).slice(0,80)}`:""}`,i=`default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-${be("sha256").update(F).digest("base64")}'; base-uri 'none'; form-action 'none'`,o=[Oe(e)],s=e.turns.filter(a=>!a.earlier);s.some(a=>z(a.usage)+a.usage.outputTokens>0)&&o.push(`<h2>Tokens per turn</h2>${Q(s.map(a=>a.usage))}<div class="legend"><i class="c-ctx" style="background:var(--ctx)"></i>context read (input + cache)<i style="background:var(--out)"></i>output <span id="chart-tip"></span></div>`),o.push(_e(e)),o.push("<h2>Timeline</h2>",Ve(e));let d=e.earlierTurns!==void 0;d&&o.push(`<details class="earlier-session" id="earlier-session"><summary><b>Earlier session</b> <span class="dim">${T(e.earlierTurns??0,"turn")}, before this follow-up</span></summary>`);for(let a of e.timeline)d&&a.kind==="event"&&D(a.event)&&(o.push("</details>"),d=!1),a.kind==="turn"?o.push(Se(a.turn)):a.kind==="event"?o.push(Ce(a.event)):a.kind==="task"?o.push(`<details class="user"${a.earlier?"":" open"}><summary class="lbl">${a.earlier?"Earlier task":e.earlierTurns!==void 0?"Follow-up":"Task"}</summary><div class="md">${L(a.text)}</div></details>`):o.push(`<div class="user"><div class="lbl">User</div><div class="md">${L(a.text)}</div></div>`);d&&o.push("</details>");let m=t.generatedAt?` on ${l(t.generatedAt.toISOString())}`:"";o.push(`<footer>Exported by patchloop${t.source?` from ${l(t.source)}`:""}${m}.</footer>`);let g=["<!doctype html>",'<html lang="en"><head><meta charset="utf-8">',`<meta http-equiv="Content-Security-Policy" content="${i}">`,'<meta name="viewport" content="width=device-width,initial-scale=1">','<meta name="referrer" content="no-referrer">',`<title>${l(r)}</title>`,`<style>${Z}${Ae}</style></head>`,`<body><div class="wrap">${o.join(`
`)}</div>`,`<script>${F}</script>`,"</body></html>",""].join(`
`);return t.redact?t.redact(g):g}c(pt,"renderHtml");export{pt as a};
