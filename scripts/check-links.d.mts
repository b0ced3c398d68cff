export function defaultPages(root: string): string[];
export function slug(heading: string): string;
export function anchorsOf(text: string): Set<string>;
export function linksOf(text: string): { target: string; line: number }[];
export function checkLinks(root: string, files?: string[]): string[];
