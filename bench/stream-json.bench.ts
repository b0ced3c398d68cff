// Streamed tool-call arguments: a 1 MiB write_file argument in 16-byte deltas.
//
// 1. StreamJsonReader alone: push every delta, then the one final parse, against JSON.parse of the
//    whole text (baseline), in the same run. Goal: within 3x.
// 2. Through the Anthropic adapter (the SDK's request, the adapter's SSE reader), from a loopback
//    server in this process: the argument as input_json_delta frames of 16 characters, against
//    the same argument in one frame (baseline), and a bare fetch of the same two streams (the
//    fake's own share of the difference: it writes one frame at a time).
import { createAnthropicProvider } from '../src/providers/anthropic.js';
import { StreamJsonReader } from '../src/protocol/stream-json.js';
import { startAnthropicServer } from '../test/fakes/anthropic-server.js';

const CHUNK = 16;
const TARGET = 1024 * 1024;

function makeArgument(): string {
  const line = 'if (s === "a\\tb") {\n\tconsole.log(`quote " and backslash \\\\ and unicode é ✓`);\n}\n';
  let content = '';
  while (content.length < TARGET) content += line;
  return JSON.stringify({ path: 'src/generated/big-file.ts', content: content.slice(0, TARGET) });
}

function chunksOf(text: string): string[] {
  const out: string[] = [];
  // Fresh strings, as an SDK makes them by parsing each SSE frame (not slices of one big string).
  for (let i = 0; i < text.length; i += CHUNK)
    out.push(JSON.parse(JSON.stringify(text.slice(i, i + CHUNK))) as string);
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function measure(fn: () => unknown): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const text = makeArgument();
const chunks = chunksOf(text);
let sink = 0;

const baseline = () => {
  const v = JSON.parse(text) as { content: string };
  sink += v.content.length;
};
const streamed = () => {
  const reader = new StreamJsonReader();
  for (const c of chunks) reader.push(c);
  const r = reader.finish();
  if (!r.ok) throw new Error(r.error);
  sink += (r.value.content as string).length;
};
const scanOnly = () => {
  const reader = new StreamJsonReader();
  for (const c of chunks) reader.push(c);
  sink += Object.keys(reader.fields).length;
};

for (let i = 0; i < 5; i++) {
  baseline();
  streamed();
}
// Interleaved rounds, so load from elsewhere on the machine falls on all three alike.
const samples = { base: [] as number[], total: [] as number[], scan: [] as number[] };
for (let round = 0; round < 31; round++) {
  samples.base.push(await measure(baseline));
  samples.total.push(await measure(streamed));
  samples.scan.push(await measure(scanOnly));
}
const base = median(samples.base);
console.log(
  `argument: ${(text.length / 1024).toFixed(0)} KiB of JSON text, ${chunks.length} deltas of ${CHUNK} characters`,
);
console.log(`JSON.parse of the whole text (baseline):   1.00x`);
console.log(
  `push every delta + final parse:            ${(median(samples.total) / base).toFixed(2)}x  (goal <= 3x)`,
);
console.log(`push every delta only (incremental scan):  ${(median(samples.scan) / base).toFixed(2)}x`);

// --- through the adapter -------------------------------------------------------------------
const server = await startAnthropicServer((_req, index) =>
  index % 2 === 0
    ? { toolCalls: [{ id: 'toolu_big', name: 'write_file', json: chunks }] }
    : { toolCalls: [{ id: 'toolu_big', name: 'write_file', json: [text] }] },
);
const provider = createAnthropicProvider({
  model: 'claude-sonnet-5-5',
  apiKey: 'bench-key-0000',
  baseUrl: server.url,
});
const ctx = {
  systemPrompt: '',
  messages: [{ role: 'user' as const, content: 'go', timestamp: 0 }],
  tools: [],
};
async function turn(): Promise<void> {
  for await (const e of provider.stream(ctx)) {
    if (e.type === 'done') {
      if (e.message.stopReason === 'error') throw new Error(e.message.errorMessage);
      sink += e.message.content.length;
    }
  }
}
async function bareFetch(): Promise<void> {
  const r = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'm',
      max_tokens: 1,
      stream: true,
      messages: [{ role: 'user', content: 'go' }],
    }),
  });
  for await (const c of r.body!) sink += c.length;
}
const adapter = {
  small: [] as number[],
  whole: [] as number[],
  fetchSmall: [] as number[],
  fetchWhole: [] as number[],
};
await turn();
await turn();
for (let round = 0; round < 5; round++) {
  adapter.small.push(await measure(turn));
  adapter.whole.push(await measure(turn));
  adapter.fetchSmall.push(await measure(bareFetch));
  adapter.fetchWhole.push(await measure(bareFetch));
}
await server.close();
const wholeMs = median(adapter.whole);
const fakeExtra = median(adapter.fetchSmall) - median(adapter.fetchWhole);
const extra = median(adapter.small) - wholeMs;
console.log(`\nthrough the Anthropic adapter (SDK request, loopback SSE, ${chunks.length} frames):`);
console.log(`the argument in one frame (baseline):      1.00x  (${wholeMs.toFixed(0)} ms)`);
console.log(
  `in 16-character input_json_delta frames:   ${(median(adapter.small) / wholeMs).toFixed(2)}x  (+${extra.toFixed(0)} ms; a bare fetch of the same streams: +${fakeExtra.toFixed(0)} ms, so the adapter adds +${(extra - fakeExtra).toFixed(0)} ms)`,
);
if (sink === 0) console.log('');
