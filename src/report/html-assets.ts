// The HTML page's own stylesheet and script. Static text: nothing from a transcript is ever put in
// here, and the script is allowed by its hash in the page's Content-Security-Policy.

export const PAGE_CSS = `
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
`;

export const PAGE_SCRIPT = `(() => {
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
  // Search hits: each match in the shown timeline wrapped in <mark>, stepped through with ↑ and ↓.
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
})();`;
