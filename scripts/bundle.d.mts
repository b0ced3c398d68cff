export function bundleEntries(
  entries: Record<string, string>,
  outdir: string,
  options?: { extension?: string; metafile?: boolean },
): Promise<{ inputs: Record<string, unknown> } | undefined>;
export function bundle(entry: string, outfile: string, options?: { executable?: boolean }): Promise<void>;
