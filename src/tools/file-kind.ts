// What a file holds, judged from its first bytes: an image the model can be shown, other binary
// data that must not be dumped as text, or text.

export type FileKind =
  { kind: 'image'; mimeType: string } | { kind: 'binary'; reason: string } | { kind: 'text' };

/** How many leading bytes `classify` needs. */
export const SNIFF_BYTES = 8192;

function startsWith(head: Buffer, bytes: number[], at = 0): boolean {
  return bytes.every((b, i) => head[at + i] === b);
}

export function imageType(head: Buffer): string | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (
    head.subarray(0, 6).toString('latin1') === 'GIF87a' ||
    head.subarray(0, 6).toString('latin1') === 'GIF89a'
  )
    return 'image/gif';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return undefined;
}

export function classify(head: Buffer): FileKind {
  const mimeType = imageType(head);
  if (mimeType) return { kind: 'image', mimeType };
  if (head.includes(0)) {
    const utf16 = startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff]);
    return { kind: 'binary', reason: utf16 ? 'it is UTF-16 text' : 'it contains NUL bytes' };
  }
  return { kind: 'text' };
}
