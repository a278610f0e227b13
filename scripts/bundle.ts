/**
 * Second step of `npm run build` (after `tsc -p tsconfig.build.json`): bundles the extractor,
 * dist/extractor.js and everything it imports, into that one file, in place.
 *
 * Why: loading ~100 ES modules and winston's CommonJS tree file by file was most of the
 * extractor's start-up; one file with V8's compile cache (enabled by src/cli.ts) loads in a
 * fraction of that. The rest of dist/ stays as tsc wrote it: the mock server and the platform
 * client run unbundled, and so can the sources (`node src/cli.ts`).
 *
 * - ssh2 stays outside: it has an optional native part, and src/ssh imports it only when a run
 *   configures `sshProxy`; the bundle resolves it from node_modules like dist/ did.
 * - `import.meta.url` keeps meaning "this module's file in dist/" inside the bundle, so that a
 *   module starting itself as a worker thread (`new Worker(new URL(import.meta.url))`) still
 *   starts its own small module graph, not the whole bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'dist');
export const ENTRY = path.join(DIST, 'extractor.js');

/** Rewrites `import.meta.url` in each module of dist/ to the URL of that module's own file. */
const ownImportMetaUrl: Plugin = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(DIST + path.sep)) return undefined;
      const source = fs.readFileSync(args.path, 'utf8');
      if (/import\.meta\.(dirname|filename)/.test(source)) {
        throw new Error(`${path.relative(ROOT, args.path)}: import.meta.dirname/filename would point at the bundle; use import.meta.url`);
      }
      if (!source.includes('import.meta.url')) return { contents: source, loader: 'js' };
      // The bundle is dist/extractor.js, so the module's path relative to dist/ resolves from it.
      const own = `new URL(${JSON.stringify('./' + path.relative(DIST, args.path).split(path.sep).join('/'))}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', own), loader: 'js' };
    });
  },
};

export async function bundle(): Promise<void> {
  if (!fs.existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run tsc -p tsconfig.build.json first`);
  const result = await build({
    entryPoints: [ENTRY],
    outfile: ENTRY,
    allowOverwrite: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external: ['ssh2'],
    plugins: [ownImportMetaUrl],
    // The CommonJS dependencies (winston's tree) call require(); an ES module has none.
    banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  if (result.errors.length > 0) throw new Error('esbuild failed');
}

if (import.meta.main) await bundle();
