export function bundle(entry: string, outfile: string, options?: { executable?: boolean }): Promise<void>;
