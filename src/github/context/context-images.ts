// The images of the context's texts (CONTRACT §5): each image a text's markdown shows, matched
// with GitHub's rendering of that same text, and downloaded from GitHub's hosts only.
import type { ContextImages, ContextOptions, TaskContext } from './context.js';
import { downloadImages, htmlImages, imageRefs, matchImages, type ImageOutcome } from './images.js';
import type { Task } from './task.js';

/** The untrusted texts that may show images, in the order the task message gives them, with their rendering's key. */
function imageTexts(task: Task, ctx: TaskContext): { text: string; html?: string }[] {
  const request =
    task.trigger.kind === 'issue-comment'
      ? `comment:${task.trigger.id}`
      : task.trigger.kind === 'review-comment'
        ? `review-comment:${task.trigger.id}`
        : task.trigger.kind === 'review'
          ? `review:${task.trigger.id}`
          : task.trigger.kind === 'issue-body' || task.trigger.kind === 'label'
            ? 'body'
            : undefined;
  return [
    { text: task.request, html: request },
    { text: task.body ?? ctx.issue?.body ?? '', html: 'body' },
    ...ctx.thread.map((c) => ({ text: c.body, html: `review-comment:${c.id}` })),
    ...ctx.comments.map((c) => ({ text: c.body, html: `comment:${c.id}` })),
  ];
}

export async function gatherImages(
  task: Task,
  ctx: TaskContext,
  images: NonNullable<ContextOptions['images']>,
  html: Map<string, string>,
): Promise<ContextImages> {
  const byUrl = new Map<string, ImageOutcome>();
  if (images.mode === 'placeholders') return { mode: 'placeholders', byUrl };
  // Each image the markdown shows, with the address GitHub's rendering of that same text gives
  // it; an image GitHub did not render (in code, in a hidden region, edited since) has none.
  const wanted = new Map<string, string>();
  for (const { text, html: key } of imageTexts(task, ctx)) {
    const refs = imageRefs(text);
    if (refs.length === 0 || !key) continue;
    const rendered = htmlImages(html.get(key));
    matchImages(refs, rendered).forEach((img, i) => {
      const url = refs[i]!.url;
      if (!img || wanted.has(url)) return;
      // A proxied image of another site: fetching the proxy would fetch that site.
      wanted.set(url, img.canonical ? img.canonical : img.src);
    });
  }
  const urls = [...wanted.keys()];
  const outcomes = await downloadImages([...wanted.values()], images.fetch);
  urls.forEach((url, i) => byUrl.set(url, outcomes[i]!));
  return { mode: 'fetch', byUrl };
}
