// Streamed tool-call arguments: a 1 MiB write_file argument in 16-byte deltas.
//
// 1. StreamJsonReader alone: push every delta, then the one final parse, against JSON.parse of the
//    whole text (baseline), in the same run. Goal: within 3x.
// 2. Through the Anthropic adapter and the real SDK, from a loopback server: the argument as
//    input_json_delta frames, against the same text as text_delta frames (baseline: the SDK and
//    the SSE parsing cost the same; the difference is what reading tool arguments adds).
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
  index % 2 === 0 ? { toolCalls: [{ id: 'toolu_big', name: 'write_file', json: chunks }] } : { text: chunks },
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
const adapter = { args: [] as number[], text: [] as number[] };
await turn();
await turn();
for (let round = 0; round < 5; round++) {
  adapter.args.push(await measure(turn));
  adapter.text.push(await measure(turn));
}
await server.close();
const textMs = median(adapter.text);
console.log(`\nthrough the Anthropic adapter (SDK + loopback SSE, ${chunks.length} frames):`);
console.log(`same text as text_delta frames (baseline): 1.00x`);
console.log(`as input_json_delta frames of a tool call: ${(median(adapter.args) / textMs).toFixed(2)}x`);
if (sink === 0) console.log('');
