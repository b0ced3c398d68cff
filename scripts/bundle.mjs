// The esbuild settings of the committed bundles, shared by `npm run build` and the tests that
// bundle into a temp folder (so they never touch the committed dist/).
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { build } from 'esbuild';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');

const banner = [
  // CommonJS dependencies inside an ESM bundle need require, __filename and __dirname.
  "import { createRequire as __plCreateRequire } from 'node:module';",
  "import { fileURLToPath as __plFileURLToPath } from 'node:url';",
  "import { dirname as __plDirname } from 'node:path';",
  'const require = __plCreateRequire(import.meta.url);',
  'const __filename = __plFileURLToPath(import.meta.url);',
  'const __dirname = __plDirname(__filename);',
].join('\n');

/**
 * Bundles entries into `outdir` for Node 20 and up: `entries` maps an output name (without
 * extension) to a source file. Code that several entries share, and every module loaded with
 * import() (the provider SDKs, the CLI's commands, the artifact client), goes to outdir/chunks/,
 * so a run parses only what it uses. src/cli.ts starts with a #! line, which esbuild keeps.
 */
export async function bundleEntries(entries, outdir, { extension = '.js', metafile = false } = {}) {
  const result = await build({
    metafile,
    entryPoints: entries,
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': extension },
    splitting: true,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    legalComments: 'none',
    // Identifiers too: the bundle is otherwise over 5 MB, and nothing is installed at run time.
    minify: true,
    keepNames: true,
    logLevel: 'warning',
    banner: { js: banner },
    plugins: [precompiledToolChecks, octokitJson, toolkitContext],
  });
  return result.metafile;
}

/**
 * The built-in tools' JSON Schemas, as the tool factories make them, and the options of the checks: src/tools is bundled to a
 * scratch file beside node_modules (so its packages resolve) and asked for its tools.
 */
async function toolSchemas() {
  const cache = join(ROOT, 'node_modules', '.cache', 'patchloop');
  mkdirSync(cache, { recursive: true });
  const scratch = join(cache, `tool-schemas-${process.pid}-${Math.random().toString(36).slice(2)}.mjs`);
  const workspace = await mkdtemp(join(tmpdir(), 'pl-schemas-'));
  try {
    await build({
      stdin: {
        contents: [
          "export { createWorkspaceTools } from './src/tools/index.ts';",
          "export { AJV_OPTIONS } from './src/protocol/arguments.ts';",
        ].join('\n'),
        resolveDir: ROOT,
        loader: 'ts',
      },
      outfile: scratch,
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'warning',
    });
    const { createWorkspaceTools, AJV_OPTIONS } = await import(pathToFileURL(scratch).href);
    const tools = createWorkspaceTools({ root: workspace, allowBash: true, testCommand: 'true' });
    return { schemas: tools.map((t) => t.parameters), options: AJV_OPTIONS };
  } finally {
    rmSync(scratch, { force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}

/**
 * Replaces src/protocol/tool-validators.ts in the bundle with ajv's standalone code for the
 * built-in tools' schemas (the same options as src/protocol/arguments.ts), keyed by the schema's
 * JSON: a run then neither loads ajv nor compiles its meta-schema (30–40 ms at start-up).
 */
const precompiledToolChecks = {
  name: 'precompiled-tool-checks',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]protocol[\\/]tool-validators\.ts$/ }, async () => {
      const { schemas, options } = await toolSchemas();
      const keys = [...new Set(schemas.map((s) => JSON.stringify(s)))];
      const ajv = new Ajv({ ...options, code: { source: true, esm: true } });
      keys.forEach((key, i) => ajv.addSchema(JSON.parse(key), `tool${i}`));
      const code = standaloneCode.default(
        ajv,
        Object.fromEntries(keys.map((_, i) => [`check${i}`, `tool${i}`])),
      );
      const map = keys.map((key, i) => `[${JSON.stringify(key)}, check${i}]`).join(',\n  ');
      return {
        contents: `${code}\nexport const precompiledChecks = new Map([\n  ${map},\n]);\n`,
        loader: 'js',
        resolveDir: ROOT,
      };
    });
  },
};

/**
 * @octokit/request's json-with-bigint, as @octokit/request imports it, becomes
 * src/github/octokit-json.ts, which hands that library only the texts that need it (see there).
 */
const octokitJson = {
  name: 'octokit-json',
  setup(b) {
    const shim = join(ROOT, 'src', 'github', 'octokit-json.ts');
    b.onResolve({ filter: /^json-with-bigint$/ }, (args) =>
      resolve(args.importer) === shim ? undefined : { path: shim },
    );
  },
};

/**
 * @actions/github builds its `context` when the module loads (getOctokit's module included), and
 * parses GITHUB_EVENT_PATH there: a payload that is not JSON would throw before patchloop runs, and
 * the run would die with a stack trace instead of start-up's "The event payload … could not be
 * read" error and outputs. In the bundle that parse leaves the payload empty on bad JSON; start-up
 * reads the file itself. The build fails if the toolkit's code no longer has the line.
 */
const toolkitContext = {
  name: 'toolkit-context',
  setup(b) {
    b.onLoad({ filter: /[\\/]@actions[\\/]github[\\/]lib[\\/]context\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const parse =
        "this.payload = JSON.parse(readFileSync(process.env.GITHUB_EVENT_PATH, { encoding: 'utf8' }));";
      if (!source.includes(parse))
        throw new Error(`${args.path}: the event payload parse to guard is not there`);
      return {
        contents: source.replace(parse, `try { ${parse} } catch { this.payload = {}; }`),
        loader: 'js',
      };
    });
  },
};

/** Bundles one entry to `outfile` (its chunks beside it, in chunks/); `executable` sets mode 755. */
export async function bundle(entry, outfile, { executable = false } = {}) {
  const ext = extname(outfile) || '.js';
  await bundleEntries({ [basename(outfile, ext)]: entry }, dirname(outfile), { extension: ext });
  if (executable) chmodSync(join(dirname(outfile), basename(outfile)), 0o755);
}
