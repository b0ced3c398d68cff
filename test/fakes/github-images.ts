// Images as GitHub serves them, for the fake GitHub: attachments uploaded to an issue or comment
// (markdown `https://github.com/user-attachments/assets/<uuid>`), the `body_html` REST returns
// with `Accept: application/vnd.github.full+json`, and the signed download URLs in it.
//
// In that rendering GitHub gives an attachment a short-lived signed URL,
// `https://private-user-images.githubusercontent.com/<user>/<n>-<uuid>.<ext>?jwt=…`, and an image
// of another site its image proxy, `https://camo.githubusercontent.com/<digest>/<hex of the URL>`
// with the original in `data-canonical-src`. Here both live on the fake's own origin (the API
// URL of the test): `/_private-user-images/…?jwt=…` and `/_camo/<hex>`, the proxy really
// fetching the original, so a client that follows it shows up in the other server's log.
import { randomBytes, randomUUID } from 'node:crypto';

export interface FakeAttachment {
  uuid: string;
  bytes: Buffer;
  contentType: string;
  /** what a user's markdown holds after uploading it */
  markdownUrl: string;
}

export interface RawReply {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export class FakeImages {
  readonly attachments = new Map<string, FakeAttachment>();
  /** Extra files served without authentication on the fake's origin, by path (`/_raw/…`). */
  readonly raw = new Map<string, RawReply>();
  private readonly jwts = new Map<string, { uuid: string; expires: number }>();
  private serial = 243_368_000;

  constructor(
    private readonly origin: () => string,
    private readonly web: string,
  ) {}

  /** Uploads an image as a user would by pasting it into an issue. */
  attach(bytes: Buffer, contentType = 'image/png'): FakeAttachment {
    const uuid = randomUUID();
    const a: FakeAttachment = {
      uuid,
      bytes,
      contentType,
      markdownUrl: `${this.web}/user-attachments/assets/${uuid}`,
    };
    this.attachments.set(uuid, a);
    return a;
  }

  /** A small, independent rendering of markdown: paragraphs, fenced code, images. */
  renderHtml(markdown: string | null): string {
    if (!markdown) return '';
    const parts = markdown.split(/^```.*$/m);
    return parts
      .map((part, i) => {
        if (i % 2 === 1) return `<pre><code>${escapeHtml(part.replace(/^\n/, ''))}</code></pre>`;
        const images: string[] = [];
        const withSlots = part
          .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
          .replace(/<img\b[^>]*\bsrc="([^"]+)"[^>]*>/gi, (_, src: string) => {
            images.push(this.img(src, 'image'));
            return `\uE000${images.length - 1}\uE000`;
          })
          .replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (_, alt: string, src: string) => {
            images.push(this.img(src, alt));
            return `\uE000${images.length - 1}\uE000`;
          });
        return withSlots
          .split(/\n{2,}/)
          .filter((p) => p.trim())
          .map(
            (p) =>
              `<p dir="auto">${escapeHtml(p).replace(/\uE000(\d+)\uE000/g, (_, n: string) => images[Number(n)]!)}</p>`,
          )
          .join('\n');
      })
      .join('\n');
  }

  private img(src: string, alt: string): string {
    const attachment = /\/user-attachments\/assets\/([0-9a-f-]{36})$/.exec(src);
    const known = attachment ? this.attachments.get(attachment[1]!) : undefined;
    if (known) {
      const jwt = randomBytes(24).toString('base64url');
      // GitHub's signatures expire after five minutes (X-Amz-Expires=300 inside the jwt).
      this.jwts.set(jwt, { uuid: known.uuid, expires: Date.now() + 300_000 });
      const ext = known.contentType.split('/')[1] ?? 'png';
      const signed = `${this.origin()}/_private-user-images/41898282/${this.serial++}-${known.uuid}.${ext}?jwt=${jwt}`;
      return `<a target="_blank" rel="noopener noreferrer" href="${escapeHtml(signed)}"><img src="${escapeHtml(signed)}" alt="${escapeHtml(alt)}" style="max-width: 100%;"></a>`;
    }
    if (src.startsWith(this.origin())) return `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}">`;
    const camo = `${this.origin()}/_camo/${Buffer.from(src).toString('hex')}`;
    return `<a target="_blank" rel="noopener noreferrer nofollow" href="${escapeHtml(camo)}"><img src="${escapeHtml(camo)}" alt="${escapeHtml(alt)}" data-canonical-src="${escapeHtml(src)}" style="max-width: 100%;"></a>`;
  }

  /** Answers the unauthenticated image routes, or undefined for any other path. */
  async serve(path: string, query: URLSearchParams): Promise<RawReply | undefined> {
    const signed = /^\/_private-user-images\/\d+\/\d+-([0-9a-f-]{36})\.\w+$/.exec(path);
    if (signed) {
      const grant = this.jwts.get(query.get('jwt') ?? '');
      const a = this.attachments.get(signed[1]!);
      if (!a || !grant || grant.uuid !== a.uuid || grant.expires < Date.now()) {
        return { status: 404, body: 'Not Found' };
      }
      return {
        status: 200,
        headers: { 'content-type': a.contentType, 'content-length': String(a.bytes.length) },
        body: a.bytes,
      };
    }
    const camo = /^\/_camo\/([0-9a-f]+)$/.exec(path);
    if (camo) {
      const res = await fetch(Buffer.from(camo[1]!, 'hex').toString('utf8')).catch(() => undefined);
      if (!res) return { status: 502, body: 'Bad Gateway' };
      return {
        status: res.status,
        headers: { 'content-type': res.headers.get('content-type') ?? 'application/octet-stream' },
        body: Buffer.from(await res.arrayBuffer()),
      };
    }
    return this.raw.get(path);
  }

  /**
   * `body_html` and `body_text` added to an issue, comment, review comment or review, as full+json
   * gives them.
   */
  full<T extends { body?: unknown }>(wire: T): T & { body_html: string; body_text: string } {
    const body = typeof wire.body === 'string' ? wire.body : null;
    return { ...wire, body_html: this.renderHtml(body), body_text: body ?? '' };
  }
}

/** Whether a request asked for the full representation (Octokit may add the `.v3`). */
export function wantsFull(accept: string | string[] | undefined): boolean {
  return /application\/vnd\.github(?:\.v3)?\.(?:full|html)\+json/i.test(String(accept ?? ''));
}
