import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as F,b as W,c as X,d as G,e as K,g as J,j as N}from"./chunk-RMAB5O5E.js";import{f as O,h as b,i as I,k as M,n as T,o as E,p as B}from"./chunk-GB6UQMVG.js";import{b as j}from"./chunk-IUQPCJRX.js";import{a as d}from"./chunk-4X7ZATFQ.js";import{createHash as pe}from"node:crypto";function v(e){return String(Math.round(e*10)/10)}d(v,"r");function Q(e,t={}){let r=t.width??800,s=t.height??140,l=14,n=s-l-16,p=e.length;if(p===0)return"";let m=e.map(c=>c.inputTokens+c.cacheReadTokens+c.cacheWriteTokens),f=e.map(c=>c.outputTokens),o=Math.max(1,...m.map((c,x)=>c+f[x])),u=r/p,g=Math.max(.5,u*.8),h="",$="";for(let c=0;c<p;c++){let x=c*u+(u-g)/2,y=m[c]/o*n,S=f[c]/o*n,w=l+n;y>0&&(h+=`M${v(x)} ${v(w-y)}h${v(g)}v${v(y)}h${v(-g)}z`),S>0&&($+=`M${v(x)} ${v(w-y-S)}h${v(g)}v${v(S)}h${v(-g)}z`)}return[`<svg class="chart" viewBox="0 0 ${r} ${s}" role="img" data-turns="${p}">`,"<title>Tokens per turn: context read (input and cache) and output written</title>",`<line x1="0" y1="${l+n}" x2="${r}" y2="${l+n}" class="axis"/>`,`<path class="c-ctx" d="${h}"/>`,`<path class="c-out" d="${$}"/>`,`<rect class="c-hover" x="0" y="${l}" width="${v(u)}" height="${n}" visibility="hidden"/>`,`<text x="2" y="10" class="c-label">${b(o)} tokens</text>`,`<text x="2" y="${s-3}" class="c-label">turn 1</text>`,`<text x="${r-2}" y="${s-3}" class="c-label" text-anchor="end">turn ${p}</text>`,"</svg>"].join("")}d(Q,"tokensChartSvg");var oe={"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"};function i(e){return e.replace(/[&<>"']/g,t=>oe[t])}d(i,"escapeHtml");function Y(e){return/^@@ .* @@/m.test(e)||/^--- /m.test(e)&&/^\+\+\+ /m.test(e)}d(Y,"looksLikeDiff");function ie(e){if(e.startsWith("+++")||e.startsWith("---"))return"d-file";if(e.startsWith("@@"))return"d-hunk";if(e.startsWith("+"))return"d-add";if(e.startsWith("-"))return"d-del";if(e.startsWith("\\"))return"d-meta"}d(ie,"lineClass");function A(e){return`<pre class="diff">${e.replace(/\n$/,"").split(`
`).map(s=>{let l=ie(s),a=i(s);return l?`<span class="${l}">${a}</span>`:a}).join(`
`)}</pre>`}d(A,"renderDiffHtml");var Z=`
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
})();`;var z="\uE000",ae=4e3,le=4;function V(e){if(e.length>ae)return i(e);let t=[],r=d(l=>`${z}${t.push(l)-1}${z}`,"hold"),s=e.replace(/\uE000/g,"\uFFFD");s=s.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g,(l,a,n)=>r(`<code>${i(n.replace(/^ (.*) $/s,"$1"))}</code>`)),s=i(s),s=s.replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s()\uE000]+)\)/g,(l,a,n)=>r(`<a href="${n}" rel="noopener noreferrer nofollow" target="_blank">${ee(a)}</a>`)),s=ee(s);for(let l=0;l<3&&s.includes(z);l++)s=s.replace(/\uE000(\d+)\uE000/g,(a,n)=>t[Number(n)]??"");return s}d(V,"inline");function ee(e){return e.replace(/\*\*(?=\S)([^*\n]*?\S)\*\*/g,"<strong>$1</strong>").replace(/(^|[^\w])__(?=\S)([^_\n]*?\S)__(?!\w)/g,"$1<strong>$2</strong>").replace(/(^|[^*\w])\*(?=[^\s*])([^*\n]*?[^\s*])?\*(?![*\w])/g,(t,r,s)=>s===void 0?t:`${r}<em>${s}</em>`).replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g,"$1<em>$2</em>")}d(ee,"emphasis");var ce=/^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/,de=/^ {0,3}(#{1,6})\s+(.*)$/,L=/^\s*[-*+]\s+(.*)$/,_=/^\s*(\d{1,9})[.)]\s+(.*)$/,P=/^ {0,3}>\s?(.*)$/;function C(e,t=0){let r=e.replace(/\r\n?/g,`
`).split(`
`),s=[],l=[],a=d(()=>{l.length&&s.push(`<p>${l.map(V).join("<br>")}</p>`),l=[]},"flush"),n=0;for(;n<r.length;){let p=r[n],m=ce.exec(p);if(m){a();let o=m[1],u=[];for(n++;n<r.length&&!new RegExp(`^ {0,3}${o[0]==="`"?"`":"~"}{${o.length},}\\s*$`).test(r[n]);)u.push(r[n]),n++;n++;let g=m[2]?` data-lang="${i(m[2])}"`:"";s.push(`<pre class="md-code"${g}><code>${i(u.join(`
`))}</code></pre>`);continue}let f=p.length<=300?de.exec(p):null;if(f){a();let o=Math.min(6,f[1].length+2);s.push(`<h${o}>${V(f[2].replace(/\s+#+\s*$/,""))}</h${o}>`),n++;continue}if(L.test(p)||_.test(p)){a();let o=!L.test(p),u=o?_:L,g=o?_.exec(p)[1]:"",h=[];for(;n<r.length&&u.test(r[n]);){let c=u.exec(r[n]),x=[o?c[2]:c[1]];for(n++;n<r.length&&/^\s{2,}\S/.test(r[n])&&!L.test(r[n])&&!_.test(r[n]);)x.push(r[n].trim()),n++;h.push(`<li>${x.map(V).join("<br>")}</li>`)}let $=o&&g!=="1"?` start="${Number(g)}"`:"";s.push(o?`<ol${$}>${h.join("")}</ol>`:`<ul>${h.join("")}</ul>`);continue}if(t<le&&P.test(p)){a();let o=[];for(;n<r.length&&P.test(r[n]);)o.push(P.exec(r[n])[1]),n++;s.push(`<blockquote>${C(o.join(`
`),t+1)}</blockquote>`);continue}p.trim()===""?a():l.push(p.trim()),n++}return a(),s.join(`
`)}d(C,"renderMarkdown");var H=64e3,ue=new Set(["image/png","image/jpeg","image/gif","image/webp"]),me=new Set(["success","no-changes"]),he=new Set(["failure","budget-exceeded","cancelled","unauthorized"]);function k(e,t=""){let r=e.length>H?e.slice(0,H):e,s=e.length>H?`
\u2026 ${e.length-H} more characters not shown here (the transcript has them)`:"";return`<pre${t?` class="${t}"`:""}>${i(r)}${i(s)}</pre>`}d(k,"pre");function fe(e){return!ue.has(e.mimeType)||!/^[A-Za-z0-9+/]*={0,2}$/.test(e.data)?`<div class="dim">[image of type ${i(e.mimeType)} not shown]</div>`:`<img class="shot" alt="image returned by the tool" src="data:${e.mimeType};base64,${e.data}">`}d(fe,"image");function ge(e){if(typeof e=="string")return`<div class="lbl">Arguments (not valid JSON, as the model sent them)</div>${k(e)}`;let t=Object.entries(e).map(([r,s])=>{if(typeof s=="string"&&!s.includes(`
`)&&s.length<=120)return`<div class="kv"><span class="k">${i(r)}</span><code>${i(s)}</code></div>`;let l=typeof s=="string"?s:T(s,2);return`<div class="kv"><span class="k">${i(r)}</span>${k(l)}</div>`});return t.length?t.join(""):'<div class="kv dim">(no arguments)</div>'}d(ge,"argsHtml");function xe(e){if(e==null)return"";let t="";if(typeof e=="string")t=Y(e)?A(e):k(e);else if(typeof e=="object"&&!Array.isArray(e)){let{diff:s,patch:l,...a}=e,n=typeof s=="string"?s:typeof l=="string"?l:void 0;n!==void 0&&(t+=A(n));let p=n===void 0?e:a;Object.keys(p).length>0&&(t+=k(T(p,2)))}else t=k(T(e,2));return`<details class="det"${t.includes('class="diff"')?" open":""}><summary class="lbl">Details (not sent to the model)</summary>${t}</details>`}d(xe,"detailsHtml");function $e(e){let t=e.result?e.isError?" e":"":" u",r=e.result?e.isError?"\u2717":"\u2713":"?",s=e.durationMs!==void 0?` \xB7 ${j(e.durationMs)}`:"",l=[`<div class="call${t}" data-tool="${i(e.name)}" data-error="${e.isError?1:0}">`,`<div class="ch"><span class="mk">${r}</span> <b>${i(e.name)}</b> <span class="dim">${i(e.id)}${s}</span></div>`,ge(e.input)];if(!e.result)l.push('<div class="lbl">No result recorded (the run ended before it).</div>');else{if(e.isError){let a=B(e.output,6);a.length&&a.join(`
`)!==e.output.trim()&&l.push(`<div class="why">${a.map(n=>i(n)).join("<br>")}</div>`)}l.push(`<div class="lbl">Result${e.isError?" (error)":""}, as the model saw it</div>`);for(let a of e.result.content)l.push(a.type==="text"?k(a.text,"out"):fe(a));l.push(xe(e.result.details))}return l.push("</div>"),l.join("")}d($e,"callHtml");var U=140;function be(e){let t=e.text.split(`
`).map(s=>s.replace(/^[#>*\-\s]+/,"").trim()).find(s=>s!=="");return t?t.length>U?`${t.slice(0,U-1)}\u2026`:t:e.errorMessage?`Model error: ${M(e.errorMessage).slice(0,U)}`:e.calls.length===0?"":`Called ${[...new Set(e.calls.map(s=>s.name))].join(", ")}`}d(be,"narration");function ve(e){let t=e.stopReason==="error"||e.stopReason==="aborted"||e.calls.some(u=>u.isError),r=[...new Set(e.calls.map(u=>u.name))],s=I(e.usage.costUsd),l=[i(e.model),i(e.stopReason),e.durationMs!==void 0?j(e.durationMs):"",`in ${b(e.usage.inputTokens)} \xB7 out ${b(e.usage.outputTokens)}`+(e.usage.cacheReadTokens||e.usage.cacheWriteTokens?` \xB7 cache r ${b(e.usage.cacheReadTokens)} w ${b(e.usage.cacheWriteTokens)}`:""),s??""].filter(Boolean),a=e.calls.map(u=>{let g=K(u);return`<span class="chip${u.isError?" e":""}">${u.isError?"\u2717 ":""}${i(u.name)}${g?` <span class="ca">${i(g)}</span>`:""}</span>`}).join(""),n=be(e),p=n?`<span class="narr">${i(n)}</span>`:"",m=[];e.errorMessage&&m.push(`<div class="merr">Model error: ${i(e.errorMessage)}</div>`),e.thinking&&m.push(`<details><summary class="lbl">Reasoning</summary>${k(e.thinking)}</details>`),e.text&&m.push(`<div class="md">${C(e.text)}</div>`);for(let u of e.calls)m.push($e(u));let f=e.earlier?`earlier-turn-${e.index}`:`turn-${e.index}`,o=e.earlier?`Earlier turn ${e.index}`:`Turn ${e.index}`;return`<details class="turn${t?" failed":""}${e.earlier?" earlier":""}" id="${f}" data-tools="${i(r.join(" "))}" data-ctx="${N(e.usage)}" data-out="${e.usage.outputTokens}"><summary><span class="n">${o}</span><span class="meta">${l.join(" \xB7 ")}</span><span class="chips">${a}</span>${p}</summary><div class="tb">${m.join("")}</div></details>`}d(ve,"turnHtml");function ke(e){if(O(e))return we(e);let t=e.event==="error"||e.event==="cancel",r=typeof e.event=="string"?e.event:T(e.event);return`<div class="event${t?" e":""}" data-kind="${i(r)}"><span class="ek">${i(r)}</span>${i(G(e))}</div>`}d(ke,"eventHtml");var ye=".event.boundary{margin:14px 0;padding:6px 10px;border-left:0;border-top:2px dashed var(--warn);border-bottom:2px dashed var(--warn);color:inherit}";function we(e){let t=typeof e.runUrl=="string"&&/^https?:\/\//.test(e.runUrl)?e.runUrl:void 0,r=typeof e.sessionId=="string"?` (session ${i(e.sessionId)})`:"";return`<div class="event boundary" data-kind="continue" id="earlier-session-end"><span class="ek">continue</span>Above: ${t?R(t,"the earlier run"):"the earlier session"}${r}, ${typeof e.earlierMessages=="number"?e.earlierMessages:T(e.earlierMessages)} recorded messages. Below: this session, continuing it.</div>`}d(we,"boundaryHtml");function R(e,t){return`<a href="${i(e)}" rel="noopener noreferrer">${i(t)}</a>`}d(R,"link");var te=5,q=4e5,Te=60;function ne(e){let t=e.turns.slice(0,8).map(l=>`<a href="#turn-${l}">${l}</a>`);e.turns.length>8&&t.push("\u2026");let r=e.turns.length?`${e.turns.length>1?"turns":"turn"} ${t.join(", ")}`:i(e.source),s=e.count>1?` (${e.count} times)`:"";return`<li>${r}${e.tool?` \xB7 <code>${i(e.tool)}</code>`:""}${s}: ${i(e.message)}</li>`}d(ne,"errorItem");function Ee(e){let t=e.errors.filter(c=>!c.earlier),r=e.errors.length-t.length,s=t.filter(c=>!c.recovered),l=t.length-s.length,a=[];l&&a.push(`${E(l,s.length?"other error":"error")} the run recovered from ${l>1?"are":"is"} marked on ${l>1?"their turns":"its turn"}.`),r&&a.push(`${E(r,"error")} of the earlier session ${r>1?"are":"is"} marked on its turns.`);let n=a.map(c=>`<div class="dim">${c}</div>`).join("");if(s.length===0)return a.length?`<div class="box recovered">${n}</div>`:"";let p=new Map,m=new Map;for(let c of s){let x=c.message.trim(),y=m.get(x);if(y&&c.source!=="tool")continue;let S=c.tool??c.source;p.set(S,(p.get(S)??0)+1);let w=y??{tool:c.tool,source:c.source,message:c.message,turns:[],count:0};w.count++,c.turn!==void 0&&!w.turns.includes(c.turn)&&w.turns.push(c.turn),m.set(x,w)}let f=[...m.values()].reduce((c,x)=>c+x.count,0),o=[...p.entries()].sort((c,x)=>x[1]-c[1]).map(([c,x])=>`<code>${i(c)}</code> ${x}`).join(" \xB7 "),u=[...m.values()],g=u.slice(0,te).map(ne).join(""),h=u.slice(te),$=h.length?`<details class="more"><summary>${h.length} more</summary><ul>${h.map(ne).join("")}</ul></details>`:"";return`<div class="box errors" id="errors"><b>Errors (${f})</b> <span class="dim">${o}</span><ul>${g}</ul>${$}${n}</div>`}d(Ee,"errorsHtml");function Se(e){let t=F(e);if(t.files.length===0&&!t.diff)return"";let r=t.files.reduce((o,u)=>o+u.added,0),s=t.files.reduce((o,u)=>o+u.removed,0),l=t.files.map(o=>`<li><code>${i(o.path)}</code> <span class="d-a">+${o.added}</span> <span class="d-r">\u2212${o.removed}</span></li>`).join(""),a=t.source==="tools"?'<div class="dim">As edited by the file tools during the run; commands may have changed more, and the commit is what counts.</div>':"",n=t.diff??t.files.flatMap(o=>o.diffs).join(`
`),p="";n.length>q&&(p=`<div class="dim">\u2026 ${n.length-q} more characters of the diff are in the transcript.</div>`,n=n.slice(0,q));let m=n.split(`
`).length<=Te?" open":"",f=n.trim()?`<details class="whole-diff"${m}><summary>${t.diff?"The whole diff":"The edits, file by file"}</summary>${A(n)}${p}</details>`:"";return`<div class="box changes" id="changes"><b>Changed files (${E(t.files.length,"file")}, +${r} \u2212${s})</b><ul>${l}</ul>${a}${f}</div>`}d(Se,"changesHtml");function Me(e){let t=X(e);if(t.systemPrompt===void 0&&t.tools.length===0)return"";let r=[];if(t.systemPrompt!==void 0&&r.push(`<div class="lbl">System prompt</div>${k(t.systemPrompt)}`),t.tools.length){r.push(`<div class="lbl">Tool definitions (${t.tools.length})</div>`);for(let s of t.tools)r.push(`<details class="tooldef"><summary><code>${i(s.name)}</code> <span class="dim">${i(M(s.description).slice(0,140))}</span></summary>${k(s.description)}${s.parameters!==void 0?k(T(s.parameters,2)):""}</details>`)}return`<details class="box setup" id="setup"><summary><b>System prompt and tools</b> <span class="dim">what the model was given before the task</span></summary>${r.join("")}</details>`}d(Me,"setupHtml");var Ce=300;function Re(e){let t=e.conclusion??"incomplete",r=me.has(t)?"o-ok":he.has(t)||!e.complete?"o-bad":"o-other",s=Object.values(e.tools).reduce((h,$)=>h+$.calls,0),l=Object.values(e.tools).reduce((h,$)=>h+$.errors,0),a=e.totals,n=[[e.models.length>1?"Models":"Model",e.models.map(h=>`<code>${i(h)}</code>`).join(", ")||"(none)"]];e.repository&&n.push(["Repository",i(e.repository)]),e.trigger&&n.push(["Trigger",i(e.trigger)]),e.startedAt!==void 0&&n.push(["Started",i(new Date(e.startedAt).toISOString())]),n.push(["Duration",j(e.durationMs)]);let p=e.turns.filter(h=>!h.earlier).length;n.push(["Turns",e.earlierTurns!==void 0?`${p} (and ${e.earlierTurns} of the earlier session)`:String(p)]),n.push(["Tool calls",`${s} (${E(l,"error")})`]),n.push(["Tokens",`input ${b(a.inputTokens)} \xB7 output ${b(a.outputTokens)} \xB7 cache read ${b(a.cacheReadTokens)} \xB7 cache write ${b(a.cacheWriteTokens)}`]);let m=I(a.costUsd);n.push(["Cost",m?`${m} (estimated)`:"unknown (no price for this model)"]);let f=e.summary??{};typeof f.branch=="string"&&n.push(["Branch",`<code>${i(f.branch)}</code>`]),typeof f.commitSha=="string"&&n.push(["Commit",`<code>${i(f.commitSha)}</code>`]);let o=W(e),u=e.session&&typeof e.session.number=="number"?e.session.number:void 0;o.issue&&n.push(["Issue or PR",R(o.issue,`#${u??""}`)]),o.pullRequest&&n.push(["Pull request",R(o.pullRequest,o.pullRequest)]),o.run&&n.push(["Workflow run",R(o.run,o.run)]),o.comment&&n.push(["Summary comment",R(o.comment,o.comment)]),o.earlierRun&&n.push(["Continues",R(o.earlierRun,"the earlier run")]);let g=[`<h1>patchloop run <span class="badge ${r}">${i(t)}</span></h1>`,je(e),Ae(e),Se(e),Ee(e)];return e.warnings.length&&g.push(`<div class="box warnings"><b>About this transcript</b><ul>${e.warnings.map(h=>`<li>${i(h)}</li>`).join("")}</ul></div>`),g.push(`<dl class="facts">${n.map(([h,$])=>`<dt>${h}</dt><dd>${$}</dd>`).join("")}</dl>`),g.join("")}d(Re,"headerHtml");var se=d((e,t)=>e.length>t?`${e.slice(0,t-1)}\u2026`:e,"cutTo");function re(e){let t=J(e);return t?`${t.from}: ${M(t.text)}`:M(e)}d(re,"asked");function je(e){let t=e.earlierTurns!==void 0,r=[];if(e.task&&r.push(`<p class="task" id="task"><span class="lbl">${t?"Follow-up":"Task"}</span> ${i(se(re(e.task),Ce))}</p>`),t){let s=e.earlierTask?` that began with \u201C${i(se(re(e.earlierTask),160))}\u201D`:"";r.push(`<p class="dim" id="continues">Continues an earlier session of ${E(e.earlierTurns??0,"turn")}${s} (<a href="#earlier-session">shown below</a>). Turns are numbered within each session, as the live timeline numbered them.</p>`)}return r.join("")}d(je,"requestHtml");function Ae(e){let t=e.turns[e.turns.length-1];return!t||t.earlier||t.calls.length>0||!t.text?"":`<div class="box final" id="final"><b>Final message</b><div class="md">${C(t.text)}</div></div>`}d(Ae,"finalHtml");function Le(e){return`<div class="controls"><label>Show <select id="f-kind"><option value="all">all turns</option><option value="errors">only errors</option></select></label><label>Tool <select id="f-tool"><option value="">any tool</option>${Object.keys(e.tools).sort().map(r=>`<option value="${i(r)}">${i(r)} (${e.tools[r].calls})</option>`).join("")}</select></label><label>Find <input type="search" id="f-text" placeholder="text in the run" size="22"></label><span class="hits"><button type="button" id="f-prev" title="Previous match" aria-label="Previous match">\u2191</button><button type="button" id="f-next" title="Next match" aria-label="Next match">\u2193</button><span id="f-hit" class="dim"></span></span><button type="button" id="expand">Expand all</button><button type="button" id="collapse">Collapse all</button><span id="f-count" class="dim"></span></div>`}d(Le,"controlsHtml");function nt(e,t={}){let r=`patchloop run ${e.id??""} \u2014 ${e.conclusion??"incomplete"}${e.task?` \u2014 ${M(e.task).slice(0,80)}`:""}`,l=`default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-${pe("sha256").update(D).digest("base64")}'; base-uri 'none'; form-action 'none'`,a=[Re(e)],n=e.turns.filter(o=>!o.earlier);n.some(o=>N(o.usage)+o.usage.outputTokens>0)&&a.push(`<h2>Tokens per turn</h2>${Q(n.map(o=>o.usage))}<div class="legend"><i class="c-ctx" style="background:var(--ctx)"></i>context read (input + cache)<i style="background:var(--out)"></i>output <span id="chart-tip"></span></div>`),a.push(Me(e)),a.push("<h2>Timeline</h2>",Le(e));let p=e.earlierTurns!==void 0;p&&a.push(`<details class="earlier-session" id="earlier-session"><summary><b>Earlier session</b> <span class="dim">${E(e.earlierTurns??0,"turn")}, before this follow-up</span></summary>`);for(let o of e.timeline)p&&o.kind==="event"&&O(o.event)&&(a.push("</details>"),p=!1),o.kind==="turn"?a.push(ve(o.turn)):o.kind==="event"?a.push(ke(o.event)):o.kind==="task"?a.push(`<details class="user"${o.earlier?"":" open"}><summary class="lbl">${o.earlier?"Earlier task":e.earlierTurns!==void 0?"Follow-up":"Task"}</summary><div class="md">${C(o.text)}</div></details>`):a.push(`<div class="user"><div class="lbl">User</div><div class="md">${C(o.text)}</div></div>`);p&&a.push("</details>");let m=t.generatedAt?` on ${i(t.generatedAt.toISOString())}`:"";a.push(`<footer>Exported by patchloop${t.source?` from ${i(t.source)}`:""}${m}.</footer>`);let f=["<!doctype html>",'<html lang="en"><head><meta charset="utf-8">',`<meta http-equiv="Content-Security-Policy" content="${l}">`,'<meta name="viewport" content="width=device-width,initial-scale=1">','<meta name="referrer" content="no-referrer">',`<title>${i(r)}</title>`,`<style>${Z}${ye}</style></head>`,`<body><div class="wrap">${a.join(`
`)}</div>`,`<script>${D}</script>`,"</body></html>",""].join(`
`);return t.redact?t.redact(f):f}d(nt,"renderHtml");export{nt as a};
