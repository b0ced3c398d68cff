// A Perl script imported as its text (`with { type: 'text' }`: esbuild's text loader; the vitest
// configs' perl-text plugin).
declare module '*.pl' {
  const text: string;
  export default text;
}
