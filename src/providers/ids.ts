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
 * Returns the messages with every tool-call id valid for `policy` and unique in the request,
 * calls and results rewritten together. An id the provider repeated (some OpenAI-compatible
 * servers send `call_0` in every turn, a few even twice in one turn) keeps its first occurrence
 * and every later call with it is re-keyed (a salted hash, so it cannot meet an id in use);
 * Anthropic rejects a request whose tool_use ids repeat, and every API pairs results by id. The
 * results after a turn are matched to its calls by position where ids repeat (pairing.ts puts
 * them in call order). Messages without ids to change are returned as they are; none is mutated.
 */
export function normalizeToolCallIds(messages: readonly Message[], policy: IdPolicy): Message[] {
  const map = buildIdMap(messages, policy);
  // The target of each call, by occurrence: the first use of an id takes the map's target.
  const used = new Set(map.values());
  const firstUse = new Set<string>();
  const targets = new Map<Message, string[]>();
  let changed = false;
  for (const [from, to] of map) if (from !== to) changed = true;
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const ids: string[] = [];
    for (const c of m.content) {
      if (c.type !== 'toolCall') continue;
      if (!firstUse.has(c.id)) {
        firstUse.add(c.id);
        ids.push(map.get(c.id) ?? c.id);
        continue;
      }
      let salt = 1;
      let next = rewrite(c.id, policy, salt);
      while (used.has(next)) next = rewrite(c.id, policy, ++salt);
      used.add(next);
      ids.push(next);
      changed = true;
    }
    if (ids.length > 0) targets.set(m, ids);
  }
  if (!changed) return [...messages];

  const out: Message[] = [];
  // The calls of the latest assistant message not yet matched with a result, per original id.
  let open = new Map<string, string[]>();
  for (const m of messages) {
    if (m.role === 'assistant') {
      const ids = targets.get(m);
      open = new Map();
      if (!ids) {
        out.push(m);
        continue;
      }
      let k = 0;
      const content = m.content.map((c) => {
        if (c.type !== 'toolCall') return c;
        const id = ids[k++]!;
        const queue = open.get(c.id);
        if (queue) queue.push(id);
        else open.set(c.id, [id]);
        return id === c.id ? c : { ...c, id };
      });
      out.push(content.some((c, j) => c !== m.content[j]) ? { ...m, content } : m);
    } else if (m.role === 'toolResult') {
      const id = open.get(m.toolCallId)?.shift() ?? map.get(m.toolCallId) ?? m.toolCallId;
      out.push(id === m.toolCallId ? m : { ...m, toolCallId: id });
    } else {
      out.push(m);
    }
  }
  return out;
}
