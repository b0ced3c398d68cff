import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../../src/protocol/redact.js';
import { parseTranscript, TranscriptWriter } from '../../src/protocol/transcript.js';
import { emptyUsage, type AssistantMessage, type ToolResultMessage } from '../../src/protocol/types.js';

const dirs: string[] = [];
const tempFile = () => {
  const d = mkdtempSync(join(tmpdir(), 'pl-transcript-'));
  dirs.push(d);
  return join(d, 'sub', 'run.jsonl');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// Ids as different providers produce them, including characters other providers reject.
const ids = ['toolu_01A09q90qw90lq917835lq9', 'call_abc|fc_123', `x${'y'.repeat(449)}`];

const assistant: AssistantMessage = {
  role: 'assistant',
  content: ids.map((id) => ({ type: 'toolCall' as const, id, name: 'read_file', input: { path: 'a.txt' } })),
  provider: 'openai-responses',
  model: 'gpt-test',
  usage: { ...emptyUsage(), inputTokens: 10, outputTokens: 5 },
  stopReason: 'toolUse',
  timestamp: 1000,
};
const results: ToolResultMessage[] = ids.map((id) => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'read_file',
  content: [{ type: 'text', text: 'ok' }],
  isError: false,
  timestamp: 1001,
}));

describe('transcript', () => {
  it('writes one JSON line per record and reads them back with ids unchanged', () => {
    const path = tempFile();
    const w = new TranscriptWriter(path);
    w.session({
      id: 'run-1',
      startedAt: '2026-11-30T00:00:00Z',
      repository: 'o/r',
      trigger: 'cli',
      provider: 'openai-responses',
      model: 'gpt-test',
    });
    w.message({ role: 'user', content: 'fix it', timestamp: 999 });
    w.message(assistant);
    for (const r of results) w.message(r);
    w.event('retry', { attempt: 1, delayMs: 10 });
    w.summary({ conclusion: 'success', usage: assistant.usage });
    w.close();

    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trim().split('\n')).toHaveLength(8);
    const t = parseTranscript(text);
    expect(t.session).toMatchObject({ type: 'session', version: 1, id: 'run-1' });
    expect(t.messages).toHaveLength(5);
    const calls = (t.messages[1] as AssistantMessage).content.map((c) => (c.type === 'toolCall' ? c.id : ''));
    expect(calls).toEqual(ids);
    expect(t.messages.slice(2).map((m) => (m as ToolResultMessage).toolCallId)).toEqual(ids);
    expect(t.events[0]).toMatchObject({ type: 'event', event: 'retry', attempt: 1 });
    expect(t.summary).toMatchObject({ conclusion: 'success' });
    expect(t.torn).toBe(false);
  });

  it('tolerates a torn last line and unknown line types', () => {
    const path = tempFile();
    const w = new TranscriptWriter(path);
    w.message({ role: 'user', content: 'task', timestamp: 1 });
    w.close();
    appendFileSync(path, '{"type":"future-thing","x":1}\n{"type":"message","message":{"role":"assis');
    const t = parseTranscript(readFileSync(path, 'utf8'));
    expect(t.messages).toHaveLength(1);
    expect(t.unknown).toEqual([{ lineNumber: 2, value: { type: 'future-thing', x: 1 } }]);
    expect(t.torn).toBe(true);
    expect(t.summary).toBeUndefined();
  });

  it('appends: a second writer on the same file keeps the first lines', () => {
    const path = tempFile();
    const a = new TranscriptWriter(path);
    a.message({ role: 'user', content: 'one', timestamp: 1 });
    a.close();
    const b = new TranscriptWriter(path);
    b.message({ role: 'user', content: 'two', timestamp: 2 });
    b.close();
    expect(parseTranscript(readFileSync(path, 'utf8')).messages.map((m) => m.content)).toEqual([
      'one',
      'two',
    ]);
  });

  it('applies the redactor to every line', () => {
    const path = tempFile();
    const w = new TranscriptWriter(path, { redact: (s) => s.replaceAll('hunter2secret', '[REDACTED]') });
    w.message({ role: 'user', content: 'the key is hunter2secret', timestamp: 1 });
    w.close();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('hunter2secret');
    expect(parseTranscript(text).messages[0]!.content).toBe('the key is [REDACTED]');
  });

  it('writes many messages at once as the same lines, each redacted', () => {
    const [one, many] = [tempFile(), tempFile()];
    const redact = (s: string) => s.replaceAll('hunter2secret', '[REDACTED]');
    const messages = [
      { role: 'user' as const, content: 'the key is hunter2secret', timestamp: 1 },
      assistant,
      ...results,
    ];
    const a = new TranscriptWriter(one, { redact });
    for (const m of messages) a.message(m);
    a.close();
    const b = new TranscriptWriter(many, { redact });
    b.messages(messages);
    b.close();
    const text = readFileSync(many, 'utf8');
    expect(text).toBe(readFileSync(one, 'utf8'));
    expect(text.trim().split('\n')).toHaveLength(5);
    expect(text).not.toContain('hunter2secret');
    expect(parseTranscript(text).messages).toHaveLength(5);
  });

  it('copies the lines an earlier transcript holds as they are, and redacts them as line by line', () => {
    const secret = 'hunter2-secret-value';
    const redact = createRedactor([secret]);
    const token = `ghp_${'a1B2'.repeat(9)}`;
    // Pieces a line may start or end with, among them the two ends of a PEM key in different
    // messages (a block redacted whole would take everything between them).
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom(
        secret,
        token,
        '-----BEGIN RSA PRIVATE KEY-----',
        '-----END RSA PRIVATE KEY-----',
        'é’…',
        '\\u0041 in code',
        '\u0007',
        '\n',
      ),
    );
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 4 }), { minLength: 1, maxLength: 6 }), (texts) => {
        const messages = texts.map((parts, i) => ({
          role: 'user' as const,
          content: parts.join(' '),
          timestamp: i,
        }));
        const [earlier, one, copied] = [tempFile(), tempFile(), tempFile()];
        const plain = new TranscriptWriter(earlier); // the earlier run knew none of these secrets
        for (const m of messages) plain.message(m);
        plain.close();
        const read = parseTranscript(readFileSync(earlier));
        expect(read.messageRows).toHaveLength(messages.length);
        expect(read.messageRows.every((r) => r.bytes !== undefined)).toBe(true);
        const a = new TranscriptWriter(one, { redact });
        for (const m of read.messages) a.message(m);
        a.close();
        const b = new TranscriptWriter(copied, { redact });
        b.messages(read.messages, read.messageRows);
        b.close();
        const text = readFileSync(copied, 'utf8');
        expect(text).toBe(readFileSync(one, 'utf8'));
        expect(text).not.toContain(secret);
        expect(text).not.toContain(token);
      }),
      { numRuns: 150 },
    );
  });

  it('a private key split across two fields: one valid line, both parts redacted, the message kept', () => {
    const redact = createRedactor([]);
    // a key's first line in one argument, its end in another (issue 23): redacting the serialised
    // line matched from one string into the next and cut the line
    const call: AssistantMessage = {
      ...assistant,
      content: [
        {
          type: 'toolCall',
          id: 'toolu_split',
          name: 'write_file',
          input: {
            path: 'id_rsa',
            content: '-----BEGIN RSA PRIVATE KEY-----\nMIIEfirstHALFofTHEkey',
            note: 'SECONDhalfOFtheKEY\n-----END RSA PRIVATE KEY-----',
          },
        },
      ],
    };
    const plainPath = tempFile();
    const plain = new TranscriptWriter(plainPath);
    plain.message(call);
    plain.close();
    const earlier = parseTranscript(readFileSync(plainPath));
    for (const write of [
      (w: TranscriptWriter) => w.message(call),
      // copied from an earlier session that knew nothing to redact: encoded anew, not copied
      (w: TranscriptWriter) => w.messages(earlier.messages, earlier.messageRows),
    ]) {
      const path = tempFile();
      const w = new TranscriptWriter(path, { redact });
      write(w);
      w.close();
      const text = readFileSync(path, 'utf8');
      const back = parseTranscript(text);
      expect(back.invalid).toEqual([]);
      expect(back.messages).toHaveLength(1);
      const input = (back.messages[0] as AssistantMessage).content[0] as { input: Record<string, string> };
      expect(input.input).toEqual({ path: 'id_rsa', content: '[REDACTED]', note: '[REDACTED]' });
      expect(text).not.toMatch(/MIIEfirst|SECONDhalf|PRIVATE KEY/);
    }
  });

  it('takes a recorded line as it stands, but encodes anew one with an escape it never writes', () => {
    const path = tempFile();
    const redact = createRedactor(['hunter2-secret-value']);
    // Keys in another order: the line is copied, not encoded again.
    const asRecorded = '{"message":{"role":"user","content":"first","timestamp":1},"type":"message"}';
    // \u0068 is "h": a line written by hand hides the secret's text from a redactor of the raw line.
    const hiding =
      '{"type":"message","message":{"role":"user","content":"key \\u0068unter2-secret-value","timestamp":2}}';
    const read = parseTranscript(Buffer.from(`${asRecorded}\n${hiding}\n`));
    expect(read.messages[1]!.content).toBe('key hunter2-secret-value');
    const w = new TranscriptWriter(path, { redact });
    w.messages(read.messages, read.messageRows);
    w.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines[0]).toBe(asRecorded);
    expect(lines[1]).toBe(
      '{"type":"message","message":{"role":"user","content":"key [REDACTED]","timestamp":2}}',
    );
  });

  it('keeps the bytes of each message line only where they are the line’s text', () => {
    const line = (n: number, content: string) =>
      `{"type":"message","message":{"role":"user","content":"${content}","timestamp":${n}}}`;
    const [one, two, three, four] = [line(1, 'café'), line(2, 'two'), line(3, 'three'), line(4, 'last')];
    // an event between two messages: their lines are copied, but not as one span
    const event = '{"type":"event","event":"retry","timestamp":5}';
    const read = parseTranscript(
      Buffer.from(
        `{"type":"event","event":"x","timestamp":0}\n${one}\n${event}\n${two}\n  ${three}\r\n${four}`,
      ),
    );
    expect(read.messageRows.map((r) => r.text)).toEqual([one, two, three, four]);
    const bytesOf = (i: number) => {
      const b = read.messageRows[i]!.bytes;
      return b && Buffer.from(b).toString('utf8');
    };
    expect([bytesOf(0), bytesOf(1)]).toEqual([`${one}\n`, `${two}\n`]);
    // the third line has spaces and a CR around it: its text is kept without them, and no bytes
    expect(bytesOf(2)).toBeUndefined();
    // the file's last line has no newline
    expect(bytesOf(3)).toBe(four);
    // not UTF-8 (a stray 0xff byte): the texts only, as decoded
    const broken = parseTranscript(
      Buffer.concat([Buffer.from(`${one}\n`), Buffer.from([0xff, 0x0a]), Buffer.from(two)]),
    );
    expect(broken.messages).toHaveLength(2);
    expect(broken.messageRows.every((r) => r.bytes === undefined)).toBe(true);
    const path = tempFile();
    const w = new TranscriptWriter(path);
    w.messages(read.messages, read.messageRows);
    w.close();
    expect(readFileSync(path, 'utf8')).toBe(`${one}\n${two}\n${three}\n${four}\n`);
  });

  it('reports a failed write once and keeps the run going', () => {
    const errors: Error[] = [];
    const w = new TranscriptWriter('/dev/full', { onError: (e) => errors.push(e) });
    w.message({ role: 'user', content: 'x', timestamp: 1 });
    w.message({ role: 'user', content: 'y', timestamp: 2 });
    w.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/ENOSPC/);
    expect(w.healthy).toBe(false);
  });
});
