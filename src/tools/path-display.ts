/** A path as shown in tool output: quoted when it holds a newline or another control character. */
export function displayPath(path: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(path) ? JSON.stringify(path) : path;
}
