export function bundleEntries(
  entries: Record<string, string>,
  outdir: string,
  options?: { extension?: string },
): Promise<void>;
export function bundle(entry: string, outfile: string, options?: { executable?: boolean }): Promise<void>;
