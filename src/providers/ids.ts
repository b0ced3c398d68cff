import { createHash } from 'node:crypto';
import type { Message } from '../protocol/types.js';

/**
 * Tool-call ids as each target accepts them. Ids are rewritten per request, from one map built
 * fresh for that request, so a call and its result always get the same new id; the messages
 * passed in (the transcript) keep the ids the providers produced.
 *
 * An id already valid for the target is sent unchanged. Any other id becomes a sanitised prefix
 * plus `_` and 12 hex characters of the SHA-256 of the whole original id, so two ids that share a
 * long prefix (or differ only in characters the target forbids) stay distinct; the rewrite is
 * deterministic, so the same history gives the same request bytes (prompt caches keep hitting).
 */
export interface IdPolicy {
  readonly name: string;
  readonly maxLength: number;
  /** Matches one character the target does not accept (global flag). */
  readonly invalidChar: RegExp;
}

/** Anthropic Messages: tool_use.id must match ^[a-zA-Z0-9_-]+$, at most 64 characters. */
export const ANTHROPIC_ID_POLICY: IdPolicy = {
  name: 'anthropic',
  maxLength: 64,
  invalidChar: /[^A-Za-z0-9_-]/g,
};

/**
 * OpenAI Chat Completions rejects longer ids with "Invalid 'messages[n].tool_calls[0].id': string
 * too long. Expected a string with maximum length 40". The character set is kept to [A-Za-z0-9_-]
 * because OpenAI-compatible servers (vLLM, gateways) are stricter than OpenAI itself.
 */
export const OPENAI_CHAT_ID_POLICY: IdPolicy = {
  name: 'openai',
  maxLength: 40,
  invalidChar: /[^A-Za-z0-9_-]/g,
};

/** OpenAI Responses: "Invalid input[].call_id: string too long. Expected max length 64." */
export const OPENAI_RESPONSES_ID_POLICY: IdPolicy = {
  name: 'openai-responses',
  maxLength: 64,
  invalidChar: /[^A-Za-z0-9_-]/g,
};

/** Gemini documents no limit for functionCall.id; 64 of [A-Za-z0-9_-] is accepted everywhere. */
export const GOOGLE_ID_POLICY: IdPolicy = { name: 'google', maxLength: 64, invalidChar: /[^A-Za-z0-9_-]/g };

const HASH_LENGTH = 12;

export function isValidId(id: string, policy: IdPolicy): boolean {
  if (id.length === 0 || id.length > policy.maxLength) return false;
  policy.invalidChar.lastIndex = 0;
  const bad = policy.invalidChar.test(id);
  policy.invalidChar.lastIndex = 0;
  return !bad;
}

function hashOf(id: string, salt: number): string {
  return createHash('sha256')
    .update(salt === 0 ? id : `${salt}:${id}`)
    .digest('hex')
    .slice(0, HASH_LENGTH);
}

function rewrite(id: string, policy: IdPolicy, salt: number): string {
  const hash = hashOf(id, salt);
  if (policy.maxLength <= HASH_LENGTH) return hash.slice(0, policy.maxLength);
  const room = policy.maxLength - HASH_LENGTH - 1;
  const prefix = id.replace(policy.invalidChar, '_').slice(0, room);
  return prefix ? `${prefix}_${hash}` : hash;
}

/** Builds the request-scoped map original id → target id for the ids in `messages`. */
export function buildIdMap(messages: readonly Message[], policy: IdPolicy): Map<string, string> {
  const originals: string[] = [];
  const seen = new Set<string>();
  const note = (id: string) => {
    if (!seen.has(id)) {
      seen.add(id);
      originals.push(id);
    }
  };
  for (const m of messages) {
    if (m.role === 'assistant') for (const c of m.content) if (c.type === 'toolCall') note(c.id);
    if (m.role === 'toolResult') note(m.toolCallId);
  }
  const map = new Map<string, string>();
  const used = new Set<string>();
  // Valid ids first, so a rewritten id can never take the place of one that is kept as it is.
  for (const id of originals) {
    if (isValidId(id, policy)) {
      map.set(id, id);
      used.add(id);
    }
  }
  for (const id of originals) {
    if (map.has(id)) continue;
    let salt = 0;
    let next = rewrite(id, policy, salt);
    while (used.has(next)) next = rewrite(id, policy, ++salt);
    map.set(id, next);
    used.add(next);
  }
  return map;
}

/**
 * Returns the messages with every tool-call id valid for `policy`, calls and results rewritten
 * from the same map. Messages without ids to change are returned as they are; none is mutated.
 */
export function normalizeToolCallIds(messages: readonly Message[], policy: IdPolicy): Message[] {
  const map = buildIdMap(messages, policy);
  let changed = false;
  for (const [from, to] of map) if (from !== to) changed = true;
  if (!changed) return [...messages];
  return messages.map((m): Message => {
    if (m.role === 'toolResult') {
      const id = map.get(m.toolCallId) ?? m.toolCallId;
      return id === m.toolCallId ? m : { ...m, toolCallId: id };
    }
    if (m.role === 'assistant' && m.content.some((c) => c.type === 'toolCall' && map.get(c.id) !== c.id)) {
      return {
        ...m,
        content: m.content.map((c) => (c.type === 'toolCall' ? { ...c, id: map.get(c.id) ?? c.id } : c)),
      };
    }
    return m;
  });
}
