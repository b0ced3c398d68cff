import { createRequire as __plCreateRequire } from 'node:module';
import { fileURLToPath as __plFileURLToPath } from 'node:url';
import { dirname as __plDirname } from 'node:path';
const require = __plCreateRequire(import.meta.url);
const __filename = __plFileURLToPath(import.meta.url);
const __dirname = __plDirname(__filename);
import{a as U}from"./chunk-YVMVOLE2.js";import{d as m,e as A,f as T,h as O,k as y,l as I}from"./chunk-UKG3WI52.js";import{a as p}from"./chunk-55G3MQVF.js";import{createHash as K}from"node:crypto";function x(t){return String(Math.round(t*10)/10)}p(x,"r");function P(t,s={}){let o=s.width??800,n=s.height??140,i=14,e=n-i-16,l=t.length;if(l===0)return"";let d=t.map(f=>f.inputTokens+f.cacheReadTokens+f.cacheWriteTokens),g=t.map(f=>f.outputTokens),c=Math.max(1,...d.map((f,$)=>f+g[$])),u=o/l,h=Math.max(.5,u*.8),v="",w="";for(let f=0;f<l;f++){let $=f*u+(u-h)/2,E=d[f]/c*e,R=g[f]/c*e,D=i+e;E>0&&(v+=`M${x($)} ${x(D-E)}h${x(h)}v${x(E)}h${x(-h)}z`),R>0&&(w+=`M${x($)} ${x(D-E-R)}h${x(h)}v${x(R)}h${x(-h)}z`)}return[`<svg class="chart" viewBox="0 0 ${o} ${n}" role="img" data-turns="${l}">`,"<title>Tokens per turn: context read (input and cache) and output written</title>",`<line x1="0" y1="${i+e}" x2="${o}" y2="${i+e}" class="axis"/>`,`<path class="c-ctx" d="${v}"/>`,`<path class="c-out" d="${w}"/>`,`<rect class="c-hover" x="0" y="${i}" width="${x(u)}" height="${e}" visibility="hidden"/>`,`<text x="2" y="10" class="c-label">${m(c)} tokens</text>`,`<text x="2" y="${n-3}" class="c-label">turn 1</text>`,`<text x="${o-2}" y="${n-3}" class="c-label" text-anchor="end">turn ${l}</text>`,"</svg>"].join("")}p(P,"tokensChartSvg");var W={"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"};function r(t){return t.replace(/[&<>"']/g,s=>W[s])}p(r,"escapeHtml");function V(t){return/^@@ .* @@/m.test(t)||/^--- /m.test(t)&&/^\+\+\+ /m.test(t)}p(V,"looksLikeDiff");function q(t){if(t.startsWith("+++")||t.startsWith("---"))return"d-file";if(t.startsWith("@@"))return"d-hunk";if(t.startsWith("+"))return"d-add";if(t.startsWith("-"))return"d-del";if(t.startsWith("\\"))return"d-meta"}p(q,"lineClass");function C(t){return`<pre class="diff">${t.replace(/\n$/,"").split(`
`).map(n=>{let i=q(n),a=r(n);return i?`<span class="${i}">${a}</span>`:a}).join(`
`)}</pre>`}p(C,"renderDiffHtml");var N=`
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
`,_=`(() => {
  const $ = (s, el = document) => el.querySelector(s);
  const $$ = (s, el = document) => Array.from(el.querySelectorAll(s));
  const kind = $('#f-kind');
  const tool = $('#f-tool');
  const count = $('#f-count');
  const turns = $$('details.turn');
  function apply() {
    const onlyErrors = kind.value === 'errors';
    const name = tool.value;
    const filtering = onlyErrors || name !== '';
    let shown = 0;
    for (const turn of turns) {
      let match = false;
      for (const call of $$('.call', turn)) {
        const ok = (!onlyErrors || call.dataset.error === '1') && (name === '' || call.dataset.tool === name);
        call.hidden = filtering && !ok;
        if (ok) match = true;
      }
      if (onlyErrors && name === '' && turn.classList.contains('failed')) match = true;
      const show = !filtering || match;
      turn.hidden = !show;
      if (show) {
        shown++;
        if (filtering) turn.open = true;
      }
    }
    for (const ev of $$('.event')) ev.hidden = filtering && !(onlyErrors && name === '' && ev.classList.contains('e'));
    for (const u of $$('.user')) u.hidden = filtering;
    count.textContent = filtering ? shown + ' of ' + turns.length + ' turns' : turns.length + ' turns';
  }
  kind.addEventListener('change', apply);
  tool.addEventListener('change', apply);
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
})();`;var H="\uE000",G=4e3,F=4;function L(t){if(t.length>G)return r(t);let s=[],o=p(i=>`${H}${s.push(i)-1}${H}`,"hold"),n=t.replace(/\uE000/g,"\uFFFD");n=n.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g,(i,a,e)=>o(`<code>${r(e.replace(/^ (.*) $/s,"$1"))}</code>`)),n=r(n),n=n.replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s()\uE000]+)\)/g,(i,a,e)=>o(`<a href="${e}" rel="noopener noreferrer nofollow" target="_blank">${B(a)}</a>`)),n=B(n);for(let i=0;i<3&&n.includes(H);i++)n=n.replace(/\uE000(\d+)\uE000/g,(a,e)=>s[Number(e)]??"");return n}p(L,"inline");function B(t){return t.replace(/\*\*(?=\S)([^*\n]*?\S)\*\*/g,"<strong>$1</strong>").replace(/(^|[^\w])__(?=\S)([^_\n]*?\S)__(?!\w)/g,"$1<strong>$2</strong>").replace(/(^|[^*\w])\*(?=[^\s*])([^*\n]*?[^\s*])?\*(?![*\w])/g,(s,o,n)=>n===void 0?s:`${o}<em>${n}</em>`).replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g,"$1<em>$2</em>")}p(B,"emphasis");var X=/^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/,J=/^ {0,3}(#{1,6})\s+(.*)$/,S=/^\s*[-*+]\s+(.*)$/,j=/^\s*(\d{1,9})[.)]\s+(.*)$/,z=/^ {0,3}>\s?(.*)$/;function k(t,s=0){let o=t.replace(/\r\n?/g,`
`).split(`
`),n=[],i=[],a=p(()=>{i.length&&n.push(`<p>${i.map(L).join("<br>")}</p>`),i=[]},"flush"),e=0;for(;e<o.length;){let l=o[e],d=X.exec(l);if(d){a();let c=d[1],u=[];for(e++;e<o.length&&!new RegExp(`^ {0,3}${c[0]==="`"?"`":"~"}{${c.length},}\\s*$`).test(o[e]);)u.push(o[e]),e++;e++;let h=d[2]?` data-lang="${r(d[2])}"`:"";n.push(`<pre class="md-code"${h}><code>${r(u.join(`
`))}</code></pre>`);continue}let g=l.length<=300?J.exec(l):null;if(g){a();let c=Math.min(6,g[1].length+2);n.push(`<h${c}>${L(g[2].replace(/\s+#+\s*$/,""))}</h${c}>`),e++;continue}if(S.test(l)||j.test(l)){a();let c=!S.test(l),u=c?j:S,h=c?j.exec(l)[1]:"",v=[];for(;e<o.length&&u.test(o[e]);){let f=u.exec(o[e]),$=[c?f[2]:f[1]];for(e++;e<o.length&&/^\s{2,}\S/.test(o[e])&&!S.test(o[e])&&!j.test(o[e]);)$.push(o[e].trim()),e++;v.push(`<li>${$.map(L).join("<br>")}</li>`)}let w=c&&h!=="1"?` start="${Number(h)}"`:"";n.push(c?`<ol${w}>${v.join("")}</ol>`:`<ul>${v.join("")}</ul>`);continue}if(s<F&&z.test(l)){a();let c=[];for(;e<o.length&&z.test(o[e]);)c.push(z.exec(o[e])[1]),e++;n.push(`<blockquote>${k(c.join(`
`),s+1)}</blockquote>`);continue}l.trim()===""?a():i.push(l.trim()),e++}return a(),n.join(`
`)}p(k,"renderMarkdown");var M=64e3,Q=new Set(["image/png","image/jpeg","image/gif","image/webp"]),Y=new Set(["success","no-changes"]),Z=new Set(["failure","budget-exceeded","cancelled","unauthorized"]);function b(t,s=""){let o=t.length>M?t.slice(0,M):t,n=t.length>M?`
\u2026 ${t.length-M} more characters not shown here (the transcript has them)`:"";return`<pre${s?` class="${s}"`:""}>${r(o)}${r(n)}</pre>`}p(b,"pre");function tt(t){return!Q.has(t.mimeType)||!/^[A-Za-z0-9+/]*={0,2}$/.test(t.data)?`<div class="dim">[image of type ${r(t.mimeType)} not shown]</div>`:`<img class="shot" alt="image returned by the tool" src="data:${t.mimeType};base64,${t.data}">`}p(tt,"image");function et(t){if(typeof t=="string")return`<div class="lbl">Arguments (not valid JSON, as the model sent them)</div>${b(t)}`;let s=Object.entries(t).map(([o,n])=>{if(typeof n=="string"&&!n.includes(`
`)&&n.length<=120)return`<div class="kv"><span class="k">${r(o)}</span><code>${r(n)}</code></div>`;let i=typeof n=="string"?n:y(n,2);return`<div class="kv"><span class="k">${r(o)}</span>${b(i)}</div>`});return s.length?s.join(""):'<div class="kv dim">(no arguments)</div>'}p(et,"argsHtml");function nt(t){if(t==null)return"";let s="";if(typeof t=="string")s=V(t)?C(t):b(t);else if(typeof t=="object"&&!Array.isArray(t)){let{diff:n,patch:i,...a}=t,e=typeof n=="string"?n:typeof i=="string"?i:void 0;e!==void 0&&(s+=C(e));let l=e===void 0?t:a;Object.keys(l).length>0&&(s+=b(y(l,2)))}else s=b(y(t,2));return`<details class="det"${s.includes('class="diff"')?" open":""}><summary class="lbl">Details (not sent to the model)</summary>${s}</details>`}p(nt,"detailsHtml");function ot(t){let s=t.result?t.isError?" e":"":" u",o=t.result?t.isError?"\u2717":"\u2713":"?",n=t.durationMs!==void 0?` \xB7 ${T(t.durationMs)}`:"",i=[`<div class="call${s}" data-tool="${r(t.name)}" data-error="${t.isError?1:0}">`,`<div class="ch"><span class="mk">${o}</span> <b>${r(t.name)}</b> <span class="dim">${r(t.id)}${n}</span></div>`,et(t.input)];if(!t.result)i.push('<div class="lbl">No result recorded (the run ended before it).</div>');else{i.push(`<div class="lbl">Result${t.isError?" (error)":""}, as the model saw it</div>`);for(let a of t.result.content)i.push(a.type==="text"?b(a.text,"out"):tt(a));i.push(nt(t.result.details))}return i.push("</div>"),i.join("")}p(ot,"callHtml");function rt(t){let s=t.stopReason==="error"||t.stopReason==="aborted"||t.calls.some(d=>d.isError),o=[...new Set(t.calls.map(d=>d.name))],n=A(t.usage.costUsd),i=[r(t.model),r(t.stopReason),t.durationMs!==void 0?T(t.durationMs):"",`in ${m(t.usage.inputTokens)} \xB7 out ${m(t.usage.outputTokens)}`+(t.usage.cacheReadTokens||t.usage.cacheWriteTokens?` \xB7 cache r ${m(t.usage.cacheReadTokens)} w ${m(t.usage.cacheWriteTokens)}`:""),n??""].filter(Boolean),a=t.calls.map(d=>`<span class="chip${d.isError?" e":""}">${d.isError?"\u2717":""}${r(d.name)}</span>`).join(""),e=t.calls.length===0&&t.text?` <span class="dim">${r(O(t.text).slice(0,90))}</span>`:"",l=[];t.errorMessage&&l.push(`<div class="merr">Model error: ${r(t.errorMessage)}</div>`),t.thinking&&l.push(`<details><summary class="lbl">Reasoning</summary>${b(t.thinking)}</details>`),t.text&&l.push(`<div class="md">${k(t.text)}</div>`);for(let d of t.calls)l.push(ot(d));return`<details class="turn${s?" failed":""}" id="turn-${t.index}" data-tools="${r(o.join(" "))}" data-ctx="${U(t.usage)}" data-out="${t.usage.outputTokens}"><summary><span class="n">Turn ${t.index}</span><span class="meta">${i.join(" \xB7 ")}</span><span class="chips">${a}</span>${e}</summary><div class="tb">${l.join("")}</div></details>`}p(rt,"turnHtml");function st(t){let s=Object.entries(t).filter(([n])=>n!=="type"&&n!=="event"&&n!=="timestamp").map(([n,i])=>`${r(n)}=${r(typeof i=="string"?i:y(i))}`).join(" ");return`<div class="event${t.event==="error"||t.event==="cancel"?" e":""}"><span class="ek">${r(String(t.event))}</span>${s}</div>`}p(st,"eventHtml");function it(t){let s=t.conclusion??"incomplete",o=Y.has(s)?"o-ok":Z.has(s)||!t.complete?"o-bad":"o-other",n=Object.values(t.tools).reduce((c,u)=>c+u.calls,0),i=Object.values(t.tools).reduce((c,u)=>c+u.errors,0),a=t.totals,e=[[t.models.length>1?"Models":"Model",t.models.map(c=>`<code>${r(c)}</code>`).join(", ")||"(none)"]];t.repository&&e.push(["Repository",r(t.repository)]),t.trigger&&e.push(["Trigger",r(t.trigger)]),t.startedAt!==void 0&&e.push(["Started",r(new Date(t.startedAt).toISOString())]),e.push(["Duration",T(t.durationMs)]),e.push(["Turns",String(t.turns.length)]),e.push(["Tool calls",`${n} (${I(i,"error")})`]),e.push(["Tokens",`input ${m(a.inputTokens)} \xB7 output ${m(a.outputTokens)} \xB7 cache read ${m(a.cacheReadTokens)} \xB7 cache write ${m(a.cacheWriteTokens)}`]);let l=A(a.costUsd);e.push(["Cost",l?`${l} (estimated)`:"unknown (no price for this model)"]);let d=t.summary??{};typeof d.branch=="string"&&e.push(["Branch",`<code>${r(d.branch)}</code>`]),typeof d.commitSha=="string"&&e.push(["Commit",`<code>${r(d.commitSha)}</code>`]),typeof d.prUrl=="string"&&/^https?:\/\//.test(d.prUrl)&&e.push(["Pull request",`<a href="${r(d.prUrl)}" rel="noopener noreferrer">${r(d.prUrl)}</a>`]);let g=[`<h1>patchloop run <span class="badge ${o}">${r(s)}</span></h1>`,`<dl class="facts">${e.map(([c,u])=>`<dt>${c}</dt><dd>${u}</dd>`).join("")}</dl>`];if(t.errors.length){let c=t.errors.map(u=>`<li>${u.turn!==void 0?`<a href="#turn-${u.turn}">turn ${u.turn}</a>`:r(u.source)}${u.tool?` \xB7 <code>${r(u.tool)}</code>`:""}: ${r(u.message)}</li>`);g.push(`<div class="box errors"><b>Errors (${t.errors.length})</b><ul>${c.join("")}</ul></div>`)}return t.warnings.length&&g.push(`<div class="box warnings"><b>About this transcript</b><ul>${t.warnings.map(c=>`<li>${r(c)}</li>`).join("")}</ul></div>`),g.join("")}p(it,"headerHtml");function at(t){return`<div class="controls"><label>Show <select id="f-kind"><option value="all">all turns</option><option value="errors">only errors</option></select></label><label>Tool <select id="f-tool"><option value="">any tool</option>${Object.keys(t.tools).sort().map(o=>`<option value="${r(o)}">${r(o)} (${t.tools[o].calls})</option>`).join("")}</select></label><button type="button" id="expand">Expand all</button><button type="button" id="collapse">Collapse all</button><span id="f-count" class="dim"></span></div>`}p(at,"controlsHtml");function Mt(t,s={}){let o=`patchloop run ${t.id??""} \u2014 ${t.conclusion??"incomplete"}`,i=`default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'sha256-${K("sha256").update(_).digest("base64")}'; base-uri 'none'; form-action 'none'`,a=[it(t)];t.turns.length&&a.push(`<h2>Tokens per turn</h2>${P(t.turns.map(g=>g.usage))}<div class="legend"><i class="c-ctx" style="background:var(--ctx)"></i>context read (input + cache)<i style="background:var(--out)"></i>output <span id="chart-tip"></span></div>`);let e=t.turns[t.turns.length-1];e&&e.calls.length===0&&e.text&&a.push(`<h2>Final message</h2><div class="md box">${k(e.text)}</div>`),a.push("<h2>Timeline</h2>",at(t));for(let g of t.timeline)g.kind==="turn"?a.push(rt(g.turn)):g.kind==="event"?a.push(st(g.event)):g.kind==="task"?a.push(`<details class="user" open><summary class="lbl">Task</summary><div class="md">${k(g.text)}</div></details>`):a.push(`<div class="user"><div class="lbl">User</div><div class="md">${k(g.text)}</div></div>`);let l=s.generatedAt?` on ${r(s.generatedAt.toISOString())}`:"";a.push(`<footer>Exported by patchloop${s.source?` from ${r(s.source)}`:""}${l}.</footer>`);let d=["<!doctype html>",'<html lang="en"><head><meta charset="utf-8">',`<meta http-equiv="Content-Security-Policy" content="${i}">`,'<meta name="viewport" content="width=device-width,initial-scale=1">','<meta name="referrer" content="no-referrer">',`<title>${r(o)}</title>`,`<style>${N}</style></head>`,`<body><div class="wrap">${a.join(`
`)}</div>`,`<script>${_}</script>`,"</body></html>",""].join(`
`);return s.redact?s.redact(d):d}p(Mt,"renderHtml");export{Mt as a};
