import { canonicalModelId, lookupModel } from './pricing.js';

/**
 * What a model can take and needs, in one place: the adapters, the harness and the loop read it
 * here instead of matching model ids each on their own.
 */
export interface ImageLimits {
  /** Largest image the API accepts, measured as it is sent: base64 text. */
  maxBase64Bytes: number;
  /** Largest width or height in pixels, where the API documents one. */
  maxEdgePixels?: number;
  mimeTypes: readonly string[];
}

export interface Capabilities {
  /**
   * Absent: the model takes no images, and none is sent to it. That includes a model whose image
   * input is not known (an OpenAI-compatible server's): each request gets a note in place of
   * every image (see images.ts).
   */
  images?: ImageLimits;
  /** The model reasons before it answers and can return that reasoning (or its encrypted form). */
  reasoning: boolean;
  /** Replayed tool calls must carry the signature the model gave them (Gemini 3 and later). */
  signatures: boolean;
  contextWindow?: number;
  maxOutputTokens?: number;
}

const MB = 1024 * 1024;
const COMMON_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

// Anthropic enforces 5 MB on the base64 text, not on the file: "messages.1.content.2.image.source
// .base64: image exceeds 5 MB maximum: 6275800 bytes > 5242880 bytes"; and "At least one of the
// image dimensions exceed max allowed size: 8000 pixels".
const ANTHROPIC_IMAGES: ImageLimits = {
  maxBase64Bytes: 5 * MB,
  maxEdgePixels: 8000,
  mimeTypes: COMMON_TYPES,
};
// OpenAI: "up to 50 MB total payload size per request" with images as data URLs, 20 MB a file.
const OPENAI_IMAGES: ImageLimits = { maxBase64Bytes: 20 * MB, mimeTypes: COMMON_TYPES };
// Gemini: inline data counts against the 20 MB request size.
const GEMINI_IMAGES: ImageLimits = {
  maxBase64Bytes: 20 * MB,
  mimeTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'],
};

// The clouds serve the same models through the same wire formats.
const FAMILY: Readonly<Record<string, string>> = {
  'anthropic-bedrock': 'anthropic',
  'anthropic-vertex': 'anthropic',
  'google-vertex': 'google',
  'azure-openai': 'openai',
};

function geminiVersion(id: string): number | undefined {
  const m = /^gemini-(\d+)(?:\.(\d+))?/.exec(id);
  return m ? Number(m[1]) + Number(m[2] ?? 0) / 10 : undefined;
}

/** The capabilities of `model` as served by `provider` (a provider name as in the inputs). */
export function capabilitiesOf(provider: string, model: string): Capabilities {
  const id = canonicalModelId(model);
  const info = lookupModel(model);
  const known = {
    ...(info?.contextWindow !== undefined ? { contextWindow: info.contextWindow } : {}),
    ...(info?.maxOutputTokens !== undefined ? { maxOutputTokens: info.maxOutputTokens } : {}),
  };
  switch (FAMILY[provider] ?? provider) {
    case 'anthropic':
      return { images: ANTHROPIC_IMAGES, reasoning: /^claude-/.test(id), signatures: false, ...known };
    case 'openai':
    case 'openai-responses': {
      // o-series, GPT-5 and later, codex: reasoning models; gpt-4.x and earlier are not.
      const reasoning = /^(o\d|codex|gpt-([5-9]|\d{2,}))/.test(id);
      return { images: OPENAI_IMAGES, reasoning, signatures: false, ...known };
    }
    case 'google': {
      const v = geminiVersion(id);
      return {
        images: GEMINI_IMAGES,
        reasoning: v !== undefined && v >= 2.5,
        signatures: v !== undefined && v >= 3,
        ...known,
      };
    }
    default:
      // An OpenAI-compatible server: whatever it serves, with image input not known, so none is sent.
      return { reasoning: false, signatures: false, ...known };
  }
}
