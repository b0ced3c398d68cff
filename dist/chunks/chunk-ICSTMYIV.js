import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as z}from"./chunk-HOZRKWZW.js";import{f as G,h as y,i as V,j as L,k as w,n as E,o as R,p as K}from"./chunk-SEGQDI2I.js";import{b as S}from"./chunk-IUQPCJRX.js";import{a as u}from"./chunk-4X7ZATFQ.js";import{createHash as ge}from"node:crypto";function v(e){return String(Math.round(e*10)/10)}u(v,"r");function J(e,t={}){let s=t.width??800,n=t.height??140,i=14,r=n-i-16,l=e.length;if(l===0)return"";let m=e.map(f=>f.inputTokens+f.cacheReadTokens+f.cacheWriteTokens),c=e.map(f=>f.outputTokens),d=Math.max(1,...m.map((f,k)=>f+c[k])),$=s/l,p=Math.max(.5,$*.8),g="",b="";for(let f=0;f<l;f++){let k=f*$+($-p)/2,M=m[f]/d*r,P=c[f]/d*r,X=i+r;M>0&&(g+=`M${v(k)} ${v(X-M)}h${v(p)}v${v(M)}h${v(-p)}z`),P>0&&(b+=`M${v(k)} ${v(X-M-P)}h${v(p)}v${v(P)}h${v(-p)}z`)}return[`<svg class="chart" viewBox="0 0 ${s} ${n}" role="img" data-turns="${l}">`,"<title>Tokens per turn: context read (input and cache) and output written</title>",`<line x1="0" y1="${i+r}" x2="${s}" y2="${i+r}" class="axis"/>`,`<path class="c-ctx" d="${g}"/>`,`<path class="c-out" d="${b}"/>`,`<rect class="c-hover" x="0" y="${i}" width="${v($)}" height="${r}" visibility="hidden"/>`,`<text x="2" y="10" class="c-label">${y(d)} tokens</text>`,`<text x="2" y="${n-3}" class="c-label">turn 1</text>`,`<text x="${s-2}" y="${n-3}" class="c-label" text-anchor="end">turn ${l}</text>`,"</svg>"].join("")}u(J,"tokensChartSvg");var le={"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"};function a(e){return e.replace(/[&<>"']/g,t=>le[t])}u(a,"escapeHtml");function Q(e){return/^@@ .* @@/m.test(e)||/^--- /m.test(e)&&/^\+\+\+ /m.test(e)}u(Q,"looksLikeDiff");function ce(e){if(e.startsWith("+++")||e.startsWith("---"))return"d-file";if(e.startsWith("@@"))return"d-hunk";if(e.startsWith("+"))return"d-add";if(e.startsWith("-"))return"d-del";if(e.startsWith("\\"))return"d-meta"}u(ce,"lineClass");function j(e){return`<pre class="diff">${e.replace(/\n$/,"").split(`
`).map(n=>{let i=ce(n),o=a(n);return i?`<span class="${i}">${o}</span>`:o}).join(`
`)}</pre>`}u(j,"renderDiffHtml");var Y=`
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
`,D=`(() => {
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
})();`;var q="\uE000",de=4e3,ue=4;function U(e){if(e.length>de)return a(e);let t=[],s=u(i=>`${q}${t.push(i)-1}${q}`,"hold"),n=e.replace(/\uE000/g,"\uFFFD");n=n.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g,(i,o,r)=>s(`<code>${a(r.replace(/^ (.*) $/s,"$1"))}</code>`)),n=a(n),n=n.replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s()\uE000]+)\)/g,(i,o,r)=>s(`<a href="${r}" rel="noopener noreferrer nofollow" target="_blank">${Z(o)}</a>`)),n=Z(n);for(let i=0;i<3&&n.includes(q);i++)n=n.replace(/\uE000(\d+)\uE000/g,(o,r)=>t[Number(r)]??"");return n}u(U,"inline");function Z(e){return e.replace(/\*\*(?=\S)([^*\n]*?\S)\*\*/g,"<strong>$1</strong>").replace(/(^|[^\w])__(?=\S)([^_\n]*?\S)__(?!\w)/g,"$1<strong>$2</strong>").replace(/(^|[^*\w])\*(?=[^\s*])([^*\n]*?[^\s*])?\*(?![*\w])/g,(t,s,n)=>n===void 0?t:`${s}<em>${n}</em>`).replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g,"$1<em>$2</em>")}u(Z,"emphasis");var pe=/^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/,me=/^ {0,3}(#{1,6})\s+(.*)$/,_=/^\s*[-*+]\s+(.*)$/,H=/^\s*(\d{1,9})[.)]\s+(.*)$/,F=/^ {0,3}>\s?(.*)$/;function C(e,t=0){let s=e.replace(/\r\n?/g,`
`).split(`
`),n=[],i=[],o=u(()=>{i.length&&n.push(`<p>${i.map(U).join("<br>")}</p>`),i=[]},"flush"),r=0;for(;r<s.length;){let l=s[r],m=pe.exec(l);if(m){o();let d=m[1],$=[];for(r++;r<s.length&&!new RegExp(`^ {0,3}${d[0]==="`"?"`":"~"}{${d.length},}\\s*$`).test(s[r]);)$.push(s[r]),r++;r++;let p=m[2]?` data-lang="${a(m[2])}"`:"";n.push(`<pre class="md-code"${p}><code>${a($.join(`
`))}</code></pre>`);continue}let c=l.length<=300?me.exec(l):null;if(c){o();let d=Math.min(6,c[1].length+2);n.push(`<h${d}>${U(c[2].replace(/\s+#+\s*$/,""))}</h${d}>`),r++;continue}if(_.test(l)||H.test(l)){o();let d=!_.test(l),$=d?H:_,p=d?H.exec(l)[1]:"",g=[];for(;r<s.length&&$.test(s[r]);){let f=$.exec(s[r]),k=[d?f[2]:f[1]];for(r++;r<s.length&&/^\s{2,}\S/.test(s[r])&&!_.test(s[r])&&!H.test(s[r]);)k.push(s[r].trim()),r++;g.push(`<li>${k.map(U).join("<br>")}</li>`)}let b=d&&p!=="1"?` start="${Number(p)}"`:"";n.push(d?`<ol${b}>${g.join("")}</ol>`:`<ul>${g.join("")}</ul>`);continue}if(t<ue&&F.test(l)){o();let d=[];for(;r<s.length&&F.test(s[r]);)d.push(F.exec(s[r])[1]),r++;n.push(`<blockquote>${C(d.join(`
`),t+1)}</blockquote>`);continue}l.trim()===""?o():i.push(l.trim()),r++}return o(),n.join(`
`)}u(C,"renderMarkdown");function fe(e){let t=0,s=0;for(let n of e.split(`
`))n.startsWith("+++")||n.startsWith("---")||(n.startsWith("+")?t++:n.startsWith("-")&&s++);return{added:t,removed:s}}u(fe,"countLines");function I(e){return e!==null&&typeof e=="object"&&!Array.isArray(e)}u(I,"isObj");function ee(e){let t=e.summary??{},s=typeof t.diff=="string"&&t.diff.trim()?t.diff:void 0,n=new Map;for(let i of e.turns)for(let o of i.calls){if(o.isError||o.name!=="edit_file"&&o.name!=="write_file")continue;let r=o.result?.details;if(!I(r)||typeof r.path!="string")continue;let l=n.get(r.path)??{path:r.path,added:0,removed:0,diffs:[]};if(typeof r.diff=="string"&&r.diff){let m=fe(r.diff);l.added+=m.added,l.removed+=m.removed,l.diffs.push(r.diff)}n.set(r.path,l)}if(Array.isArray(t.changedFiles)){let i=[];for(let o of t.changedFiles)!I(o)||typeof o.path!="string"||i.push({path:o.path,added:typeof o.added=="number"?o.added:0,removed:typeof o.removed=="number"?o.removed:0,diffs:n.get(o.path)?.diffs??[]});return{files:i,source:"summary",...s?{diff:s}:{}}}return{files:[...n.values()],source:"tools",...s?{diff:s}:{}}}u(ee,"runChanges");var he=/^https?:\/\/[^\s"'<>]+$/;function O(e){return typeof e=="string"&&he.test(e)?e:void 0}u(O,"url");function te(e){let t=e.session??{},s=e.summary??{},n={};n.run=O(t.runUrl);let i=typeof t.number=="number"&&Number.isInteger(t.number)?t.number:void 0,o=n.run?.replace(/\/actions\/runs\/\d+(\/.*)?$/,"");o&&o!==n.run&&i!==void 0&&(n.issue=`${o}/issues/${i}`),n.pullRequest=O(s.prUrl);for(let l of e.events)l.event==="pull-request"&&!n.pullRequest&&(n.pullRequest=O(l.url)),l.event==="comment"&&!n.comment&&(n.comment=O(l.url));let r=t.continues;I(r)&&o&&typeof r.runId=="string"&&/^\d+$/.test(r.runId)&&(n.earlierRun=`${o}/actions/runs/${r.runId}`);for(let l of Object.keys(n))n[l]===void 0&&delete n[l];return n}u(te,"runLinks");function ne(e){let t=e.session??{},s=Array.isArray(t.tools)?t.tools.flatMap(n=>I(n)&&typeof n.name=="string"?[{name:n.name,description:typeof n.description=="string"?n.description:"",parameters:n.parameters}]:[]):[];return{...typeof t.systemPrompt=="string"?{systemPrompt:t.systemPrompt}:{},tools:s}}u(ne,"runSetup");function h(e){return typeof e=="string"&&e!==""?w(e):void 0}u(h,"str");function x(e){return typeof e=="number"&&Number.isFinite(e)?e:void 0}u(x,"num");function se(e){let t=e,s=h(t.message)??h(t.reason)??h(t.error);switch(e.event){case"retry":{let n=x(t.delayMs),i=x(t.status);return`Retried the model request${x(t.attempt)!==void 0?` (attempt ${x(t.attempt)})`:""}${n!==void 0?` after ${S(n)}`:""}${s||i!==void 0?`: ${[h(t.errorKind),i!==void 0?`HTTP ${i}`:void 0,s].filter(Boolean).join(", ")}`:""}`}case"fallback":return`Moved the session from ${h(t.from)??"?"} to ${h(t.to)??"?"}${s?`: ${s}`:""}`;case"compaction":return`Folded ${R(x(t.removedMessages)??0,"earlier message")} into a summary${x(t.tokensBefore)!==void 0?` (${x(t.tokensBefore)} \u2192 ${x(t.tokensAfter)??"?"} tokens)`:""}${h(t.reason)?`, ${h(t.reason)}`:""}`;case"budget":return`The ${h(t.budget)??""} budget is used up${x(t.used)!==void 0?` (${x(t.used)} of ${x(t.limit)??"?"})`:""}`.replace("The  budget","A budget");case"cancel":return`Cancelled${s?`: ${s}`:""}`;case"error":return`Error: ${s??"no message"}`;case"commit":return`Committed ${h(t.sha)?.slice(0,12)??""}${x(t.files)!==void 0?` (${R(x(t.files),"file")})`:""}`;case"push":return`Pushed ${h(t.branch)??"the branch"}${h(t.sha)?` at ${h(t.sha).slice(0,12)}`:""}${t.rebased===!0?" (rebased on the remote first)":""}`;case"pull-request":return`Pull request${x(t.number)!==void 0?` #${x(t.number)}`:""}: ${h(t.kind)??""}${h(t.url)?` ${h(t.url)}`:""}${s?` (${s})`:""}`;case"comment":return`Tracking comment${h(t.url)?` ${h(t.url)}`:""}`;case"continue":return t.reason==="length"?"The reply was cut at the output limit; the model was asked to go on":t.reason==="empty"?"The model stopped without a word; it was asked to finish or say why not":t.reason==="malformed_call"?"The model sent a tool call that could not be read; it was told so":`Continued an earlier session${h(t.sessionId)?` (${h(t.sessionId)})`:""}`;case"notice":return`Notice${h(t.source)?` from ${h(t.source)}`:""}: ${h(t.message)??""}`;default:return Object.entries(t).filter(([n])=>n!=="type"&&n!=="event"&&n!=="timestamp").map(([n,i])=>`${n}=${L(typeof i=="string"?w(i):E(i),200)}`).join(" ")}}u(se,"describeEvent");function re(e,t=40){if(typeof e.input=="string")return L(w(e.input),t);for(let s of["path","pattern","command","args"]){let n=e.input[s];if(typeof n=="string"&&n)return L(w(n),t)}return""}u(re,"tellingArgument");var N=64e3,$e=new Set(["image/png","image/jpeg","image/gif","image/webp"]),be=new Set(["success","no-changes"]),xe=new Set(["failure","budget-exceeded","cancelled","unauthorized"]);function T(e,t=""){let s=e.length>N?e.slice(0,N):e,n=e.length>N?`
\u2026 ${e.length-N} more characters not shown here (the transcript has them)`:"";return`<pre${t?` class="${t}"`:""}>${a(s)}${a(n)}</pre>`}u(T,"pre");function ke(e){return!$e.has(e.mimeType)||!/^[A-Za-z0-9+/]*={0,2}$/.test(e.data)?`<div class="dim">[image of type ${a(e.mimeType)} not shown]</div>`:`<img class="shot" alt="image returned by the tool" src="data:${e.mimeType};base64,${e.data}">`}u(ke,"image");function ye(e){if(typeof e=="string")return`<div class="lbl">Arguments (not valid JSON, as the model sent them)</div>${T(e)}`;let t=Object.entries(e).map(([s,n])=>{if(typeof n=="string"&&!n.includes(`
`)&&n.length<=120)return`<div class="kv"><span class="k">${a(s)}</span><code>${a(n)}</code></div>`;let i=typeof n=="string"?n:E(n,2);return`<div class="kv"><span class="k">${a(s)}</span>${T(i)}</div>`});return t.length?t.join(""):'<div class="kv dim">(no arguments)</div>'}u(ye,"argsHtml");function ve(e){if(e==null)return"";let t="";if(typeof e=="string")t=Q(e)?j(e):T(e);else if(typeof e=="object"&&!Array.isArray(e)){let{diff:n,patch:i,...o}=e,r=typeof n=="string"?n:typeof i=="string"?i:void 0;r!==void 0&&(t+=j(r));let l=r===void 0?e:o;Object.keys(l).length>0&&(t+=T(E(l,2)))}else t=T(E(e,2));return`<details class="det"${t.includes('class="diff"')?" open":""}><summary class="lbl">Details (not sent to the model)</summary>${t}</details>`}u(ve,"detailsHtml");function we(e){let t=e.result?e.isError?" e":"":" u",s=e.result?e.isError?"\u2717":"\u2713":"?",n=e.durationMs!==void 0?` \xB7 ${S(e.durationMs)}`:"",i=[`<div class="call${t}" data-tool="${a(e.name)}" data-error="${e.isError?1:0}">`,`<div class="ch"><span class="mk">${s}</span> <b>${a(e.name)}</b> <span class="dim">${a(e.id)}${n}</span></div>`,ye(e.input)];if(!e.result)i.push('<div class="lbl">No result recorded (the run ended before it).</div>');else{if(e.isError){let o=K(e.output,6);o.length&&o.join(`
`)!==e.output.trim()&&i.push(`<div class="why">${o.map(r=>a(r)).join("<br>")}</div>`)}i.push(`<div class="lbl">Result${e.isError?" (error)":""}, as the model saw it</div>`);for(let o of e.result.content)i.push(o.type==="text"?T(o.text,"out"):ke(o));i.push(ve(e.result.details))}return i.push("</div>"),i.join("")}u(we,"callHtml");var W=140;function Te(e){let t=e.text.split(`
`).map(n=>n.replace(/^[#>*\-\s]+/,"").trim()).find(n=>n!=="");return t?t.length>W?`${t.slice(0,W-1)}\u2026`:t:e.errorMessage?`Model error: ${w(e.errorMessage).slice(0,W)}`:e.calls.length===0?"":`Called ${[...new Set(e.calls.map(n=>n.name))].join(", ")}`}u(Te,"narration");function Ee(e){let t=e.stopReason==="error"||e.stopReason==="aborted"||e.calls.some(c=>c.isError),s=[...new Set(e.calls.map(c=>c.name))],n=V(e.usage.costUsd),i=[a(e.model),a(e.stopReason),e.durationMs!==void 0?S(e.durationMs):"",`in ${y(e.usage.inputTokens)} \xB7 out ${y(e.usage.outputTokens)}`+(e.usage.cacheReadTokens||e.usage.cacheWriteTokens?` \xB7 cache r ${y(e.usage.cacheReadTokens)} w ${y(e.usage.cacheWriteTokens)}`:""),n??""].filter(Boolean),o=e.calls.map(c=>{let d=re(c);return`<span class="chip${c.isError?" e":""}">${c.isError?"\u2717 ":""}${a(c.name)}${d?` <span class="ca">${a(d)}</span>`:""}</span>`}).join(""),r=Te(e),l=r?`<span class="narr">${a(r)}</span>`:"",m=[];e.errorMessage&&m.push(`<div class="merr">Model error: ${a(e.errorMessage)}</div>`),e.thinking&&m.push(`<details><summary class="lbl">Reasoning</summary>${T(e.thinking)}</details>`),e.text&&m.push(`<div class="md">${C(e.text)}</div>`);for(let c of e.calls)m.push(we(c));return`<details class="turn${t?" failed":""}" id="turn-${e.index}" data-tools="${a(s.join(" "))}" data-ctx="${z(e.usage)}" data-out="${e.usage.outputTokens}"><summary><span class="n">Turn ${e.index}</span><span class="meta">${i.join(" \xB7 ")}</span><span class="chips">${o}</span>${l}</summary><div class="tb">${m.join("")}</div></details>`}u(Ee,"turnHtml");function Re(e){if(G(e))return Ce(e);let t=e.event==="error"||e.event==="cancel",s=typeof e.event=="string"?e.event:E(e.event);return`<div class="event${t?" e":""}" data-kind="${a(s)}"><span class="ek">${a(s)}</span>${a(se(e))}</div>`}u(Re,"eventHtml");var Se=".event.boundary{margin:14px 0;padding:6px 10px;border-left:0;border-top:2px dashed var(--warn);border-bottom:2px dashed var(--warn);color:inherit}";function Ce(e){let t=typeof e.runUrl=="string"&&/^https?:\/\//.test(e.runUrl)?e.runUrl:void 0,s=typeof e.sessionId=="string"?` (session ${a(e.sessionId)})`:"";return`<div class="event boundary" data-kind="continue" id="earlier-session-end"><span class="ek">continue</span>Above: ${t?A(t,"the earlier run"):"the earlier session"}${s}, ${typeof e.earlierMessages=="number"?e.earlierMessages:E(e.earlierMessages)} recorded messages. Below: this session, continuing it.</div>`}u(Ce,"boundaryHtml");function A(e,t){return`<a href="${a(e)}" rel="noopener noreferrer">${a(t)}</a>`}u(A,"link");var oe=5,B=4e5;function ie(e){let t=e.turns.slice(0,8).map(i=>`<a href="#turn-${i}">${i}</a>`);e.turns.length>8&&t.push("\u2026");let s=e.turns.length?`${e.turns.length>1?"turns":"turn"} ${t.join(", ")}`:a(e.source),n=e.count>1?` (${e.count} times)`:"";return`<li>${s}${e.tool?` \xB7 <code>${a(e.tool)}</code>`:""}${n}: ${a(e.message)}</li>`}u(ie,"errorItem");function Ae(e){let t=e.errors.filter(p=>!p.recovered),s=e.errors.length-t.length,n=s?`<div class="dim">${R(s,t.length?"other error":"error")} the run recovered from ${s>1?"are":"is"} marked on ${s>1?"their turns":"its turn"}.</div>`:"";if(t.length===0)return s?`<div class="box recovered">${n}</div>`:"";let i=new Map,o=new Map;for(let p of t){let g=p.message.trim(),b=o.get(g);if(b&&p.source!=="tool")continue;let f=p.tool??p.source;i.set(f,(i.get(f)??0)+1);let k=b??{tool:p.tool,source:p.source,message:p.message,turns:[],count:0};k.count++,p.turn!==void 0&&!k.turns.includes(p.turn)&&k.turns.push(p.turn),o.set(g,k)}let r=[...o.values()].reduce((p,g)=>p+g.count,0),l=[...i.entries()].sort((p,g)=>g[1]-p[1]).map(([p,g])=>`<code>${a(p)}</code> ${g}`).join(" \xB7 "),m=[...o.values()],c=m.slice(0,oe).map(ie).join(""),d=m.slice(oe),$=d.length?`<details class="more"><summary>${d.length} more</summary><ul>${d.map(ie).join("")}</ul></details>`:"";return`<div class="box errors" id="errors"><b>Errors (${r})</b> <span class="dim">${l}</span><ul>${c}</ul>${$}${n}</div>`}u(Ae,"errorsHtml");function Me(e){let t=ee(e);if(t.files.length===0&&!t.diff)return"";let s=t.files.reduce((c,d)=>c+d.added,0),n=t.files.reduce((c,d)=>c+d.removed,0),i=t.files.map(c=>`<li><code>${a(c.path)}</code> <span class="d-a">+${c.added}</span> <span class="d-r">\u2212${c.removed}</span></li>`).join(""),o=t.source==="tools"?'<div class="dim">As edited by the file tools during the run; commands may have changed more, and the commit is what counts.</div>':"",r=t.diff??t.files.flatMap(c=>c.diffs).join(`
`),l="";r.length>B&&(l=`<div class="dim">\u2026 ${r.length-B} more characters of the diff are in the transcript.</div>`,r=r.slice(0,B));let m=r.trim()?`<details class="whole-diff"><summary>${t.diff?"The whole diff":"The edits, file by file"}</summary>${j(r)}${l}</details>`:"";return`<div class="box changes" id="changes"><b>Changed files (${R(t.files.length,"file")}, +${s} \u2212${n})</b><ul>${i}</ul>${o}${m}</div>`}u(Me,"changesHtml");function Le(e){let t=ne(e);if(t.systemPrompt===void 0&&t.tools.length===0)return"";let s=[];if(t.systemPrompt!==void 0&&s.push(`<div class="lbl">System prompt</div>${T(t.systemPrompt)}`),t.tools.length){s.push(`<div class="lbl">Tool definitions (${t.tools.length})</div>`);for(let n of t.tools)s.push(`<details class="tooldef"><summary><code>${a(n.name)}</code> <span class="dim">${a(w(n.description).slice(0,140))}</span></summary>${T(n.description)}${n.parameters!==void 0?T(E(n.parameters,2)):""}</details>`)}return`<details class="box setup" id="setup"><summary><b>System prompt and tools</b> <span class="dim">what the model was given before the task</span></summary>${s.join("")}</details>`}u(Le,"setupHtml");var ae=300;function je(e){let t=e.conclusion??"incomplete",s=be.has(t)?"o-ok":xe.has(t)||!e.complete?"o-bad":"o-other",n=Object.values(e.tools).reduce((b,f)=>b+f.calls,0),i=Object.values(e.tools).reduce((b,f)=>b+f.errors,0),o=e.totals,r=[[e.models.length>1?"Models":"Model",e.models.map(b=>`<code>${a(b)}</code>`).join(", ")||"(none)"]];e.repository&&r.push(["Repository",a(e.repository)]),e.trigger&&r.push(["Trigger",a(e.trigger)]),e.startedAt!==void 0&&r.push(["Started",a(new Date(e.startedAt).toISOString())]),r.push(["Duration",S(e.durationMs)]),r.push(["Turns",String(e.turns.length)]),r.push(["Tool calls",`${n} (${R(i,"error")})`]),r.push(["Tokens",`input ${y(o.inputTokens)} \xB7 output ${y(o.outputTokens)} \xB7 cache read ${y(o.cacheReadTokens)} \xB7 cache write ${y(o.cacheWriteTokens)}`]);let l=V(o.costUsd);r.push(["Cost",l?`${l} (estimated)`:"unknown (no price for this model)"]);let m=e.summary??{};typeof m.branch=="string"&&r.push(["Branch",`<code>${a(m.branch)}</code>`]),typeof m.commitSha=="string"&&r.push(["Commit",`<code>${a(m.commitSha)}</code>`]);let c=te(e),d=e.session&&typeof e.session.number=="number"?e.session.number:void 0;c.issue&&r.push(["Issue or PR",A(c.issue,`#${d??""}`)]),c.pullRequest&&r.push(["Pull request",A(c.pullRequest,c.pullRequest)]),c.run&&r.push(["Workflow run",A(c.run,c.run)]),c.comment&&r.push(["Summary comment",A(c.comment,c.comment)]),c.earlierRun&&r.push(["Continues",A(c.earlierRun,"the earlier run")]);let $=e.task?w(e.task):"",p=$?`<p class="task" id="task"><span class="lbl">Task</span> ${a($.length>ae?`${$.slice(0,ae-1)}\u2026`:$)}</p>`:"",g=[`<h1>patchloop run <span class="badge ${s}">${a(t)}</span></h1>`,p,`<dl class="facts">${r.map(([b,f])=>`<dt>${b}</dt><dd>${f}</dd>`).join("")}</dl>`];return g.push(Me(e),Ae(e)),e.warnings.length&&g.push(`<div class="box warnings"><b>About this transcript</b><ul>${e.warnings.map(b=>`<li>${a(b)}</li>`).join("")}</ul></div>`),g.join("")}u(je,"headerHtml");function _e(e){return`<div class="controls"><label>Show <select id="f-kind"><option value="all">all turns</option><option value="errors">only errors</option></select></label><label>Tool <select id="f-tool"><option value="">any tool</option>${Object.keys(e.tools).sort().map(s=>`<option value="${a(s)}">${a(s)} (${e.tools[s].calls})</option>`).join("")}</select></label><label>Find <input type="search" id="f-text" placeholder="text in the run" size="22"></label><span class="hits"><button type="button" id="f-prev" title="Previous match" aria-label="Previous match">\u2191</button><button type="button" id="f-next" title="Next match" aria-label="Next match">\u2193</button><span id="f-hit" class="dim"></span></span><button type="button" id="expand">Expand all</button><button type="button" id="collapse">Collapse all</button><span id="f-count" class="dim"></span></div>`}u(_e,"controlsHtml");function ot(e,t={}){let s=`patchloop run ${e.id??""} \u2014 ${e.conclusion??"incomplete"}${e.task?` \u2014 ${w(e.task).slice(0,80)}`:""}`,i=`default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-${ge("sha256").update(D).digest("base64")}'; base-uri 'none'; form-action 'none'`,o=[je(e)];e.turns.some(d=>z(d.usage)+d.usage.outputTokens>0)&&o.push(`<h2>Tokens per turn</h2>${J(e.turns.map(d=>d.usage))}<div class="legend"><i class="c-ctx" style="background:var(--ctx)"></i>context read (input + cache)<i style="background:var(--out)"></i>output <span id="chart-tip"></span></div>`);let l=e.turns[e.turns.length-1];l&&l.calls.length===0&&l.text&&o.push(`<h2>Final message</h2><div class="md box">${C(l.text)}</div>`),o.push(Le(e)),o.push("<h2>Timeline</h2>",_e(e));for(let d of e.timeline)d.kind==="turn"?o.push(Ee(d.turn)):d.kind==="event"?o.push(Re(d.event)):d.kind==="task"?o.push(`<details class="user" open><summary class="lbl">Task</summary><div class="md">${C(d.text)}</div></details>`):o.push(`<div class="user"><div class="lbl">User</div><div class="md">${C(d.text)}</div></div>`);let m=t.generatedAt?` on ${a(t.generatedAt.toISOString())}`:"";o.push(`<footer>Exported by patchloop${t.source?` from ${a(t.source)}`:""}${m}.</footer>`);let c=["<!doctype html>",'<html lang="en"><head><meta charset="utf-8">',`<meta http-equiv="Content-Security-Policy" content="${i}">`,'<meta name="viewport" content="width=device-width,initial-scale=1">','<meta name="referrer" content="no-referrer">',`<title>${a(s)}</title>`,`<style>${Y}${Se}</style></head>`,`<body><div class="wrap">${o.join(`
`)}</div>`,`<script>${D}</script>`,"</body></html>",""].join(`
`);return t.redact?t.redact(c):c}u(ot,"renderHtml");export{ot as a};
