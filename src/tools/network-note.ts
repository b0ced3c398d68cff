import type { ToolOutput } from '../protocol/tool.js';

/** The command's result with the sandbox's note on its network (a refused host) appended, when there is one. */
export function withNetworkNote<T>(output: ToolOutput<T>, note: string | undefined): ToolOutput<T> {
  if (!note) return output;
  const content = [...output.content];
  const last = content.at(-1);
  if (last?.type === 'text') content[content.length - 1] = { ...last, text: `${last.text}\n${note}` };
  else content.push({ type: 'text', text: note });
  return { ...output, content };
}
