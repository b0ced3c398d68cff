import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseTranscript, type SessionLine } from '../protocol/transcript.js';
import { textOf, type Usage } from '../protocol/types.js';
import { createScriptedProvider, parseFallbackSpec, scriptFromTranscript } from '../providers/index.js';
import { createSessionProvider } from '../providers/session.js';
import type { Provider, ProviderName } from '../providers/types.js';
import { normalizeUsage } from '../report/normalize.js';
import { UsageError } from './io.js';

// Where `patchloop run` gets its model: a provider built from the flags, or (--replay) the
// assistant turns of a recorded transcript played back with no network.

export interface ModelFlags {
  provider: ProviderName;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  fallback?: string;
  replay?: string;
}

export interface CliModel {
  provider: Provider;
  /** For --replay: the notice that says the session is scripted. */
  scripted?: string;
  /** For --replay: the recorded session line and task. */
  recordedSession?: SessionLine;
  recordedTask?: string;
}

/** Builds the model the flags ask for; configuration problems become a UsageError. */
export function loadModel(f: ModelFlags, cwd: string, env: NodeJS.ProcessEnv): CliModel {
  if (f.replay) return loadReplay(resolve(cwd, f.replay));
  try {
    const provider = createSessionProvider({
      provider: f.provider,
      model: f.model,
      apiKey: f.apiKey,
      baseUrl: f.baseUrl,
      ...(f.fallback ? { fallback: parseFallbackSpec(f.fallback) } : {}),
      env,
      surface: 'cli',
    });
    return { provider };
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

function loadReplay(path: string): CliModel {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(
      `--replay: cannot read ${path} (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const script = scriptFromTranscript(text);
  if (script.length === 0) throw new UsageError(`--replay: ${path} holds no assistant messages`);
  const recorded = parseTranscript(text);
  const usages = recorded.messages.flatMap((m) => (m.role === 'assistant' ? [normalizeUsage(m.usage)] : []));
  const task = recorded.messages.find((m) => m.role === 'user');
  const label =
    `Scripted model session: the assistant turns are replayed from ${basename(path)}; no model was called. ` +
    'Token and cost figures are the ones recorded in that file, not spent.';
  const model: CliModel = {
    provider: withRecordedUsage(createScriptedProvider(script, { label }), usages),
    scripted: label,
  };
  if (recorded.session) model.recordedSession = recorded.session;
  if (task) model.recordedTask = textOf(task.content);
  return model;
}

/**
 * The scripted provider reports no usage (nothing was spent); a replay shows the figures recorded
 * with each turn instead, so the demo's summary reads like a real run's. The label says so.
 */
export function withRecordedUsage(provider: Provider, usages: readonly Usage[]): Provider {
  let turn = 0;
  return {
    name: provider.name,
    model: provider.model,
    contextWindow: provider.contextWindow,
    async *stream(context, options) {
      const recorded = usages[turn++];
      for await (const e of provider.stream(context, options)) {
        yield e.type === 'done' && recorded && e.message.stopReason !== 'aborted'
          ? { ...e, message: { ...e.message, usage: recorded } }
          : e;
      }
    },
  };
}
